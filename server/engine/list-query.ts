import { sql, type RawBuilder } from 'kysely'
import { columnFields, hasComputed, lineLinkColumn, LINE_POSITION, readableFields, rootOf, storageOf, withComputed, type Entity, type Fields } from '../../schema/kit'
import { entities as registeredEntities } from '../../schema'
import { joinTableName } from '../db/registry-schema'
import type { Executor, Row } from '../db/types'
import type { HookRegistry } from './hooks'
import { countDocuments, listDocuments } from './list-documents'

/**
 * The read layer's SQL. One query per page: the page of ids is cut first, then references
 * are joined onto those rows only (joining before OFFSET costs at deep pages). The total
 * comes from a trigger-kept counter when no filter applies, and otherwise from a count
 * cached under the versions of the tables it read (exact: any write moves a version).
 */
export type Filter =
  | { field: string; op: 'contains' | 'equals'; value: string | number | boolean | null }
  /** Bounds, inclusive (`gte`, `lte`), or up to the end of a day (`before_day`, for a datetime). Numbers compare as numeric. */
  | { field: string; op: 'gte' | 'lte' | 'before_day'; value: string }
  /** `q`: any searchable field contains the text, ignoring case and accents. */
  | { op: 'search'; value: string }
  /** Any of several values (`field__in=a,b`, a view's statuses). */
  | { field: string; op: 'in'; values: readonly (string | number | boolean)[] }
  /** A reference whose row's label is the value (a view of the tickets of the department named `support`). */
  | { field: string; op: 'label'; value: string }
  /** A past-due flag (Field.pastDue) true or false, against the database's clock. */
  | { field: string; op: 'past_due'; value: boolean }
  /** A reference to a record of an entity with `own` that is the user's own (EntityConfig.own `via`): a ticket's messages of a customer's tickets. */
  | { field: string; op: 'owned'; user: number }
  /** Any of several conditions (a caller's own rows, or those shared with them: EntityConfig.own `shared`). */
  | { op: 'any'; filters: readonly Filter[] }
export type ListQuery = { filters: Filter[]; ordering: string; page?: { page: number; size: number } }
export type ListResult = { rows: Row[]; total: number; page: number; size: number; totalPages: number }
/** The entities references resolve in: the app's registry, which may extend the static one. */
export type Registry = readonly Entity<string, Fields>[]

const id = sql.id
const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`)

/** A referenced row as the lists nest it, `{id, name}` (null when none), from a join aliased `alias` whose label column is `name`. */
export const nestedRef = (alias: string, label = 'name'): RawBuilder<unknown> =>
  sql`case when ${sql.ref(`${alias}.id`)} is null then null else json_build_object('id', ${sql.ref(`${alias}.id`)}, 'name', ${sql.ref(`${alias}.${label}`)}) end`

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`)
}

export function refTarget(registry: Registry, entity: Entity<string, Fields>, field: string): Entity<string, Fields> {
  const name = entity.fields[field]!.ref!.target
  const t = registry.find((e) => e.name === name)
  if (!t) throw new Error(`unknown ref target ${name}`)
  return t
}

/** Columns a row is read with: every field that has one, not the write-only ones (password hashes). */
const storedReadable = (e: Entity<string, Fields>, names: readonly string[]) => columnFields(e, names).filter((n) => !e.fields[n]!.isWriteOnly)

/**
 * Which rows of an entity with a Trash a relation holds: those not in it (every read), those
 * in it (the Trash's list), or all — where a row is named by what refers to it (a label), so
 * that a reference kept in history or in the Trash still reads.
 */
export type SourceRows = 'live' | 'trashed' | 'all'

/**
 * The relation an entity's rows are read from: its table, or for an entity that extends
 * another, the parent's row joined with its own (the parent holds id and audit columns).
 * Write-only columns (password hashes) are never part of it.
 */
