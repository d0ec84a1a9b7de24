import { z } from 'zod'
import type { Entity, Fields, RuleContext } from './entity'
import { compareDecimals, INT4_MAX, MAX_LINES, MAX_REFS, normalizePhone, parseDecimal, type Field, type MessageRule, type Presence } from './fields'
import { normalizers } from './normalize'
import { todayIso } from './dates'

/**
 * The zod validators of the registry, built from the field descriptions on first use and
 * kept. The browser form and the server run these same validators, so a record is judged
 * by one set of rules everywhere. Messages are i18n keys (see messages.ts).
 */
type AnyField = Field<unknown, Presence> | Field<never, Presence>

/** The i18n key of a rule's message: the field's own (`messages`) or the registry's. */
export const messageOf = (f: Pick<AnyField, 'messages'>, rule: MessageRule): string => f.messages?.[rule] ?? `validation.${rule}`

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')
/** The original's forms send `0` or `'0'` for "no reference chosen" (api-contract §2.5). */
const isBlankRef = (v: unknown) => isBlank(v) || v === 0 || v === '0'

function toInteger(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : undefined
  if (typeof v === 'string' && /^\s*-?\d{1,16}\s*$/.test(v)) return Number(v)
  return undefined
}

/** The largest id a path, a body or a token may carry: 15 digits fit bigint and a JS number exactly. */
export const MAX_ID = 999_999_999_999_999

/** Whether a text is a row id (a path's, a query's): digits only, no sign or exponent, 1 to MAX_ID. */
export const isIdText = (s: string): boolean => /^\d{1,15}$/.test(s) && Number(s) >= 1 && Number(s) <= MAX_ID

/** A row id as a request may carry it (a number or its text), or null: never 1.5, 1e400 (Infinity) or 0. */
export const rowIdValueOf = (v: unknown): number | null =>
  typeof v === 'number' ? (Number.isInteger(v) && v >= 1 && v <= MAX_ID ? v : null) : typeof v === 'string' && isIdText(v.trim()) ? Number(v) : null

/**
 * A JSON field's bounds: nesting deep enough for any settings object, far below what would
 * overflow a recursive walk (zod's, the audit's, PostgreSQL's own jsonb parser), and a size
 * that keeps one field from filling a row.
 */
export const JSON_MAX_DEPTH = 32
export const JSON_MAX_CHARS = 65_536

/**
 * A UTF-16 surrogate without its pair (`"\ud800"` in JSON) is no character: PostgreSQL refuses
 * it in jsonb and the driver would store U+FFFD in its place in text, so it is refused as input.
 */
export const hasUnpairedSurrogate = (s: string): boolean => /\p{Cs}/u.test(s)

export type JsonProblem = 'depth' | 'size' | 'surrogate'

/**
 * What makes a parsed JSON value unstorable, found without recursion (an explicit stack), so
 * a value nested thousands of levels deep is measured before anything recursive touches it.
 */
export function jsonProblemOf(value: unknown, limits: { maxDepth: number; maxChars: number } = { maxDepth: JSON_MAX_DEPTH, maxChars: JSON_MAX_CHARS }): JsonProblem | undefined {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }]
  // Roughly the characters of its JSON text: each string, key and scalar, plus one per separator.
  let chars = 0
  while (pending.length > 0) {
    const { value: v, depth } = pending.pop()!
    if (typeof v === 'string') {
      if (hasUnpairedSurrogate(v)) return 'surrogate'
      chars += v.length + 2
    } else if (v !== null && typeof v === 'object') {
      if (depth >= limits.maxDepth) return 'depth'
      const entries = Array.isArray(v) ? v.map((item) => ['', item] as const) : Object.entries(v)
      for (const [key, item] of entries) {
        if (hasUnpairedSurrogate(key)) return 'surrogate'
        chars += key.length + 1
        pending.push({ value: item, depth: depth + 1 })
      }
      chars += 2
    } else {
      chars += String(v).length
    }
    if (chars > limits.maxChars) return 'size'
  }
  return undefined
}

