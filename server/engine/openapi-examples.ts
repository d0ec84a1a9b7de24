import { documentOf, parseDecimal, withComputed, type AnyField, type Entity, type Fields } from '../../schema/kit'
import { todayIso } from '../../schema/kit/dates'
import { validateRecordInput, type RecordShape } from '../../schema/kit/validators'
import { entityLabel, writableNames } from './openapi-schemas'

/**
 * Examples of the document, made from each field's kind and bounds: a request body the
 * server's validators accept (fields and the rules across them, as `validateRecordInput`
 * judges them) and the record a read answers. References name row 1: whether such a row
 * exists is the database's, not the shape's (the test posts every example and says how it
 * judges that).
 */
type Values = Record<string, unknown>

/** The id every example's reference names. */
export const EXAMPLE_ID = 1

/** The day examples are dated: today, so that a document is not back-dated (stock is never moved into the past). */
const today = () => todayIso()

/**
 * A number from a text, the same every time: values a record must not share with another's
 * (a phone, an e-mail, a unique name) differ from entity to entity and field to field.
 */
const digitsOf = (text: string, count: number) => {
  let h = 2166136261
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0
  return String(h).padStart(10, '0').slice(-count)
}

/** A text that fits the field's bounds: the field's name in words (and, unique, the entity's). */
function textOf(field: AnyField, name: string, seed: string): string {
  if (field.format === 'postal_code') return '1212'
  if (field.slugFrom) return `${seed.replace(/_/g, '-')}-sample`
  const words = name.replace(/_/g, ' ')
  let text = field.format === 'code' ? name.replace(/[^a-z0-9]/gi, '').toUpperCase().slice(0, 6) || 'CODE' : field.isUnique ? `Sample ${words} ${digitsOf(seed, 4)}` : `Sample ${words}`
  if (field.markup === 'html') text = `<p>${text}</p>`
  const max = field.maxLength ?? 255
  if (text.length > max) text = text.slice(0, max)
  if (field.minLength !== undefined && text.length < field.minLength) text = text.padEnd(field.minLength, 'x')
  return text
}

function decimalOf(field: AnyField): string {
  const scale = field.scale ?? 2
  const floor = Math.max(Number(field.minDecimal ?? '0'), field.gtDecimal !== undefined ? Number(field.gtDecimal) + 1 : 0)
  const ceiling = field.maxDecimal !== undefined ? Number(field.maxDecimal) : Infinity
  const whole = Math.min(Math.max(floor, 10), ceiling)
  return scale > 0 ? `${Math.floor(whole)}.${'0'.repeat(scale)}` : String(Math.floor(whole))
}

/**
 * A valid value of the field as a client sends it; undefined when an example leaves it out (a
 * file, which JSON cannot carry). `seed` (the entity's name) keeps apart what must be unique.
 */
export function exampleValue(field: AnyField, name: string, seed = 'sample'): unknown {
  // The registry's own example (a value a module judges: a saved view's list) before any made up.
  if (field.example !== undefined && !field.isUnique) return field.example
  if (field.defaultValue !== undefined && field.kind !== 'lines' && field.kind !== 'refs') return field.defaultValue
  switch (field.kind) {
    case 'text':
      return textOf(field, name, seed)
    case 'email':
      return `${seed.replace(/_/g, '.')}.${name.replace(/_/g, '.')}@example.com`
    case 'phone':
      return `+88017${digitsOf(`${seed}.${name}`, 8)}`
    case 'url':
      return 'https://example.com'
    case 'integer':
      return Math.min(Math.max(field.min ?? 1, 1), field.max ?? 1)
    case 'decimal':
      return decimalOf(field)
    case 'boolean':
      return false
    case 'date':
      // A day that may not be in the future (a birthday) is one well in the past.
      return field.notAfter === 'today' ? '1990-05-17' : today()
    case 'datetime':
      return `${today()}T09:00:00.000Z`
    case 'enum':
      return field.options?.[0]
    case 'ref':
      return EXAMPLE_ID
    case 'refs':
      return [EXAMPLE_ID]
    case 'file':
      return undefined
    case 'json':
      return { key: 'value' }
    case 'password':
      return 'Sample-Passw0rd!'.padEnd(field.minLength ?? 0, 'x').slice(0, field.maxLength ?? 128)
    case 'lines': {
      const spec = field.lines!
      return Array.from({ length: Math.max(spec.min ?? 1, 1) }, () => exampleInput(spec.entity, 'create', seed))
    }
  }
}

/**
 * A body of the shape the server takes: every field a client may send, then — where the
 * rules across fields refuse it (one head of two, not both; a confirmation that must match)
 * — the optional fields they name left out or the input-only ones they ask for given, until
 * the registry's validation passes.
 */
export function exampleInput(shape: RecordShape & { readonly name?: string }, mode: 'create' | 'update' = 'create', seed = 'sample'): Values {
  // Asked for by several operations of each entity (its create, import, bulk change, history): judged once.
  const key = `${mode} ${seed}`
  const known = madeInputs.get(shape)?.get(key)
  if (known) return { ...known }
  const made = makeInput(shape, mode, seed)
  madeInputs.set(shape, (madeInputs.get(shape) ?? new Map<string, Values>()).set(key, made))
  return { ...made }
}
const madeInputs = new WeakMap<RecordShape, Map<string, Values>>()