export function source(entity: Entity<string, Fields>, rows: SourceRows = 'live'): RawBuilder<unknown> {
  const parent = entity.parent
  // An entity with a Trash (EntityConfig.trash) is read without its trashed rows, unless the labels of what refers to them are asked.
  if (!parent) return entity.trash && rows !== 'all' ? sql`(select * from ${id(entity.name)} where ${sql.raw(rows === 'trashed' ? 'deleted_at is not null' : 'deleted_at is null')})` : sql`${id(entity.name)}`
  const parentColumns = ['id', ...storedReadable(parent, parent.fieldNames), 'created_at', 'updated_at', 'created_by', 'updated_by'].map((c) => ref('p', c))
  const ownColumns = storedReadable(entity, entity.ownFieldNames).map((c) => ref('c', c))
  return sql`(select ${sql.join([...parentColumns, ...ownColumns])} from ${id(entity.name)} c join ${id(parent.name)} p on p.id = c.id)`
}

/** The join table of a many-to-many field: named after the entity whose table stores the field. */
export const linkTable = (entity: Entity<string, Fields>, field: string) => joinTableName(storageOf(entity, field).name, field)

/** `text` contains `needle`, ignoring case and accents; served by the column's search index. */
const matches = (column: RawBuilder<unknown>, needle: string) => sql`bo_unaccent(${column}) ilike bo_unaccent(${`%${escapeLike(needle)}%`})`

function containsClause(registry: Registry, entity: Entity<string, Fields>, alias: string, field: string, needle: string): RawBuilder<unknown> {
  const spec = entity.fields[field]!
  if (spec.kind !== 'ref') return matches(sql`${ref(alias, field)}`, needle)
  // A reference matches through the label of the row it points to.
  const t = refTarget(registry, entity, field)
  return sql`exists (select 1 from ${source(t, 'all')} x where x.id = ${ref(alias, field)} and ${matches(sql`${ref('x', t.labelField)}`, needle)})`
}

export function whereClause(registry: Registry, entity: Entity<string, Fields>, alias: string, filters: readonly Filter[]): RawBuilder<unknown> {
  if (filters.length === 0) return sql``
  return sql`where ${sql.join(filters.map((f) => conditionOf(registry, entity, alias, f)), sql` and `)}`
}

function conditionOf(registry: Registry, entity: Entity<string, Fields>, alias: string, f: Filter): RawBuilder<unknown> {
  if (f.op === 'any') return f.filters.length === 0 ? sql`false` : sql`(${sql.join(f.filters.map((x) => conditionOf(registry, entity, alias, x)), sql` or `)})`
  if (f.op === 'search') {
    const any = entity.searchFields.map((name) => containsClause(registry, entity, alias, name, f.value))
    return any.length > 0 ? sql`(${sql.join(any, sql` or `)})` : sql`false`
  }
  const isAudit = f.field === 'id' || f.field === 'created_by' || f.field === 'updated_by'
  if (!isAudit && !entity.fields[f.field]) throw new Error(`unknown filter field ${f.field}`)
  if (f.op === 'contains') return containsClause(registry, entity, alias, f.field, String(f.value))
  if (f.op === 'gte' || f.op === 'lte' || f.op === 'before_day') return boundClause(entity, alias, f)
  if (f.op === 'in') return f.values.length === 0 ? sql`false` : sql`${ref(alias, f.field)} in (${sql.join(f.values.map((v) => sql`${v}`))})`
  if (f.op === 'past_due') {
    const spec = entity.fields[f.field]!.pastDue!
    const past = sql`coalesce(${ref(alias, spec.due)} < now() and ${ref(alias, spec.unless.field)} <> all(${[...spec.unless.values]}::text[]), false)`
    return f.value ? past : sql`not ${past}`
  }
  if (f.op === 'owned') {
    const t = refTarget(registry, entity, f.field)
    if (!t.own?.field) throw new Error(`'${entity.name}.${f.field}' refers to '${t.name}', which has no own field`)
    return sql`exists (select 1 from ${source(t, 'all')} x where x.id = ${ref(alias, f.field)} and ${ref('x', t.own.field)} = ${f.user})`
  }
  if (f.op === 'label') {
    const t = refTarget(registry, entity, f.field)
    return sql`exists (select 1 from ${source(t, 'all')} x where x.id = ${ref(alias, f.field)} and ${ref('x', t.labelField)} = ${f.value})`
  }
  return f.value === null ? sql`${ref(alias, f.field)} is null` : sql`${ref(alias, f.field)} = ${f.value}`
}