function integerBase(min: number, max: number, m: (rule: MessageRule) => string): z.ZodType<number> {
  return z
    .unknown()
    .transform((v, ctx) => {
      const n = toInteger(v)
      if (n === undefined) {
        ctx.addIssue({ code: 'custom', message: m('integer') })
        return z.NEVER
      }
      return n
    })
    .pipe(z.number().min(min, { error: m('min_value') }).max(max, { error: m('max_value') })) as unknown as z.ZodType<number>
}

/** A row id: a positive integer, given as a number or a digit string (multipart forms). */
const idBase = (error: string) =>
  z.unknown().transform((v, ctx) => {
    const n = toInteger(v)
    if (n === undefined || n < 1 || n > MAX_ID) {
      ctx.addIssue({ code: 'custom', message: error })
      return z.NEVER
    }
    return n
  }) as unknown as z.ZodType<number>

/** Accepts a full URL or a bare host such as `www.dhaka.gov.bd`, as the seed data of the original has. */
function isUrlLike(s: string): boolean {
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.')
  } catch {
    return false
  }
}

/**
 * A day of the calendar, `YYYY-MM-DD`, from year 1 (PostgreSQL refuses year 0, and Date.UTC
 * would read 0001–0099 as 1901–1999).
 */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  if (!m) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const isLeap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  const days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  return year >= 1 && days !== undefined && day >= 1 && day <= days
}

/**
 * A date and time as an ISO instant in UTC, or undefined when it is none that PostgreSQL
 * takes: JavaScript rolls `2024-02-30` over to March and reads year 0000 and offsets beyond
 * ±15:59, which PostgreSQL refuses; its instant must also fall within years 1 to 9999 in UTC.
 */
export function instantOf(s: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s) || !isCalendarDate(s.slice(0, 10))) return undefined
  const time = Date.parse(s)
  if (Number.isNaN(time)) return undefined
  const iso = new Date(time).toISOString()
  return /^\d{4}-/.test(iso) && !iso.startsWith('0000') ? iso : undefined
}

// A date in the future is refused on both sides, each by its own day (dates.ts).
export { todayIso }

/** Arabic-Indic and Persian digits as ASCII ones: a code typed on an Arabic keyboard is the same code. */
const asciiDigits = (s: string) => s.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String((d.charCodeAt(0) & 0xf) % 10))

/** Capitals, single spaces: `sw1a  1aa` is `SW1A 1AA`. */
export const normalizePostalCode = (s: string) => asciiDigits(s).replace(/\s+/g, ' ').toLocaleUpperCase('en')

/** Letters, digits, single spaces and hyphens, starting and ending with a letter or digit, a digit among them. */
const POSTAL_CODE = /^(?=.*\d)[A-Z0-9](?:[A-Z0-9 -]*[A-Z0-9])?$/

const truthy = new Set(['true', '1', 'on', 'yes'])
const falsy = new Set(['false', '0', 'off', 'no'])

