import { sql, type RawBuilder } from 'kysely'
import { storageOf, type Entity, type Fields } from '../../schema/kit'
import { entities as registeredEntities } from '../../schema'
import { joinTableName } from '../db/registry-schema'
import type { Executor, Row } from '../db/types'

/**
 * The list engine. One query per page: the page of ids is cut first, then references
 * are joined onto those rows only (joining before OFFSET costs at deep pages), and
 * the total comes from a trigger-kept counter when no filter applies.
 */
export type Filter = { field: string; op: 'contains' | 'equals'; value: string | number }
export type ListQuery = { filters: Filter[]; ordering: string; page?: { page: number; size: number } }
export type ListResult = { rows: Row[]; total: number; page: number; size: number; totalPages: number }
/** The entities references resolve in: the app's registry, which may extend the static one. */
export type Registry = readonly Entity<string, Fields>[]

const id = sql.id
const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`)

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`)
}

export function refTarget(registry: Registry, entity: Entity<string, Fields>, field: string): Entity<string, Fields> {
  const name = entity.fields[field]!.ref!.target
  const t = registry.find((e) => e.name === name)
  if (!t) throw new Error(`unknown ref target ${name}`)
  return t
}

/**
 * The relation an entity's rows are read from: its table, or for an entity that extends
 * another, the parent's row joined with its own (the parent holds id and audit columns).
 * Write-only columns (password hashes) are never part of it.
 */
export function source(entity: Entity<string, Fields>): RawBuilder<unknown> {
  const parent = entity.parent
  if (!parent) return sql`${id(entity.name)}`
  const stored = (e: Entity<string, Fields>, names: readonly string[]) => names.filter((n) => e.fields[n]!.kind !== 'refs' && !e.fields[n]!.isWriteOnly)
  const parentColumns = ['id', ...stored(parent, parent.fieldNames), 'created_at', 'updated_at', 'created_by', 'updated_by'].map((c) => ref('p', c))
  const ownColumns = stored(entity, entity.ownFieldNames).map((c) => ref('c', c))
  return sql`(select ${sql.join([...parentColumns, ...ownColumns])} from ${id(entity.name)} c join ${id(parent.name)} p on p.id = c.id)`
}

/** The join table of a many-to-many field: named after the entity whose table stores the field. */
export const linkTable = (entity: Entity<string, Fields>, field: string) => joinTableName(storageOf(entity, field).name, field)

function whereClause(entity: Entity<string, Fields>, alias: string, filters: Filter[]): RawBuilder<unknown> {
  if (filters.length === 0) return sql``
  const conditions = filters.map((f) => {
    if (!entity.fields[f.field] && f.field !== 'id') throw new Error(`unknown filter field ${f.field}`)
    return f.op === 'contains'
      ? sql`${ref(alias, f.field)} ilike ${`%${escapeLike(String(f.value))}%`}`
      : sql`${ref(alias, f.field)} = ${f.value}`
  })
  return sql`where ${sql.join(conditions, sql` and `)}`
}

/** ORDER BY for `field` / `-field`; a reference sorts by the label of the row it points to. */
function orderClause(registry: Registry, entity: Entity<string, Fields>, alias: string, ordering: string): RawBuilder<unknown> {
  const desc = ordering.startsWith('-')
  const name = desc ? ordering.slice(1) : ordering
  const dir = sql.raw(desc ? 'desc' : 'asc')
  const field = entity.fields[name]
  let expr: RawBuilder<unknown>
  if (field?.kind === 'ref') {
    const t = refTarget(registry, entity, name)
    expr = sql`(select ${ref('o', t.labelField)} from ${source(t)} o where o.id = ${ref(alias, name)})`
  } else {
    expr = sql`${ref(alias, name)}`
  }
  return name === 'id' ? sql`${expr} ${dir}` : sql`${expr} ${dir}, ${ref(alias, 'id')} ${dir}`
}

