import { compareDecimals, messageOfIssue, type Entity, type Fields, type Message } from '../../schema/kit'
import { instantOf, isCalendarDate, isIdText, validatorOf } from '../../schema/kit/validators'
import { BusinessError, NotFoundError, ValidationError } from './errors'
import type { Filter } from './list-query'
import { modelName } from './validate'

/** `page` is 1-based (default 1); `size` defaults to 10 and is capped at 100; non-digits are ignored. */
export function pageOf(query: Record<string, unknown>): { page: number; size: number } {
  const num = (v: unknown, fallback: number) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : fallback)
  return { page: Math.max(1, num(query.page, 1)), size: Math.min(100, Math.max(1, num(query.size, 10))) }
}

export function orderingOf(entity: Entity<string, Fields>, query: Record<string, unknown>): string {
  const raw = query.ordering
  if (raw === undefined || raw === '') return entity.ordering
  const name = String(raw).replace(/^-/, '')
  const sortable = ['id', ...entity.fieldNames.filter((n) => entity.fields[n]!.isSortable)]
  if (!sortable.includes(name)) throw new BusinessError({ key: 'detail.order_by', params: { field: String(raw), fields: sortable.join(', ') } })
  return String(raw)
}

const RESERVED = new Set(['page', 'size', 'ordering', 'q', 'view'])
/** `field__in=a,b`: any of the values, at most this many (a list a request may carry is bounded). */
const IN_SUFFIX = '__in'
export const MAX_IN_VALUES = 100
const EXACT_KINDS = new Set(['ref', 'integer', 'boolean', 'enum', 'date'])
/** Longer search text matches nothing a name holds, and only costs the database. */
const MAX_SEARCH = 200

/**
 * Range parameters: `<field>_after` / `<field>_before` for dates and datetimes (inclusive
 * days, as the contract's reports take `date_after` and `date_before`), `<field>_min` /
 * `<field>_max` for numbers and money (django-filter's RangeFilter names), both inclusive.
 */
const RANGE_SUFFIXES = { after: ['date', 'datetime'], before: ['date', 'datetime'], min: ['integer', 'decimal'], max: ['integer', 'decimal'] } as const
type RangeSuffix = keyof typeof RANGE_SUFFIXES
const RANGE_PARAM = /^(.+)_(after|before|min|max)$/

/** The field a range parameter bounds, or undefined when the name is not one. */
function rangeOf(entity: Entity<string, Fields>, key: string): { field: string; bound: RangeSuffix } | undefined {
  const m = RANGE_PARAM.exec(key)
  if (!m) return undefined
  const field = entity.fields[m[1]!]
  const bound = m[2] as RangeSuffix
  if (!field || field.sql === undefined || field.isWriteOnly || !(RANGE_SUFFIXES[bound] as readonly string[]).includes(field.kind)) return undefined
  return { field: m[1]!, bound }
}

/** The range parameters an entity takes, for the message that lists what may be asked. */
const rangeParams = (entity: Entity<string, Fields>) =>
  entity.fieldNames.flatMap((n) =>
    (Object.keys(RANGE_SUFFIXES) as RangeSuffix[]).filter((b) => rangeOf(entity, `${n}_${b}`)?.field === n).map((b) => `${n}_${b}`),
  )

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/
const NUMBER = /^-?\d{1,30}(\.\d{1,30})?$/

/**
 * The contract's `search/?<field>=text`: case- and accent-insensitive contains on the
 * entity's search fields (a reference by its row's label). As additive extensions, `q`
 * matches any search field, references and scalar fields filter by equality
 * (`?city=5`, `?is_active=true`), and dates and numbers by range (`?emp_join_date_after=
 * 2024-01-01&emp_join_date_before=2024-03-31`, `?basic_money_min=1000`), so lists can be
 * narrowed without new routes. A value that is not one of its field's is a 400 field map
 * (in the request's language), keyed by the parameter; an unknown parameter a 400 `{detail}`
 * — or, with `unknown: 'ignore'`, left alone: `all/` applies what it knows, as the contract's
 * clients send it only `page` and `size` and a parameter it does not know is no error there.
 */