/** The validator of a present (non-blank) value, by kind. */
function baseOf(f: AnyField): z.ZodType {
  const m = (rule: MessageRule) => messageOf(f, rule)
  switch (f.kind) {
    case 'text': {
      let s = z.string({ error: m('text') }).trim()
      if (f.format === 'postal_code') s = s.overwrite(normalizePostalCode)
      if (f.normalize) s = s.overwrite(normalizers[f.normalize])
      // A value of the wrong length is told so, not also that its shape is wrong.
      if (f.minLength !== undefined) s = s.min(f.minLength, { error: m('min_length'), abort: true })
      if (f.maxLength !== undefined) s = s.max(f.maxLength, { error: m('max_length'), abort: true })
      if (f.format === 'postal_code') s = s.regex(POSTAL_CODE, { error: m('postal_code') })
      return s
    }
    case 'email':
      return z
        .string({ error: m('email') })
        .trim()
        .toLowerCase()
        .max(255, { error: m('max_length') })
        .pipe(z.email({ error: m('email') }))
    case 'phone':
      return z
        .string({ error: m('phone') })
        .trim()
        .overwrite(normalizePhone)
        .regex(/^\+[1-9]\d{6,14}$/, { error: m('phone') })
    case 'url':
      return z
        .string({ error: m('url') })
        .trim()
        .max(f.maxLength ?? 1000, { error: m('max_length') })
        .refine(isUrlLike, { error: m('url') })
    case 'integer':
      return integerBase(f.min ?? -INT4_MAX, f.max ?? INT4_MAX, m)
    case 'decimal': {
      const precision = f.precision ?? 20
      const scale = f.scale ?? 2
      const minimum = f.minDecimal
      const maximum = f.maxDecimal
      // What a person may type: the bound's digits when there is one (money's 12), else the column's.
      const whole = maximum !== undefined ? maximum.replace(/^-/, '').split('.')[0]!.length : precision - scale
      return z.unknown().transform((v, ctx) => {
        const d = parseDecimal(v, precision, scale)
        if (d === undefined) {
          ctx.addIssue({ code: 'custom', message: m('decimal'), params: { scale, whole } })
          return z.NEVER
        }
        if (maximum !== undefined && compareDecimals(d.replace(/^-/, ''), maximum) > 0) {
          ctx.addIssue({ code: 'custom', message: m('max_amount'), params: { max: maximum, whole }, input: d })
          return z.NEVER
        }
        if (minimum !== undefined && d.startsWith('-') && !minimum.startsWith('-')) {
          ctx.addIssue({ code: 'too_small', origin: 'number', minimum: Number(minimum), inclusive: true, message: m('min_value'), input: d })
          return z.NEVER
        }
        if (f.gtDecimal !== undefined && compareDecimals(d, f.gtDecimal) <= 0) {
          ctx.addIssue({ code: 'custom', message: m('above_value'), params: { min: f.gtDecimal }, input: d })
          return z.NEVER
        }
        return d
      })
    }
    case 'boolean':
      return z.unknown().transform((v, ctx) => {
        if (typeof v === 'boolean') return v
        if (v === 1 || v === 0) return v === 1
        if (typeof v === 'string' && truthy.has(v.toLowerCase())) return true
        if (typeof v === 'string' && falsy.has(v.toLowerCase())) return false
        ctx.addIssue({ code: 'custom', message: m('boolean') })
        return z.NEVER
      })
    case 'date': {
      const day = z.string({ error: m('date') }).trim().refine(isCalendarDate, { error: m('date'), abort: true })
      return f.notAfter === 'today' ? day.refine((s) => s <= todayIso(), { error: m('future_date') }) : day
    }
    case 'datetime':
      return z
        .string({ error: m('datetime') })
        .trim()
        .refine((s) => instantOf(s) !== undefined, { error: m('datetime') })
        .transform((s) => instantOf(s)!)
    case 'enum':
      return z.enum(f.options as [string, ...string[]], { error: m('choice') })
    case 'ref':
      return idBase(m('ref'))
    case 'refs':
      return z
        .unknown()
        .transform((v) => (typeof v === 'string' ? v.split(',').filter((x) => x.trim() !== '') : v))
        .pipe(z.array(idBase(m('refs')), { error: m('refs') }).max(MAX_REFS, { error: 'validation.too_many' }))
        .transform((ids) => [...new Set(ids)].sort((a, b) => a - b))
    case 'file':
      return z.string({ error: m('file') }).trim().max(500, { error: m('max_length') })
    case 'password': {
      // Not trimmed: spaces are part of a password.
      let s = z.string({ error: m('text') })
      if (f.minLength !== undefined) s = s.min(f.minLength, { error: m('min_length') })
      return s.max(f.maxLength ?? 128, { error: m('max_length') })
    }
    case 'json':
      return z
        .unknown()
        .transform((v, ctx) => {
          let value = v
          if (typeof v === 'string') {
            if (v.length > JSON_MAX_CHARS) {
              ctx.addIssue({ code: 'custom', message: 'validation.json_size', params: { max: JSON_MAX_CHARS } })
              return z.NEVER
            }
            try {
              value = JSON.parse(v) as unknown
            } catch {
              ctx.addIssue({ code: 'custom', message: m('json') })
              return z.NEVER
            }
          }
          // Before z.json(), which walks the value recursively.
          const problem = jsonProblemOf(value)
          if (problem === 'depth') ctx.addIssue({ code: 'custom', message: 'validation.json_depth', params: { max: JSON_MAX_DEPTH } })
          else if (problem === 'size') ctx.addIssue({ code: 'custom', message: 'validation.json_size', params: { max: JSON_MAX_CHARS } })
          else if (problem === 'surrogate') ctx.addIssue({ code: 'custom', message: 'validation.broken_text' })
          return problem === undefined ? value : z.NEVER
        })
        .pipe(z.json({ error: m('json') }))
    case 'lines': {
      const spec = f.lines!
      const line = lineSchemaOf(spec.entity)
      const scalar = spec.scalar
      // A line may come as the bare value of its scalar field (`menu_items: [3, 5]`).
      const item = scalar ? z.preprocess((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : { [scalar]: v }), line) : line
      const list = z.array(item, { error: m('lines') }).max(MAX_LINES, { error: 'validation.lines_max' })
      return spec.min ? list.min(spec.min, { error: 'validation.lines_min' }) : list
    }
  }
}