/** A range bound: numbers as numeric (an integer column and a bound of 2.5 compare exactly, and never overflow), days as dates. */
function boundClause(entity: Entity<string, Fields>, alias: string, f: { field: string; op: 'gte' | 'lte' | 'before_day'; value: string }): RawBuilder<unknown> {
  const column = sql`${ref(alias, f.field)}`
  const kind = entity.fields[f.field]?.kind ?? 'datetime'
  if (f.op === 'before_day') return sql`${column} < ${f.value}::date + 1`
  const whole = kind === 'integer' ? wholeBound(f.value, f.op === 'gte' ? 'up' : 'down') : undefined
  const value =
    whole !== undefined ? sql`${whole}::bigint` : kind === 'integer' || kind === 'decimal' ? sql`${f.value}::numeric` : kind === 'date' ? sql`${f.value}::date` : sql`${f.value}::timestamptz`
  return f.op === 'gte' ? sql`${column} >= ${value}` : sql`${column} <= ${value}`
}

/**
 * The integer bound of an integer column that a decimal bound means (≥ 2.5 is ≥ 3, ≤ 2.5
 * is ≤ 2), so the comparison stays on the column's type and its index; beyond bigint's
 * digits, undefined (compared as numeric).
 */
function wholeBound(value: string, round: 'up' | 'down'): string | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value)
  if (!m) return undefined
  const [, sign, digits, frac = ''] = m
  if (digits!.replace(/^0+(?=\d)/, '').length > 17) return undefined
  let n = BigInt(digits!) * (sign ? -1n : 1n)
  if (/[1-9]/.test(frac)) n += round === 'up' ? (sign ? 0n : 1n) : sign ? -1n : 0n
  return n.toString()
}

/** ORDER BY for `field` / `-field`; a reference sorts by the label of the row it points to. */
export function orderClause(registry: Registry, entity: Entity<string, Fields>, alias: string, ordering: string): RawBuilder<unknown> {
  const desc = ordering.startsWith('-')
  const name = desc ? ordering.slice(1) : ordering
  const dir = sql.raw(desc ? 'desc' : 'asc')
  const field = entity.fields[name]
  let expr: RawBuilder<unknown>
  if (field?.kind === 'ref') {
    const t = refTarget(registry, entity, name)
    expr = sql`(select ${ref('o', t.labelField)} from ${source(t, 'all')} o where o.id = ${ref(alias, name)})`
  } else {
    expr = sql`${ref(alias, name)}`
  }
  return name === 'id' ? sql`${expr} ${dir}` : sql`${expr} ${dir}, ${ref(alias, 'id')} ${dir}`
}

/**
 * Columns of a list row: fields with references nested as `{id, name}` (or as the field's
 * `listAs` says: the label, or the raw id with the label in the row's `_labels`), audit users
 * as e-mails.
 */