/** Columns of a list row: fields with references nested as `{id, name}`, audit users as e-mails. */
function listColumns(registry: Registry, entity: Entity<string, Fields>, alias: string): { columns: RawBuilder<unknown>[]; joins: RawBuilder<unknown>[] } {
  const columns: RawBuilder<unknown>[] = [sql`${ref(alias, 'id')}`]
  const joins: RawBuilder<unknown>[] = []
  entity.fieldNames.forEach((name, i) => {
    const field = entity.fields[name]!
    if (field.isWriteOnly) return
    if (field.kind === 'ref') {
      const t = refTarget(registry, entity, name)
      const j = `r${i}`
      joins.push(sql`left join ${source(t)} ${sql.raw(j)} on ${ref(j, 'id')} = ${ref(alias, name)}`)
      columns.push(sql`case when ${ref(j, 'id')} is null then null else json_build_object('id', ${ref(j, 'id')}, 'name', ${ref(j, t.labelField)}) end as ${id(name)}`)
    } else if (field.kind === 'refs') {
      const t = refTarget(registry, entity, name)
      columns.push(sql`(select coalesce(json_agg(json_build_object('id', x.id, 'name', ${ref('x', t.labelField)}) order by x.id), '[]'::json)
        from ${id(linkTable(entity, name))} jt join ${source(t)} x on x.id = jt.target_id
        where jt.owner_id = ${ref(alias, 'id')}) as ${id(name)}`)
    } else {
      columns.push(sql`${ref(alias, name)}`)
    }
  })
  columns.push(sql`${ref(alias, 'created_at')}`, sql`${ref(alias, 'updated_at')}`, sql`cu.email as created_by`, sql`uu.email as updated_by`)
  joins.push(sql`left join "user" cu on cu.id = ${ref(alias, 'created_by')}`, sql`left join "user" uu on uu.id = ${ref(alias, 'updated_by')}`)
  return { columns, joins }
}

async function count(db: Executor, entity: Entity<string, Fields>, filters: Filter[]): Promise<number> {
  if (filters.length === 0) {
    const r = await sql<{ n: number }>`select n from row_count where table_name = ${entity.name}`.execute(db)
    if (r.rows[0]) return Number(r.rows[0].n)
  }
  const r = await sql<{ n: number }>`select count(*) as n from ${source(entity)} t ${whereClause(entity, 't', filters)}`.execute(db)
  return Number(r.rows[0]?.n ?? 0)
}

async function pageRows(db: Executor, registry: Registry, entity: Entity<string, Fields>, q: ListQuery, page?: { page: number; size: number }): Promise<Row[]> {
  const { columns, joins } = listColumns(registry, entity, 'p')
  const limit = page ? sql`limit ${page.size} offset ${(page.page - 1) * page.size}` : sql``
  const r = await sql<Row>`
    with p as (
      select * from ${source(entity)} t ${whereClause(entity, 't', q.filters)}
      order by ${orderClause(registry, entity, 't', q.ordering)} ${limit}
    )
    select ${sql.join(columns)} from p ${sql.join(joins, sql` `)}
    order by ${orderClause(registry, entity, 'p', q.ordering)}`.execute(db)
  return r.rows
}

export async function listRows(db: Executor, entity: Entity<string, Fields>, q: ListQuery, registry: Registry = registeredEntities): Promise<ListResult> {
  if (!q.page) {
    const rows = await pageRows(db, registry, entity, q)
    return { rows, total: rows.length, page: 1, size: rows.length, totalPages: 1 }
  }
  const { size } = q.page
  // Count and page run side by side; only a page past the end needs a second look.
  const [total, first] = await Promise.all([count(db, entity, q.filters), pageRows(db, registry, entity, q, q.page)])
  const totalPages = Math.max(1, Math.ceil(total / size))
  const page = Math.min(q.page.page, totalPages)
  const rows = page === q.page.page ? first : await pageRows(db, registry, entity, q, { page, size })
  return { rows, total, page, size, totalPages }
}

/** One stored row as `{id}` returns it: raw reference ids, many-to-many as id arrays, no write-only field. */
export async function findRow(db: Executor, entity: Entity<string, Fields>, rowId: number): Promise<Row | undefined> {
  const readable = entity.fieldNames.filter((n) => !entity.fields[n]!.isWriteOnly)
  const extra = readable
    .filter((n) => entity.fields[n]!.kind === 'refs')
    .map((n) => sql`array(select jt.target_id from ${id(linkTable(entity, n))} jt where jt.owner_id = t.id order by jt.target_id) as ${id(n)}`)
  const columns = readable.filter((n) => entity.fields[n]!.kind !== 'refs').map((n) => sql`${ref('t', n)}`)
  const all = [sql`t.id`, ...columns, ...extra, sql`t.created_at`, sql`t.updated_at`, sql`t.created_by`, sql`t.updated_by`]
  const r = await sql<Row>`select ${sql.join(all)} from ${source(entity)} t where t.id = ${rowId}`.execute(db)
  return r.rows[0]
}