/** A line as a document's validator takes it: the line entity's record, with the `id` of a stored line to change it. */
function lineSchemaOf(line: Entity<string, Fields>): z.ZodType {
  const id = z.preprocess((v) => (v === '' || v === null ? undefined : v), idBase('validation.line_id').optional())
  return z.object({ id, ...shapeOf(line, 'create') })
}

const fieldValidators = new WeakMap<object, z.ZodType>()

/** Any text a field is given, before its kind reads it: a broken character is refused whatever the field. */
const storableText = z.unknown().refine((v) => typeof v !== 'string' || !hasUnpairedSurrogate(v), { error: 'validation.broken_text', abort: true })

/** The field's validator with its blank handling: required, null when absent, or the default. */
export function validatorOf<V, P extends Presence>(f: Field<V, P>): z.ZodType<P extends 'optional' ? V | null : V> {
  type Out = z.ZodType<P extends 'optional' ? V | null : V>
  const known = fieldValidators.get(f)
  if (known) return known as Out
  const field = f as unknown as AnyField
  const base = storableText.pipe(baseOf(field))
  const blank = field.kind === 'ref' ? isBlankRef : isBlank
  let validator: z.ZodType
  if (field.presence === 'required') {
    const isPresent = z.custom((v) => v !== undefined, { error: messageOf(field, 'required') })
    validator = z.preprocess((v) => (blank(v) ? undefined : v), isPresent.pipe(base))
  } else {
    // A document's day left blank (`initial: 'today'`) is the day it is written, on the server as in the form.
    const isToday = field.kind === 'date' && field.initial === 'today'
    const fallback = () => (field.defaultValue !== undefined ? field.defaultValue : isToday ? todayIso() : null)
    validator = z.preprocess((v) => (blank(v) ? fallback() : v), field.defaultValue === undefined ? base.nullable() : base)
  }
  fieldValidators.set(f, validator)
  return validator as Out
}

/**
 * `create` validates a new record. `update` validates a stored row with the body laid over
 * it: there a blank write-only field (a password) is allowed and means "keep the stored one".
 */
export type SchemaMode = 'create' | 'update'

const entitySchemas = new WeakMap<object, Partial<Record<SchemaMode, z.ZodType<Record<string, unknown>>>>>()

/** What a record's validation reads: an entity, or the parameters of a report or an action. */
export type RecordShape = Pick<Entity<string, Fields>, 'fields' | 'fieldNames' | 'rules' | 'linesFieldNames'>

function shapeOf(entity: RecordShape, mode: SchemaMode): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {}
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (field.isReadOnly) continue
    shape[name] =
      mode === 'update' && field.isWriteOnly
        ? validatorOf({ ...field, presence: 'optional', isRequired: false, defaultValue: undefined } as AnyField)
        : validatorOf(field)
  }
  return shape
}

/** Validates a whole record's fields; unknown keys and read-only fields (set by the server) are dropped. */
export function schemaOf(entity: RecordShape, mode: SchemaMode = 'create'): z.ZodType<Record<string, unknown>> {
  const known = entitySchemas.get(entity) ?? {}
  const hit = known[mode]
  if (hit) return hit
  const schema = z.object(shapeOf(entity, mode))
  entitySchemas.set(entity, { ...known, [mode]: schema })
  return schema
}