export function listColumns(registry: Registry, entity: Entity<string, Fields>, alias: string): { columns: RawBuilder<unknown>[]; joins: RawBuilder<unknown>[] } {
  const columns: RawBuilder<unknown>[] = [sql`${ref(alias, 'id')}`]
  const joins: RawBuilder<unknown>[] = []
  const labelsOfRawIds: RawBuilder<unknown>[] = []
  entity.fieldNames.forEach((name, i) => {
    const field = entity.fields[name]!
    if (field.isWriteOnly || field.kind === 'lines' || field.isVirtual) return
    if (field.kind === 'ref') {
      const t = refTarget(registry, entity, name)
      const j = `r${i}`
      joins.push(sql`left join ${source(t, 'all')} ${sql.raw(j)} on ${ref(j, 'id')} = ${ref(alias, name)}`)
      if (field.listAs === 'id') {
        columns.push(sql`${ref(alias, name)}`)
        labelsOfRawIds.push(sql`${sql.lit(name)}`, sql`${ref(j, t.labelField)}`)
      } else {
        columns.push(
          field.listAs === 'label'
            ? sql`${ref(j, t.labelField)} as ${id(name)}`
            : sql`case when ${ref(j, 'id')} is null then null else json_build_object('id', ${ref(j, 'id')}, 'name', ${ref(j, t.labelField)}) end as ${id(name)}`,
        )
      }
    } else if (field.kind === 'refs') {
      const t = refTarget(registry, entity, name)
      const linked = sql`from ${id(linkTable(entity, name))} jt join ${source(t, 'all')} x on x.id = jt.target_id where jt.owner_id = ${ref(alias, 'id')}`
      if (field.listAs === 'id') {
        columns.push(sql`(select coalesce(json_agg(x.id order by x.id), '[]'::json) ${linked}) as ${id(name)}`)
        labelsOfRawIds.push(sql`${sql.lit(name)}`, sql`(select json_object_agg(x.id, ${ref('x', t.labelField)}) ${linked})`)
      } else {
        columns.push(sql`(select coalesce(json_agg(json_build_object('id', x.id, 'name', ${ref('x', t.labelField)}) order by x.id), '[]'::json) ${linked}) as ${id(name)}`)
      }
    } else {
      columns.push(sql`${ref(alias, name)}`)
    }
  })
  columns.push(sql`${ref(alias, 'created_at')}`, sql`${ref(alias, 'updated_at')}`, sql`cu.email as created_by`, sql`uu.email as updated_by`)
  // As `{id}` carries them: a reference left out (null) has no label.
  if (labelsOfRawIds.length > 0) columns.push(sql`json_strip_nulls(json_build_object(${sql.join(labelsOfRawIds)})) as ${id(LABELS)}`)
  joins.push(sql`left join "user" cu on cu.id = ${ref(alias, 'created_by')}`, sql`left join "user" uu on uu.id = ${ref(alias, 'updated_by')}`)
  return { columns, joins }
}

// ---------------------------------------------------------------- counts

/** The tables a filtered count reads: the entity's (and its parent's), and those of references searched by label. */
function tablesRead(registry: Registry, entity: Entity<string, Fields>, filters: readonly Filter[]): string[] {
  const tables = new Set([rootOf(entity).name, entity.name])
  const viaLabel = (name: string) => {
    const field = entity.fields[name]
    if (field?.kind !== 'ref') return
    const t = refTarget(registry, entity, name)
    tables.add(rootOf(t).name)
    tables.add(t.name)
  }
  const visit = (f: Filter): void => {
    if (f.op === 'any') f.filters.forEach(visit)
    else if (f.op === 'search') entity.searchFields.forEach(viaLabel)
    else if (f.op === 'contains' || f.op === 'label' || f.op === 'owned') viaLabel(f.field)
  }
  filters.forEach(visit)
  return [...tables].sort()
}

const COUNT_CACHE_MAX = 2_000
const countCache = new Map<string, { versions: string; n: number }>()

async function versionsOf(db: Executor, tables: readonly string[]): Promise<string> {
  const r = await sql<{ table_name: string; version: string }>`
    select table_name, version from row_count where table_name = any(${[...tables]}) order by table_name`.execute(db)
  return r.rows.map((x) => `${x.table_name}:${x.version}`).join(',')
}

async function countRows(db: Executor, registry: Registry, entity: Entity<string, Fields>, filters: readonly Filter[]): Promise<number> {
  const r = await sql<{ n: number }>`select count(*) as n from ${source(entity)} t ${whereClause(registry, entity, 't', filters)}`.execute(db)
  return Number(r.rows[0]?.n ?? 0)
}

/**
 * How many rows match. Unfiltered: the trigger-kept counter. Filtered: a count remembered
 * under the versions of the tables it read — paging through a search counts once. Inside a
 * transaction nothing is remembered: what it sees may yet be rolled back.
 */
