import { isRangeKind, type AnyField, type Entity, type Fields, type Report } from '../../schema/kit'
import { MAX_ID } from '../../schema/kit/validators'
import { MAX_IN_VALUES } from './request'
import { en, valueSchema, type Schema } from './openapi-schemas'

/**
 * The query and path parameters of the document, derived from what server/engine/request.ts
 * reads: a list's page, size, ordering, `q`, `view` and each filter the entity takes — its
 * search fields (contains), its stored references, numbers, flags, choices and days
 * (equality and `__in`), its dates and numbers (ranges) and its clock flags (`pastDue`).
 */
export type Parameter = { name: string; in: 'query' | 'path'; required?: boolean; description?: string; schema: Schema; style?: string; explode?: boolean; example?: unknown }

const EXACT_KINDS = new Set(['ref', 'integer', 'boolean', 'enum', 'date'])

/** As request.ts's isExact: a stored reference, number, flag, choice or day a client may read. */
const isExact = (field: AnyField) => EXACT_KINDS.has(field.kind) && !field.isVirtual && field.sql !== undefined && !field.isWriteOnly

/** As request.ts's rangeOf: a stored date, date-time or number a client may read. */
const isRanged = (field: AnyField) => isRangeKind(field.kind) && field.sql !== undefined && !field.isWriteOnly

/** The filter parameters of an entity's lists, by name (what `search/` accepts; `all/` applies them too). */
export function filterParameters(entity: Entity<string, Fields>): Parameter[] {
  const out = new Map<string, Parameter>()
  const label = (name: string) => en(entity.fieldLabelKey(name))
  const add = (p: Parameter) => {
    if (!out.has(p.name)) out.set(p.name, p)
  }
  for (const name of entity.searchFields) {
    const field = entity.fields[name]
    const byId = field?.kind === 'ref' ? ' A number is the id of the row it points at.' : ''
    add({ name, in: 'query', description: `${label(name)} contains this text (ignoring case and accents).${byId}`, schema: { type: 'string' } })
  }
  const exact = entity.fieldNames.filter((n) => isExact(entity.fields[n]!))
  for (const name of exact) add({ name, in: 'query', description: `${label(name)} equals this.`, schema: valueSchema(entity.fields[name]!, 'input') })
  for (const name of ['id', ...exact]) {
    const item = name === 'id' ? { type: 'integer', minimum: 1, maximum: MAX_ID } : valueSchema(entity.fields[name]!, 'input')
    add({
      name: `${name}__in`,
      in: 'query',
      description: `${name === 'id' ? 'The records' : label(name)} any of these (comma-separated, at most ${MAX_IN_VALUES}).`,
      schema: { type: 'array', items: item, maxItems: MAX_IN_VALUES },
      style: 'form',
      explode: false,
    })
  }
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (!isRanged(field)) continue
    if (field.kind === 'date' || field.kind === 'datetime') {
      // A date-time is bounded by a day or by an instant: text either way.
      const day = field.kind === 'date' ? { type: 'string', format: 'date' } : { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}(T.+)?$' }
      add({ name: `${name}_after`, in: 'query', description: `${label(name)} on or after this day${field.kind === 'datetime' ? ' (or instant)' : ''}.`, schema: day })
      add({ name: `${name}_before`, in: 'query', description: `${label(name)} on or before this day${field.kind === 'datetime' ? ' (the whole day; or an instant)' : ''}.`, schema: day })
    } else {
      add({ name: `${name}_min`, in: 'query', description: `${label(name)} at least this.`, schema: { type: 'number' } })
      add({ name: `${name}_max`, in: 'query', description: `${label(name)} at most this.`, schema: { type: 'number' } })
    }
  }
  for (const name of entity.fieldNames) {
    if (entity.fields[name]!.pastDue) add({ name, in: 'query', description: `${label(name)}: true or false.`, schema: { type: 'boolean' } })
  }
  return [...out.values()]
}

/** The fields a list may be ordered by, as request.ts's orderingOf takes them. */
export const sortableFields = (entity: Entity<string, Fields>) => ['id', ...entity.fieldNames.filter((n) => entity.fields[n]!.isSortable)]

export const pageParameters: Parameter[] = [
  { name: 'page', in: 'query', description: 'The page, from 1; one past the last is the last.', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'size', in: 'query', description: 'Rows a page (at most 100).', schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
]

/** Every parameter of an entity's list: `paged` for `all/` and `search/`, not `without_pagination/all/`. */
export function listParameters(entity: Entity<string, Fields>, paged: boolean): Parameter[] {
  const sortable = sortableFields(entity)
  const views = Object.keys(entity.views)
  return [
    ...(paged ? pageParameters : []),
    {
      name: 'ordering',
      in: 'query',
      description: `A field to order by, descending with a leading -; default ${entity.ordering}.`,
      schema: { type: 'string', enum: sortable.flatMap((n) => [n, `-${n}`]) },
    },
    { name: 'q', in: 'query', description: 'Any searchable field contains this text (ignoring case and accents; a reference by its row\'s label).', schema: { type: 'string', maxLength: 200 } },
    ...(views.length > 0 ? [{ name: 'view', in: 'query' as const, description: 'The rows of one of its list views (its filter holds whatever else is asked).', schema: { type: 'string', enum: views } }] : []),
    ...filterParameters(entity),
  ]
}

/** A report's parameters, each a query parameter judged as its field (a many-valued one as comma-separated ids). */
export function reportParameters(report: Report): Parameter[] {
  return report.paramNames.map((name) => {
    const field = report.params[name]!
    const many = field.kind === 'refs'
    return {
      name,
      in: 'query' as const,
      ...(field.isRequired ? { required: true } : {}),
      description: en(report.fieldLabelKey(name)),
      schema: valueSchema(field, 'input'),
      ...(many ? { style: 'form', explode: false } : {}),
    }
  })
}

/** A dashboard's period. */
export const periodParameters: Parameter[] = [
  { name: 'date_after', in: 'query', description: 'From this day.', schema: { type: 'string', format: 'date' } },
  { name: 'date_before', in: 'query', description: 'Up to this day (not before date_after).', schema: { type: 'string', format: 'date' } },
]

/** Path parameters of a Fastify URL (`:id`), each typed by what it names: a row id, or text. */
export function pathParameters(url: string, known: Record<string, Schema> = {}): Parameter[] {
  return [...url.matchAll(/:(\w+)/g)].map(([, name]) => {
    const schema = known[name!] ?? (/(^id$|Id$|_id$)/.test(name!) ? { type: 'integer', minimum: 1, maximum: MAX_ID } : { type: 'string' })
    return { name: name!, in: 'path' as const, required: true, schema }
  })
}

/** The OpenAPI path of a Fastify URL: `:id` as `{id}`. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}')