export type RecordIssue = z.core.$ZodIssue

export type RecordResult = { success: true; data: Record<string, unknown> } | { success: false; issues: RecordIssue[] }

/**
 * The entity's rules (and each line's) as issues at the rule's field. A rule runs when the
 * fields it reads are valid (`fields`; all of them when it does not say), so that a
 * mismatched confirmation is told at once, not after every other field is fixed.
 */
function ruleIssues(entity: RecordShape, values: Record<string, unknown>, context: RuleContext, prefix: readonly PropertyKey[] = [], invalid: ReadonlySet<string> = new Set()): RecordIssue[] {
  const issues: RecordIssue[] = []
  for (const rule of entity.rules) {
    const reads = rule.fields ?? entity.fieldNames
    if (reads.some((f) => invalid.has(f))) continue
    if (rule.check(values, context)) continue
    issues.push({ code: 'custom', path: [...prefix, rule.field], message: rule.message, params: rule.params?.(values), input: values[rule.field] })
  }
  for (const name of entity.linesFieldNames) {
    if (invalid.has(name)) continue
    const line = entity.fields[name]!.lines!.entity
    const rows = (values[name] as Array<Record<string, unknown>> | null) ?? []
    const given = context.input[name]
    rows.forEach((row, i) => {
      const input = Array.isArray(given) && typeof given[i] === 'object' && given[i] !== null ? (given[i] as Record<string, unknown>) : {}
      issues.push(...ruleIssues(line, row, { mode: 'create', input, fact: context.fact }, [...prefix, name, i]))
    })
  }
  return issues
}

/**
 * A record judged as a whole: every field by its validator, then — when those pass — the
 * rules across fields (and across each line). The browser's form and the server both call
 * this, so a record is accepted or refused alike in both.
 */
export function validateRecordInput(entity: RecordShape, input: Record<string, unknown>, mode: SchemaMode = 'create', fact?: RuleContext['fact']): RecordResult {
  // Field by field (the record's object has no rule of its own): what is valid is known even when something is not.
  const data: Record<string, unknown> = {}
  const issues: RecordIssue[] = []
  const invalid = new Set<string>()
  for (const [name, validator] of Object.entries(shapeOf(entity, mode))) {
    const parsed = validator.safeParse(input[name])
    if (parsed.success) data[name] = parsed.data
    else {
      invalid.add(name)
      issues.push(...parsed.error.issues.map((issue) => ({ ...issue, path: [name, ...issue.path] })))
    }
  }
  issues.push(...ruleIssues(entity, data, { mode, input, fact }, [], invalid))
  return issues.length > 0 ? { success: false, issues } : { success: true, data }
}

/**
 * Where an issue is reported: the field, or for a document's line `items.3.debit_amount`
 * (`items.3` for the line as a whole, `items` for the lines together).
 */
export function issueKey(entity: Pick<RecordShape, 'fields'>, path: readonly PropertyKey[]): string {
  const [first, index, ...rest] = path
  const field = typeof first === 'string' ? entity.fields[first] : undefined
  if (!field?.lines || index === undefined) return String(first ?? 'non_field_errors')
  if (rest.length === 0) return `${String(first)}.${String(index)}`
  return `${String(first)}.${String(index)}.${issueKey(field.lines.entity, rest)}`
}

/** The label key of the field an issue is about, a line's field included. */
export function issueLabelKey(entity: Pick<Entity<string, Fields>, 'fields' | 'fieldLabelKey'>, path: readonly PropertyKey[], labelOf: (field: string) => string = entity.fieldLabelKey): string {
  const [first, index, next, ...rest] = path
  const field = typeof first === 'string' ? entity.fields[first] : undefined
  if (field?.lines && index !== undefined && typeof next === 'string') {
    if (next === 'id') return 'field.line'
    return issueLabelKey(field.lines.entity, [next, ...rest])
  }
  return labelOf(String(first ?? ''))
}