async function count(db: Executor, registry: Registry, entity: Entity<string, Fields>, filters: readonly Filter[], pending: Promise<string> | undefined): Promise<number> {
  // The counter counts a Trash's rows too: such a list is counted as a filtered one, remembered the same way.
  if (filters.length === 0 && !entity.trash) {
    const r = await sql<{ n: number }>`select n from row_count where table_name = ${entity.name}`.execute(db)
    if (r.rows[0]) return Number(r.rows[0].n)
    return countRows(db, registry, entity, filters)
  }
  // A count against the clock changes with no write: never remembered.
  if (!pending || filters.some((f) => f.op === 'past_due')) return countRows(db, registry, entity, filters)
  const key = `${entity.name}|${JSON.stringify(filters)}`
  const versions = await pending
  const hit = countCache.get(key)
  if (hit && hit.versions === versions) return hit.n
  const n = await countRows(db, registry, entity, filters)
  if (countCache.size >= COUNT_CACHE_MAX) countCache.delete(countCache.keys().next().value!)
  countCache.set(key, { versions, n })
  return n
}

async function pageRows(db: Executor, registry: Registry, entity: Entity<string, Fields>, q: ListQuery, page?: { page: number; size: number }): Promise<Row[]> {
  const { columns, joins } = listColumns(registry, entity, 'p')
  const limit = page ? sql`limit ${page.size} offset ${(page.page - 1) * page.size}` : sql``
  const r = await sql<Row>`
    with p as (
      select * from ${source(entity)} t ${whereClause(registry, entity, 't', q.filters)}
      order by ${orderClause(registry, entity, 't', q.ordering)} ${limit}
    )
    select ${sql.join(columns)} from p ${sql.join(joins, sql` `)}
    order by ${orderClause(registry, entity, 'p', q.ordering)}`.execute(db)
  return r.rows
}

const withVirtual = (entity: Entity<string, Fields>, rows: Row[]): Row[] => (hasComputed(entity, 'virtual') ? rows.map((r) => withComputed(entity, r, 'virtual') as Row) : rows)

/** The versions a filtered count is remembered under, looked up beside it; none inside a transaction or without a filter. */
const pendingVersions = (db: Executor, registry: Registry, entity: Entity<string, Fields>, filters: readonly Filter[]) =>
  (filters.length > 0 || entity.trash) && !db.isTransaction ? versionsOf(db, tablesRead(registry, entity, filters)) : undefined

/**
 * How many records a list of the entity with these filters totals — its `total_elements` —
 * without reading a page: what the dashboard and the quick panel show beside the lists.
 */
export async function listTotal(db: Executor, entity: Entity<string, Fields>, filters: readonly Filter[], registry: Registry = registeredEntities): Promise<number> {
  if (entity.rowsPerLine) return countDocuments(db, registry, entity, filters)
  return count(db, registry, entity, filters, pendingVersions(db, registry, entity, filters))
}

export async function listRows(db: Executor, entity: Entity<string, Fields>, q: ListQuery, registry: Registry = registeredEntities, hooks?: HookRegistry): Promise<ListResult> {
  // A document kept one row per line is listed a row per document.
  if (entity.rowsPerLine) return listDocuments(db, registry, entity, q, hooks)
  if (!q.page) {
    const rows = withVirtual(entity, await pageRows(db, registry, entity, q))
    return { rows, total: rows.length, page: 1, size: rows.length, totalPages: 1 }
  }
  const { size } = q.page
  // Count and page run side by side; only a page past the end needs a second look.
  const [total, first] = await Promise.all([count(db, registry, entity, q.filters, pendingVersions(db, registry, entity, q.filters)), pageRows(db, registry, entity, q, q.page)])
  const totalPages = Math.max(1, Math.ceil(total / size))
  const page = Math.min(q.page.page, totalPages)
  const rows = withVirtual(entity, page === q.page.page ? first : await pageRows(db, registry, entity, q, { page, size }))
  return { rows, total, page, size, totalPages }
}

// ---------------------------------------------------------------- one record

/** The key a record carries the display names of its references under (`{city: 3, _labels: {city: 'Dhaka'}}`). */
export const LABELS = '_labels'

