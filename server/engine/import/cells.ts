import type { AnyField, Entity, Fields } from '../../../schema/kit'
import { languages, translator } from '../../i18n'
import { foldName } from './fields'
import type { Cell } from './sheet'

/**
 * A cell as the value a client would send for its field, read the way people fill sheets;
 * what cannot be read is passed on as written, for the registry's validator to refuse in
 * its own words. Text is trimmed. Numbers are decimal strings (a spreadsheet's number is
 * read as the 15 digits it shows). Flags are yes/no, true/false, 1/0 and their Turkish and
 * Arabic words. Choices are their value or their label in any language of the app. Days and
 * times are ISO (`2024-03-01`, `2024-03-01T09:30`) or spreadsheet serial numbers.
 * References are the resolver's (references.ts).
 */
export type ValueReader = (cell: Cell) => unknown

/** Arabic-Indic and Persian digits as ASCII ones, the Arabic decimal and thousands signs as `.` and `,`. */
const latinDigits = (s: string) =>
  s
    .replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String((d.charCodeAt(0) & 0xf) % 10))
    .replace(/\u066B/g, '.')
    .replace(/\u066C/g, ',')

/**
 * A number as written by a person, as a plain decimal string, or undefined when it could be
 * read two ways. Spaces and apostrophes between digits group them. With both `.` and `,` the
 * last is the decimal point and the other must group thousands (`1,234.50`, `1.234,50`).
 * With one `,` alone it is the decimal point (`12,5`), unless exactly three digits follow it
 * (`1,234`: a thousand and some, or one and a fraction) — then the number is ambiguous and
 * refused. Several `,` (or several `.`) can only group thousands (`1,234,567`).
 */
export function decimalText(raw: string): string | undefined {
  const s = latinDigits(raw.trim()).replace(/[\s\u00A0\u202F']/g, '')
  const grouped = (whole: string, group: string) => new RegExp(`^[+-]?\\d{1,3}(\\${group}\\d{3})+$`).test(whole)
  const hasDot = s.includes('.')
  const hasComma = s.includes(',')
  if (hasDot && hasComma) {
    const at = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','))
    const point = s[at]!
    const group = point === '.' ? ',' : '.'
    const whole = s.slice(0, at)
    if (!grouped(whole, group)) return undefined
    return `${whole.replaceAll(group, '')}.${s.slice(at + 1)}`
  }
  for (const mark of [',', '.']) {
    const parts = s.split(mark)
    if (parts.length > 2) return grouped(s, mark) ? parts.join('') : undefined
  }
  if (hasComma) {
    const [whole, fraction] = s.split(',') as [string, string]
    return /^\d{3}$/.test(fraction) ? undefined : `${whole}.${fraction}`
  }
  return s
}

/** A spreadsheet's number as the 15 significant digits it shows (no binary noise: `0.30000000000000004` is `0.3`). */
function numberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER) return String(n)
  const shown = Number(n.toPrecision(15))
  const text = String(shown)
  return /e/i.test(text) ? shown.toFixed(20).replace(/\.?0+$/, '') : text
}

/** Days between 1899-12-30 and 1970-01-01: a spreadsheet's day 0, as it counts them (its 1900 leap day included). */
const SERIAL_EPOCH_DAYS = 25569
const isSerial = (s: string) => /^\d{1,6}(\.\d+)?$/.test(s)
const serialInstant = (serial: number) => new Date(Math.round((serial - SERIAL_EPOCH_DAYS) * 86_400_000))

function dayOf(cell: Cell): unknown {
  if (cell instanceof Date) return cell.toISOString().slice(0, 10)
  if (typeof cell === 'number') return serialInstant(cell).toISOString().slice(0, 10)
  const text = String(cell).trim()
  if (isSerial(text)) return serialInstant(Number(text)).toISOString().slice(0, 10)
  // A day given with its time (an export of a date-time): the day.
  return /^\d{4}-\d{2}-\d{2}[T ]/.test(text) ? text.slice(0, 10) : text
}

function instantOf(cell: Cell): unknown {
  if (cell instanceof Date) return cell.toISOString()
  if (typeof cell === 'number') return serialInstant(cell).toISOString()
  const text = String(cell).trim()
  return isSerial(text) ? serialInstant(Number(text)).toISOString() : text
}

/** Words for yes and no, folded (no case or accents), in the app's languages. */
const TRUE_WORDS = ['yes', 'y', 'true', '1', 'on', 'x', 'evet', 'e', 'dogru', 'var', 'نعم', 'صح', 'صحيح'].map(foldName)
const FALSE_WORDS = ['no', 'n', 'false', '0', 'off', 'hayir', 'h', 'yanlis', 'yok', 'لا', 'خطأ'].map(foldName)

function flagOf(cell: Cell): unknown {
  if (typeof cell === 'boolean') return cell
  if (cell === 1 || cell === 0) return cell === 1
  const text = latinDigits(String(cell).trim())
  const folded = foldName(text)
  if (TRUE_WORDS.includes(folded)) return true
  if (FALSE_WORDS.includes(folded)) return false
  return text
}

/** A choice's values by what a sheet may call them: the value itself and its label in each language. */
function choicesOf(field: AnyField): Map<string, string> {
  const byWord = new Map<string, string>()
  const options = field.options ?? []
  for (const option of options) byWord.set(foldName(option), option)
  for (const language of languages) {
    const t = translator(language)
    for (const option of options) {
      const label = t(`option.${option}`)
      if (label !== `option.${option}` && !byWord.has(foldName(label))) byWord.set(foldName(label), option)
    }
  }
  return byWord
}

const textOf = (cell: Cell) => (cell instanceof Date ? cell.toISOString() : typeof cell === 'number' ? numberText(cell) : String(cell))

/** How each kind reads a (non-blank) cell. References and many-to-many are the resolver's. */
export function valueReader(field: AnyField): ValueReader {
  switch (field.kind) {
    case 'integer':
    case 'decimal':
      return (cell) => {
        if (typeof cell === 'number') return numberText(cell)
        const text = String(cell).trim()
        const read = decimalText(text)
        // A whole number written with decimals of nothing (`12.00`) is that number.
        return read === undefined ? text : field.kind === 'integer' ? read.replace(/\.0*$/, '') : read
      }
    case 'boolean':
      return flagOf
    case 'date':
      return dayOf
    case 'datetime':
      return instantOf
    case 'enum': {
      const choices = choicesOf(field)
      return (cell) => {
        const text = textOf(cell).trim()
        return field.options?.includes(text) ? text : (choices.get(foldName(text)) ?? text)
      }
    }
    // A secret is taken as typed: spaces may be part of it.
    case 'password':
      return (cell) => textOf(cell)
    default:
      return (cell) => textOf(cell).trim()
  }
}

/** The readers of the mapped fields that are not references. */
export function valueReaders(entity: Entity<string, Fields>, fields: readonly string[]): Map<string, ValueReader> {
  return new Map(fields.filter((name) => !entity.fields[name]!.ref).map((name) => [name, valueReader(entity.fields[name]!)]))
}
