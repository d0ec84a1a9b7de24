import type { AnyField } from '../../../schema/kit'
import { todayIso } from '../../../schema/kit/dates'
import type { AnyEntity, Payload } from '../entity-api'

/**
 * Between a stored row and the form: inputs hold strings, checkboxes booleans, reference
 * selects ids, file inputs the stored path or a newly chosen File, a document's lines a list
 * of line values (with the `id` of a stored line). On save the registry schema's output is
 * sent as JSON, or as multipart when a file was chosen (api-contract §2.5).
 */
export type FormValue = string | boolean | number | readonly number[] | File | null | readonly LineValues[]
export type FormValues = Record<string, FormValue>
/** One line of a document in the form; `id` is the stored line's. */
export type LineValues = { readonly [field: string]: FormValue | undefined } & { readonly id?: number }
/** The schema's output: what is sent to the server. */
export type SubmitValues = Record<string, unknown>

const pad = (n: number) => String(n).padStart(2, '0')

/** An ISO instant as the `datetime-local` input wants it, in the browser's time zone. */
export function toLocalDateTime(value: string): string {
  const d = new Date(value)
  if (Number.isNaN(d.getTime())) return ''
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** A number whose default is zero (a voucher line's other side): zero reads as nothing entered, and blank is sent as the default. */
const isZeroDefault = (field: AnyField, value: unknown) =>
  field.kind === 'decimal' && typeof field.defaultValue === 'string' && /^0(\.0*)?$/.test(field.defaultValue) && (value === undefined || (typeof value === 'string' && /^-?0(\.0*)?$/.test(value)))

function initialOf(field: AnyField): FormValue {
  if (isZeroDefault(field, undefined)) return ''
  switch (field.widget) {
    case 'checkbox':
      return typeof field.defaultValue === 'boolean' ? field.defaultValue : false
    case 'ref-select':
      return null
    case 'refs-select':
      return []
    case 'json':
      return field.defaultValue === undefined ? '' : JSON.stringify(field.defaultValue, null, 2)
    case 'date':
      return field.initial === 'today' ? todayIso() : typeof field.defaultValue === 'string' ? field.defaultValue : ''
    case 'lines':
      // A document that needs lines starts with one to fill in.
      return field.lines?.min ? Array.from({ length: field.lines.min }, () => emptyLine(field.lines!.entity)) : []
    default:
      return typeof field.defaultValue === 'string' || typeof field.defaultValue === 'number' ? String(field.defaultValue) : ''
  }
}

function idOf(value: unknown): number | null {
  if (typeof value === 'number') return value
  if (typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'number') return value.id
  return null
}

function fromStored(field: AnyField, value: unknown): FormValue {
  if (value === null || value === undefined) return field.widget === 'checkbox' ? false : initialOf({ ...field, defaultValue: undefined })
  if (isZeroDefault(field, value)) return ''
  switch (field.widget) {
    case 'checkbox':
      return value === true
    case 'ref-select':
      return idOf(value)
    case 'refs-select':
      return Array.isArray(value) ? value.map(idOf).filter((n): n is number => n !== null) : []
    case 'date':
      return String(value).slice(0, 10)
    case 'datetime':
      return toLocalDateTime(String(value))
    case 'json':
      return JSON.stringify(value, null, 2)
    case 'lines':
      return Array.isArray(value) ? value.map((line: Record<string, unknown>) => lineOf(field.lines!.entity, line)) : []
    default:
      return String(value)
  }
}

/** The values a line is entered with: its entity's inputs (computed values are worked out, not entered). */
function lineOf(line: AnyEntity, row: Record<string, unknown> | null): LineValues {
  const values: Record<string, FormValue> = {}
  for (const name of line.fieldNames) {
    const field = line.fields[name]!
    if (field.isReadOnly) continue
    values[name] = row ? fromStored(field, row[name]) : initialOf(field)
  }
  return row && typeof row.id === 'number' ? { ...values, id: row.id } : values
}

/** A new, empty line of a document. */
export const emptyLine = (line: AnyEntity): LineValues => lineOf(line, null)

/** The form's starting values: the field defaults for a new record, the row's values otherwise. */
export function toFormValues(entity: AnyEntity, row: Record<string, unknown> | null): FormValues {
  const values: FormValues = {}
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    values[name] = row ? fromStored(field, row[name]) : initialOf(field)
  }
  return values
}

/** Chosen files are validated by name (the server checks type and size) and sent as files. */
export function prepareForValidation(values: Readonly<Record<string, FormValue | undefined>>): Record<string, unknown> {
  const prepared: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(values)) {
    prepared[name] = value instanceof File ? value.name.slice(0, 255) : Array.isArray(value) && value.some((v) => typeof v === 'object' && v !== null) ? value.map((line: LineValues) => prepareForValidation(line)) : value
  }
  return prepared
}

export function filesOf(values: FormValues): Record<string, File> {
  const files: Record<string, File> = {}
  for (const [name, value] of Object.entries(values)) if (value instanceof File) files[name] = value
  return files
}

function formDataValue(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'boolean' || typeof value === 'number') return String(value)
  if (Array.isArray(value)) return value.join(',')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** An edit leaves a blank write-only field (a password) out: the stored one stays. */
export function withoutBlankSecrets(entity: AnyEntity, submitted: SubmitValues): SubmitValues {
  return Object.fromEntries(Object.entries(submitted).filter(([name, value]) => !(entity.fields[name]?.isWriteOnly && (value === null || value === ''))))
}

/**
 * JSON unless a file was chosen; then multipart with the file parts and a document's lines
 * flattened as the contract does (`items[0][ledger]`). `extra` goes along (the `updated_at`
 * an edit was read at, so that the server refuses it if someone changed the record since).
 */
export function toPayload(entity: AnyEntity, submitted: SubmitValues, extra: Record<string, unknown> = {}): Payload {
  const files = Object.values(submitted).some((v) => v instanceof File)
  const names = entity.fieldNames.filter((n) => n in submitted)
  if (!files) return { ...Object.fromEntries(names.map((n) => [n, submitted[n]])), ...extra }
  const data = new FormData()
  const append = (key: string, value: unknown) => {
    if (value instanceof File) data.append(key, value, value.name)
    else data.append(key, formDataValue(value))
  }
  for (const name of names) {
    const value = submitted[name]
    if (entity.fields[name]?.kind === 'lines' && Array.isArray(value)) {
      value.forEach((line: Record<string, unknown>, i) => Object.entries(line).forEach(([k, v]) => v !== undefined && append(`${name}[${i}][${k}]`, v)))
    } else append(name, value)
  }
  for (const [key, value] of Object.entries(extra)) append(key, value)
  return data
}