/** Columns giving each reference's label (`__label_city`) and each many-to-many's labels by id, for `_labels`. */
function labelColumns(registry: Registry, entity: Entity<string, Fields>, alias: string): RawBuilder<unknown>[] {
  return readableFields(entity).flatMap((name) => {
    const field = entity.fields[name]!
    if (field.kind === 'ref') {
      const t = refTarget(registry, entity, name)
      return [sql`(select ${ref('x', t.labelField)}::text from ${source(t, 'all')} x where x.id = ${ref(alias, name)}) as ${id(`__label_${name}`)}`]
    }
    if (field.kind === 'refs') {
      const t = refTarget(registry, entity, name)
      return [sql`(select coalesce(json_object_agg(x.id, ${ref('x', t.labelField)}), '{}'::json) from ${id(linkTable(entity, name))} jt
        join ${source(t, 'all')} x on x.id = jt.target_id where jt.owner_id = ${ref(alias, 'id')}) as ${id(`__label_${name}`)}`]
    }
    return []
  })
}

/** Moves the `__label_*` columns of a raw row into its `_labels`. */
function withLabels(row: Row): Row {
  const out: Row = {}
  const labels: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith('__label_')) {
      if (value !== null && !(typeof value === 'object' && Object.keys(value as object).length === 0)) labels[key.slice(8)] = value
    } else out[key] = value
  }
  out[LABELS] = labels
  return out
}

/** The lines of documents, in their order: a line's readable fields with its `_labels`, by document id. */
async function linesOf(db: Executor, registry: Registry, entity: Entity<string, Fields>, field: string, docIds: readonly number[]): Promise<Map<number, Row[]>> {
  const line = entity.fields[field]!.lines!.entity
  const link = lineLinkColumn(line)
  const readable = storedReadable(line, line.fieldNames).filter((n) => line.fields[n]!.kind !== 'refs')
  const refsArrays = readableFields(line).filter((n) => line.fields[n]!.kind === 'refs')
    .map((n) => sql`array(select jt.target_id from ${id(linkTable(line, n))} jt where jt.owner_id = l.id order by jt.target_id) as ${id(n)}`)
  const r = await sql<Row>`
    select ${sql.join([sql`l.id`, sql`${ref('l', link)} as __doc`, ...readable.map((n) => sql`${ref('l', n)}`), ...refsArrays, ...labelColumns(registry, line, 'l')])}
    from ${id(line.name)} l where ${ref('l', link)} = any(${[...docIds]}::bigint[])
    order by ${ref('l', link)}, ${ref('l', LINE_POSITION)}, l.id`.execute(db)
  const byDoc = new Map<number, Row[]>()
  for (const raw of r.rows) {
    const { __doc, ...rest } = raw
    const list = byDoc.get(Number(__doc)) ?? []
    list.push(withLabels(rest))
    byDoc.set(Number(__doc), list)
  }
  return byDoc
}

/**
 * One stored row as `{id}` returns it: raw reference ids (many-to-many as id arrays), the
 * display names of its references in `_labels`, a document's lines, no write-only field.
 */
export async function findRow(db: Executor, entity: Entity<string, Fields>, rowId: number, registry: Registry = registeredEntities, rows: SourceRows = 'live'): Promise<Row | undefined> {
  const readable = readableFields(entity)
  const extra = readable
    .filter((n) => entity.fields[n]!.kind === 'refs')
    .map((n) => sql`array(select jt.target_id from ${id(linkTable(entity, n))} jt where jt.owner_id = t.id order by jt.target_id) as ${id(n)}`)
  const columns = storedReadable(entity, readable).map((n) => sql`${ref('t', n)}`)
  const all = [sql`t.id`, ...columns, ...extra, sql`t.created_at`, sql`t.updated_at`, sql`t.created_by`, sql`t.updated_by`, ...labelColumns(registry, entity, 't')]
  const r = await sql<Row>`select ${sql.join(all)} from ${source(entity, rows)} t where t.id = ${rowId}`.execute(db)
  const raw = r.rows[0]
  if (!raw) return undefined
  let row = withLabels(raw)
  for (const name of entity.linesFieldNames) row[name] = (await linesOf(db, registry, entity, name, [rowId])).get(rowId) ?? []
  if (hasComputed(entity, 'virtual')) row = withComputed(entity, row, 'virtual') as Row
  // The fields in the registry's order, the audit columns and the labels after them.
  const ordered: Row = { id: row.id }
  for (const name of readable) if (name in row) ordered[name] = row[name]
  for (const key of ['created_at', 'updated_at', 'created_by', 'updated_by', LABELS]) ordered[key] = row[key]
  return ordered
}
