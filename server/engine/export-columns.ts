import type { AnyField, Entity, Fields, Message, Report } from '../../schema/kit'
import type { Row } from '../db/types'
import { languageOf, translator } from '../i18n'
import { ValidationError } from './errors'
import { LABELS } from './list-query'

/**
 * The columns of an exported list and each cell's value, as the screens say them: field
 * labels, choices and flags in the caller's language, references by their rows' labels.
 * The writers (CSV, XLSX) get typed values — numbers stay numbers, a decimal stays its exact
 * text, days and instants their ISO forms — and decide the file's own rendering.
 */
export type ColumnKind = 'text' | 'integer' | 'decimal' | 'money' | 'date' | 'datetime'

/** A cell: text, an integer, a decimal's exact text (`-5.00`), a day `YYYY-MM-DD`, an instant's ISO form; null when empty. */
export type CellValue = string | number | null

export type ExportColumn = {
  readonly name: string
  readonly label: string
  readonly kind: ColumnKind
  /** Digits after the point (decimal and money). */
  readonly scale?: number
  readonly cell: (row: Row) => CellValue
}

/** The most columns one export may name. */
export const MAX_EXPORT_COLUMNS = 200

type Translate = (key: string) => string

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A field a list row carries and an export may show: not write-only (passwords), not a document's lines, not an input-only value. */
const isExportable = (field: AnyField) => !field.isWriteOnly && field.kind !== 'lines' && !field.isTransient

/** The fields exported when the request names none: every readable stored one (many-to-many too). */
const isStored = (field: AnyField) => field.sql !== undefined || field.kind === 'refs'

/** The names a request may give in `columns`: the record's id and every field a list row carries. */
export const exportableNames = (entity: Entity<string, Fields>): string[] => ['id', ...entity.fieldNames.filter((n) => isExportable(entity.fields[n]!))]

/**
 * `columns=a,b,c` (the screen's visible columns, in its order), or every readable stored
 * field after the id. An unknown or unreadable name, or more than MAX_EXPORT_COLUMNS, is a
 * 400 field map in the caller's language.
 */
export function exportColumnNames(entity: Entity<string, Fields>, raw: unknown): string[] {
  if (raw === undefined || raw === '') return ['id', ...entity.fieldNames.filter((n) => isExportable(entity.fields[n]!) && isStored(entity.fields[n]!))]
  const asked = [raw].flat().flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter((v) => v !== '')
  const refuse = (message: Message) => {
    throw new ValidationError({ columns: [message] })
  }
  if (asked.length > MAX_EXPORT_COLUMNS) refuse({ key: 'validation.export_columns_max', params: { max: MAX_EXPORT_COLUMNS } })
  const allowed = exportableNames(entity)
  const unknown = asked.find((n) => !allowed.includes(n))
  if (unknown !== undefined) refuse({ key: 'validation.export_column', params: { column: unknown.slice(0, 60), columns: allowed.join(', ') } })
  const names = [...new Set(asked)]
  if (names.length === 0) refuse({ key: 'validation.export_column', params: { column: '', columns: allowed.join(', ') } })
  return names
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** Formatted text (already sanitised when stored) as the words a spreadsheet shows: tags gone, paragraphs on lines of their own. */
export function htmlText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote|tr)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1))
        return Number.isSafeInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
      }
      return ENTITIES[name.toLowerCase()] ?? whole
    })
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** A referenced row's label as a list row carries it: `{id, name}`, the label itself (`listAs: 'label'`), or a raw id with its label in `_labels`. */
function refLabel(value: unknown, label: unknown): string | null {
  if (value === null || value === undefined) return null
  if (isRecord(value)) return value.name === null || value.name === undefined ? (typeof value.id === 'number' ? `#${value.id}` : null) : String(value.name)
  if (typeof value === 'string') return value
  if (typeof label === 'string' || typeof label === 'number') return String(label)
  return typeof value === 'number' ? `#${value}` : String(value)
}