export function filtersOf(entity: Entity<string, Fields>, query: Record<string, unknown>, options: { unknown?: 'refuse' | 'ignore' } = {}): Filter[] {
  const filters: Filter[] = []
  const errors: Record<string, Message[]> = {}
  const refuse = (key: string, message: Message) => (errors[key] ??= []).push(message)
  const text = (key: string, raw: unknown) => {
    const value = (Array.isArray(raw) ? String(raw[0]) : String(raw)).trim()
    return value.slice(0, MAX_SEARCH)
  }
  if (query.q !== undefined) {
    const q = text('q', query.q)
    if (q !== '') filters.push({ op: 'search', value: q })
  }
  const bounds = new Map<string, { lower?: { key: string; value: string }; upper?: { key: string; value: string } }>()
  for (const [key, raw] of Object.entries(query)) {
    if (RESERVED.has(key) || raw === undefined) continue
    if (key.endsWith(IN_SUFFIX) && (key === `id${IN_SUFFIX}` || isExact(entity, key.slice(0, -IN_SUFFIX.length)))) {
      const name = key.slice(0, -IN_SUFFIX.length)
      const given = [raw].flat().flatMap((v) => String(v).split(','))
      const parts = given.map((v) => v.trim()).filter((v) => v !== '')
      if (parts.length === 0) continue
      if (parts.length > MAX_IN_VALUES) {
        refuse(key, { key: 'validation.too_many', params: { label: entity.fieldLabelKey(name), max: MAX_IN_VALUES } })
        continue
      }
      const values: Array<string | number | boolean> = []
      for (const part of parts) {
        // Records by their ids (`id__in=3,5`: a selection).
        if (name === 'id') {
          if (isIdText(part)) values.push(Number(part))
          else refuse(key, { key: 'validation.ref', params: { label: 'field.id' } })
          continue
        }
        const parsed = validatorOf(entity.fields[name]!).safeParse(part)
        if (parsed.success && parsed.data !== null) values.push(parsed.data as string | number | boolean)
        else if (!parsed.success) for (const issue of parsed.error.issues) refuse(key, messageOfIssue(issue, entity.fieldLabelKey(name), entity.labelKey))
      }
      filters.push({ field: name, op: 'in', values: [...new Set(values)] })
      continue
    }
    const field = entity.fields[key]
    // A flag of the clock (f.pastDue): true or false, worked out in SQL.
    if (field?.pastDue) {
      const parsed = validatorOf(field).safeParse(text(key, raw))
      if (!parsed.success || parsed.data === null) refuse(key, { key: 'validation.boolean', params: { label: entity.fieldLabelKey(key) } })
      else filters.push({ field: key, op: 'past_due', value: parsed.data === true })
      continue
    }
    const range = field ? undefined : rangeOf(entity, key)
    // A value worked out on read (a ledger's nature) has no column to filter by.
    if (!entity.searchFields.includes(key) && !isExact(entity, key) && !range) {
      if (options.unknown === 'ignore') continue
      const exact = entity.fieldNames.filter((n) => isExact(entity, n))
      const allowed = [...entity.searchFields, ...exact, ...['id', ...exact].map((n) => `${n}${IN_SUFFIX}`), ...rangeParams(entity)]
      throw new BusinessError({ key: 'detail.search_param', params: { param: key, params: allowed.join(', ') } })
    }
    const value = text(key, raw)
    const isRef = field?.kind === 'ref'
    // A searchable reference given an id filters by it, given text by the label.
    if (entity.searchFields.includes(key) && !(isRef && isIdText(value))) {
      if (value !== '') filters.push({ field: key, op: 'contains', value })
      continue
    }
    if (value === '') continue
    if (range) {
      const spec = entity.fields[range.field]!
      const label = entity.fieldLabelKey(range.field)
      const isDate = range.bound === 'after' || range.bound === 'before'
      // An instant goes to the database as its ISO form in UTC, never as sent.
      const instant = isDate && !isCalendarDate(value) && spec.kind === 'datetime' && INSTANT.test(value) ? instantOf(value) : undefined
      if (isDate && !isCalendarDate(value) && instant === undefined) {
        refuse(key, { key: spec.kind === 'date' ? 'validation.date' : 'validation.datetime', params: { label } })
        continue
      }
      if (!isDate && !NUMBER.test(value)) {
        refuse(key, { key: 'validation.number', params: { label } })
        continue
      }
      const entry = bounds.get(range.field) ?? {}
      entry[range.bound === 'after' || range.bound === 'min' ? 'lower' : 'upper'] = { key, value: instant ?? value }
      bounds.set(range.field, entry)
      continue
    }
    const parsed = validatorOf(field!).safeParse(value)
    if (!parsed.success) {
      for (const issue of parsed.error.issues) refuse(key, messageOfIssue(issue, entity.fieldLabelKey(key), entity.labelKey))
      continue
    }
    filters.push({ field: key, op: 'equals', value: parsed.data as string | number })
  }
  for (const [name, { lower, upper }] of bounds) {
    const kind = entity.fields[name]!.kind
    const isNumber = kind === 'integer' || kind === 'decimal'
    if (lower && upper) {
      // Days compare as text; an instant against a day by its time.
      const order = isNumber ? compareDecimals(lower.value, upper.value) : Date.parse(lower.value) - Date.parse(upper.value)
      if (order > 0) {
        refuse(upper.key, { key: isNumber ? 'validation.range_order' : 'validation.date_order', params: { label: entity.fieldLabelKey(name) } })
        continue
      }
    }
    if (lower) filters.push({ field: name, op: 'gte', value: lower.value })
    // `_before` a day includes that day: up to the end of it for a datetime.
    if (upper) filters.push({ field: name, op: kind === 'datetime' && isCalendarDate(upper.value) ? 'before_day' : 'lte', value: upper.value })
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  return filters
}

/** A field filtered by equality (and `__in`): a reference, a number, a flag, a choice, a day — stored. */
function isExact(entity: Entity<string, Fields>, name: string): boolean {
  const field = entity.fields[name]
  return field !== undefined && EXACT_KINDS.has(field.kind) && !field.isVirtual && field.sql !== undefined && !field.isWriteOnly
}

/**
 * The rows a list view holds (`views` of the registry: `?view=<name>`), as filters the server
 * applies whatever else the list asks: a value, any of several, or for a reference the row
 * named so (`department: 'support'`). An unknown view is a 400 naming the entity's views.
 */
export function viewFilters(entity: Entity<string, Fields>, raw: unknown): Filter[] {
  if (raw === undefined || raw === '') return []
  const name = Array.isArray(raw) ? String(raw[0]) : String(raw)
  const view = entity.views[name]
  if (!view) throw new BusinessError({ key: 'detail.unknown_view', params: { view: name.slice(0, 50), views: Object.keys(entity.views).join(', ') || '—' } })
  return Object.entries(view.filter).map(([field, value]): Filter => {
    if (Array.isArray(value)) return { field, op: 'in', values: value }
    if (entity.fields[field]?.kind === 'ref' && typeof value === 'string') return { field, op: 'label', value }
    if (entity.fields[field]?.pastDue) return { field, op: 'past_due', value: value === true }
    return { field, op: 'equals', value: value as string | number | boolean }
  })
}

/** Path ids are positive integers; anything else is an unknown record (404), as a URL pattern would make it. */
export function rowIdOf(entity: Entity<string, Fields>, raw: string): number {
  if (!isIdText(raw)) throw new NotFoundError({ key: 'detail.not_found', params: { model: modelName(entity), entity: entity.labelKey, id: raw } })
  return Number(raw)
}
