import type { Entity, Fields } from '../../schema/kit'
import { validatorOf } from '../../schema/kit/validators'
import { BusinessError, NotFoundError } from './errors'
import type { Filter } from './list-query'
import { hasNulCharacter, modelName } from './validate'

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
  if (!sortable.includes(name)) throw new BusinessError(`Cannot order by '${String(raw)}'. Use one of: ${sortable.join(', ')} (prefix '-' for descending).`)
  return String(raw)
}

const RESERVED = new Set(['page', 'size', 'ordering', 'q'])
const EXACT_KINDS = new Set(['ref', 'integer', 'boolean', 'enum', 'date'])
/** Longer search text matches nothing a name holds, and only costs the database. */
const MAX_SEARCH = 200

/**
 * The contract's `search/?<field>=text`: case- and accent-insensitive contains on the
 * entity's search fields (a reference by its row's label). As additive extensions, `q`
 * matches any search field, and references and scalar fields filter by equality
 * (`?city=5`, `?is_active=true`), so lists can be narrowed without new routes.
 */
export function filtersOf(entity: Entity<string, Fields>, query: Record<string, unknown>): Filter[] {
  const filters: Filter[] = []
  const text = (key: string, raw: unknown) => {
    const value = (Array.isArray(raw) ? String(raw[0]) : String(raw)).trim()
    if (hasNulCharacter(value)) throw new BusinessError(`Invalid value for search parameter '${key}'.`)
    return value.slice(0, MAX_SEARCH)
  }
  if (query.q !== undefined) {
    const q = text('q', query.q)
    if (q !== '') filters.push({ op: 'search', value: q })
  }
  for (const [key, raw] of Object.entries(query)) {
    if (RESERVED.has(key) || raw === undefined) continue
    const value = text(key, raw)
    const isRef = entity.fields[key]?.kind === 'ref'
    // A searchable reference given an id filters by it, given text by the label.
    if (entity.searchFields.includes(key) && !(isRef && /^\d{1,15}$/.test(value))) {
      if (value !== '') filters.push({ field: key, op: 'contains', value })
      continue
    }
    const field = entity.fields[key]
    if (!field || !EXACT_KINDS.has(field.kind)) {
      const allowed = [...entity.searchFields, ...entity.fieldNames.filter((n) => EXACT_KINDS.has(entity.fields[n]!.kind))]
      throw new BusinessError(`Unknown search parameter '${key}'. Use one of: ${allowed.join(', ')}.`)
    }
    if (value === '') continue
    const parsed = validatorOf(field).safeParse(value)
    if (!parsed.success) throw new BusinessError(`Invalid value '${value}' for search parameter '${key}'.`)
    filters.push({ field: key, op: 'equals', value: parsed.data as string | number })
  }
  return filters
}

/** Path ids are positive integers; anything else is an unknown record (404), as a URL pattern would make it. */
export function rowIdOf(entity: Entity<string, Fields>, raw: string): number {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError(`${modelName(entity)} id - ${raw} doesn't exists`)
  return Number(raw)
}