const instant = (value: unknown): string | null => {
  const d = value instanceof Date ? value : new Date(String(value))
  return Number.isNaN(d.getTime()) ? String(value) : d.toISOString()
}

const day = (value: unknown): string => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10))

/** A choice as the screens label it (`option.<value>`), or the value itself when no label is known. */
const optionLabel = (t: Translate, value: unknown) => {
  const key = `option.${String(value)}`
  const label = t(key)
  return label === key ? String(value) : label
}

/** What columns are made from: an entity's fields, or a report's columns. */
type ColumnSource = { readonly fields: Fields; readonly fieldLabelKey: (name: string) => string }

function columnOf(source: ColumnSource, name: string, t: Translate): ExportColumn {
  if (name === 'id') return { name, label: t('field.id'), kind: 'integer', cell: (row) => (row.id === null || row.id === undefined ? null : Number(row.id)) }
  const field = source.fields[name]!
  const label = t(source.fieldLabelKey(name))
  const raw = (row: Row) => row[name]
  const text = (cell: (value: unknown, row: Row) => string | null): ExportColumn => ({
    name,
    label,
    kind: 'text',
    cell: (row) => {
      const value = raw(row)
      return value === null || value === undefined ? null : cell(value, row)
    },
  })
  switch (field.kind) {
    case 'integer':
      return { name, label, kind: 'integer', cell: (row) => (raw(row) === null || raw(row) === undefined ? null : Number(raw(row))) }
    case 'decimal': {
      const isMoney = field.cell === 'money'
      return { name, label, kind: isMoney ? 'money' : 'decimal', scale: isMoney ? 2 : (field.scale ?? 2), cell: (row) => (raw(row) === null || raw(row) === undefined ? null : String(raw(row))) }
    }
    case 'date':
      return { name, label, kind: 'date', cell: (row) => (raw(row) === null || raw(row) === undefined ? null : day(raw(row))) }
    case 'datetime':
      return { name, label, kind: 'datetime', cell: (row) => (raw(row) === null || raw(row) === undefined ? null : instant(raw(row))) }
    case 'boolean':
      return text((value) => t(value === true ? 'option.yes' : 'option.no'))
    case 'enum':
      return text((value) => optionLabel(t, value))
    case 'ref':
      return text((value, row) => refLabel(value, isRecord(row[LABELS]) ? row[LABELS][name] : undefined))
    case 'refs':
      return text((value, row) => {
        if (!Array.isArray(value)) return null
        const labels = isRecord(row[LABELS]) && isRecord(row[LABELS][name]) ? row[LABELS][name] : {}
        return value.map((v) => refLabel(v, typeof v === 'number' ? labels[v] : undefined) ?? '').join('; ')
      })
    case 'json':
      return text((value) => JSON.stringify(value))
    default:
      // A list of names (a document's other rows' labels) reads as one.
      return text((value) => (Array.isArray(value) ? value.map(String).join('; ') : field.markup === 'html' ? htmlText(String(value)) : String(value)))
  }
}

const translate = (acceptLanguage: string | string[] | undefined): Translate => {
  const t = translator(languageOf(Array.isArray(acceptLanguage) ? acceptLanguage[0] : acceptLanguage))
  return (key) => t(key)
}

/** The export's columns in the caller's language (their Accept-Language). */
export function exportColumns(entity: Entity<string, Fields>, names: readonly string[], acceptLanguage: string | string[] | undefined): ExportColumn[] {
  const t = translate(acceptLanguage)
  return names.map((name) => columnOf(entity, name, t))
}

/** A report's columns, as its CSV has them, in the caller's language. */
export function reportColumns(report: Report, acceptLanguage: string | string[] | undefined): ExportColumn[] {
  const t = translate(acceptLanguage)
  return report.columnNames.map((name) => columnOf({ fields: report.columns, fieldLabelKey: report.fieldLabelKey }, name, t))
}