function makeInput(shape: RecordShape & { readonly name?: string }, mode: 'create' | 'update', seed: string): Values {
  const input: Values = {}
  for (const name of writableNames(shape)) {
    const field = shape.fields[name]!
    // An input-only value (a confirmation) is given only when a rule asks for it, below.
    if (field.isTransient) continue
    // An update that leaves a secret out keeps it.
    if (mode === 'update' && field.isWriteOnly) continue
    // A new row of a tree starts at its root: an optional parent names none.
    if (field.kind === 'ref' && !field.isRequired && field.ref!.target === shape.name) continue
    const value = exampleValue(field, name, seed)
    if (value !== undefined && value !== null) input[name] = value
  }
  for (let round = 0; round < 8; round++) {
    const result = validateRecordInput(shape, input, mode)
    if (result.success) break
    for (const issue of result.issues) {
      const name = String(issue.path[0] ?? '')
      const field = shape.fields[name]
      if (!field || field.isReadOnly) continue
      if (!(name in input)) {
        const value = exampleValue(field, name, seed)
        if (value !== undefined) input[name] = value
      } else if (!field.isRequired) {
        delete input[name]
      }
    }
  }
  return input
}

/** The values the server keeps of an example input: normalised as its validators read them. */
function normalised(shape: RecordShape, input: Values): Values {
  const result = validateRecordInput(shape, input, 'create')
  return result.success ? result.data : input
}

/** The values with what the server works out from them (a line's total, a document's sum). */
function computed(entity: Entity<string, Fields>, values: Values): Values {
  try {
    return withComputed(entity, withComputed(entity, values, 'stored'), 'virtual')
  } catch {
    // A value worked out from what an example does not hold (a referenced row's): the example shows none.
    return values
  }
}

/** A document's first number of its period, as numbering.ts gives it: `<PREFIX><YYYYMMDD or YYYY>00<n>`. */
const numberOf = (numbering: NonNullable<Entity<string, Fields>['numbering']>) => `${numbering.prefix}${numbering.reset === 'day' ? today().replace(/-/g, '') : today().slice(0, 4)}001`

const STAMP = () => `${today()}T09:00:00.000Z`

/** A record as the server answers it for an example input: its id, its values, the server's own, the authors and labels. */
export function exampleRecord(entity: Entity<string, Fields>, place: 'record' | 'row' = 'record'): Values {
  const given = normalised(entity, exampleInput(entity, 'create', entity.name))
  // The server's own values (a number it gives), then what is worked out from them all.
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (field.isReadOnly && !field.compute && !(name in given)) given[name] = entity.numbering?.field === name ? numberOf(entity.numbering) : (exampleValue(field, name, entity.name) ?? null)
  }
  const values = computed(entity, given)
  const out: Values = { id: EXAMPLE_ID }
  const labels: Values = {}
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (field.isWriteOnly || (place === 'row' && (field.kind === 'lines' || field.isVirtual))) continue
    let value = name in values ? values[name] : null
    if (field.kind === 'lines') value = ((value as Values[] | null) ?? []).map((line, i) => ({ id: i + 1, ...answered(field.lines!.entity, line) }))
    // A file is answered as the path it was stored at; a decimal with its every place.
    if (field.kind === 'file') value = `/media/${entity.name}/sample.png`
    if (field.kind === 'decimal' && value !== null && value !== undefined) value = parseDecimal(value, field.precision ?? 20, field.scale ?? 2) ?? value
    if (field.kind === 'ref' && value !== null && value !== undefined) {
      const label = `${entityLabel(field.ref!.target)} ${String(value)}`
      if (place === 'row' && field.listAs !== 'id') value = field.listAs === 'label' ? label : { id: value, name: label }
      else labels[name] = label
    }
    if (field.kind === 'refs' && Array.isArray(value)) {
      if (place === 'row' && field.listAs !== 'id') value = value.map((id) => ({ id, name: `${entityLabel(field.ref!.target)} ${String(id)}` }))
      else labels[name] = Object.fromEntries(value.map((id) => [String(id), `${entityLabel(field.ref!.target)} ${String(id)}`]))
    }
    out[name] = value ?? null
  }
  return { ...out, created_at: STAMP(), updated_at: STAMP(), created_by: 'admin@example.com', updated_by: 'admin@example.com', _labels: labels }
}

/** A line as answered: its values, with the server's own (a computed total) null until worked out. */
function answered(line: Entity<string, Fields>, values: Values): Values {
  const out: Values = {}
  for (const name of line.fieldNames) {
    const field = line.fields[name]!
    if (field.isWriteOnly) continue
    const value = values[name] ?? null
    out[name] = field.kind === 'decimal' && value !== null ? (parseDecimal(value, field.precision ?? 20, field.scale ?? 2) ?? value) : value
  }
  return out
}

/** A document kept one row per line as its routes answer it: the header and its lines. */
export function exampleDocument(entity: Entity<string, Fields>): Values {
  return exampleRecord(documentOf(entity))
}
