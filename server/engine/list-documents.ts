import { sql, type RawBuilder } from 'kysely'
import { withComputed, type Entity, type Fields } from '../../schema/kit'
import type { Executor, Row } from '../db/types'
import { factSql } from './facts'
import type { HookRegistry } from './hooks'
import { listColumns, orderClause, refTarget, source, whereClause, type Filter, type ListQuery, type ListResult, type Registry } from './list-query'

/**
 * The list of a document kept one row per line (`rowsPerLine`; the contract's voucher
 * lists): one row per document — the row its `shownLine` picks stands for it, with the
 * document's `sums` and the labels of its `others` — and the engine's vocabulary on it: `q`,
 * filters and ranges (a document is listed when any of its rows meets them), `ordering` by
 * the shown row (`id`: the newest), pages and an exact count.
 */
function shownFirst(registry: Registry, entity: Entity<string, Fields>, hooks: HookRegistry | undefined): RawBuilder<unknown> {
  const shown = entity.rowsPerLine!.shownLine
  if (!shown) return sql``
  const target = refTarget(registry, entity, shown.field)
  const conditions = Object.entries(shown.where).map(([name, value]) => {
    const expr = factSql(hooks, target, name)
    if (!expr) throw new Error(`${entity.name}: shownLine reads '${name}' of '${target.name}', which is neither a column nor a module's fact`)
    return sql`${expr('x')} = ${value}`
  })
  return sql`exists (select 1 from ${source(target)} x where x.id = ${sql.ref(`v.${shown.field}`)} and ${sql.join(conditions, sql` and `)}) desc,`
}

/** The other rows' labels as the contract lists them: none (null), one (its name), several (their names). */
const namesOf = (names: unknown): unknown => (!Array.isArray(names) || names.length === 0 ? null : names.length === 1 ? names[0] : names)

/** How many documents have a row meeting the filters: the list's count, one per document number. */
export async function countDocuments(db: Executor, registry: Registry, entity: Entity<string, Fields>, filters: readonly Filter[]): Promise<number> {
  const key = sql.ref(`f.${entity.rowsPerLine!.key}`)
  const r = await sql<{ n: number }>`select count(distinct ${key})::int as n from ${sql.id(entity.name)} f ${whereClause(registry, entity, 'f', filters)}`.execute(db)
  return Number(r.rows[0]?.n ?? 0)
}

export async function listDocuments(db: Executor, registry: Registry, entity: Entity<string, Fields>, q: ListQuery, hooks?: HookRegistry): Promise<ListResult> {
  const spec = entity.rowsPerLine!
  const table = sql.id(entity.name)
  const key = (alias: string) => sql.ref(`${alias}.${spec.key}`)
  const filter = q.filters.length === 0 ? sql`true` : sql`${key('v')} in (select ${key('f')} from ${table} f ${whereClause(registry, entity, 'f', q.filters)})`
  const documents = sql`
    select distinct on (${key('v')}) v.id, max(v.id) over (partition by ${key('v')}) as newest
    from ${table} v where ${key('v')} is not null and ${filter}
    order by ${key('v')}, ${shownFirst(registry, entity, hooks)} v.id`
  const total = await countDocuments(db, registry, entity, q.filters)
  const size = q.page?.size ?? Math.max(total, 1)
  const totalPages = Math.max(1, Math.ceil(total / size))
  const page = Math.min(q.page?.page ?? 1, totalPages)
  const { columns, joins } = listColumns(registry, entity, 'v')
  const sums = Object.entries(spec.sums ?? {}).map(([name, column]) => sql`(select sum(${sql.ref(`o.${column}`)}) from ${table} o where ${key('o')} = ${key('v')}) as ${sql.id(name)}`)
  const others = Object.entries(spec.others ?? {}).map(([name, field]) => {
    const target = refTarget(registry, entity, field)
    return sql`(select array_agg(${sql.ref(`ol.${target.labelField}`)} order by o.id) from ${table} o join ${source(target)} ol on ol.id = ${sql.ref(`o.${field}`)}
      where ${key('o')} = ${key('v')} and o.id <> v.id) as ${sql.id(name)}`
  })
  const name = q.ordering.replace(/^-/, '')
  const order = name === 'id' ? sql`i.newest ${sql.raw(q.ordering.startsWith('-') ? 'desc' : 'asc')}` : sql`${orderClause(registry, entity, 'v', q.ordering)}, ${key('v')}`
  const limit = q.page ? sql`limit ${size} offset ${(page - 1) * size}` : sql``
  const result = await sql<Row>`
    select ${sql.join([...columns, ...sums, ...others])}
    from (${documents}) i join ${table} v on v.id = i.id ${sql.join(joins, sql` `)}
    order by ${order} ${limit}`.execute(db)
  const rows = result.rows.map((raw) => {
    const row = withComputed(entity, raw, 'virtual') as Row
    for (const n of Object.keys(spec.sums ?? {})) row[n] = raw[n] ?? null
    for (const n of Object.keys(spec.others ?? {})) row[n] = namesOf(raw[n])
    return row
  })
  return { rows, total, page, size: q.page?.size ?? rows.length, totalPages }
}
