import { sql, type RawBuilder } from 'kysely'
import { columnFields, hasComputed, lineLinkColumn, LINE_POSITION, readableFields, rootOf, storageOf, withComputed, type Entity, type Fields } from '../../schema/kit'
import { entities as registeredEntities } from '../../schema'
import { joinTableName } from '../db/registry-schema'
import type { Executor, Row } from '../db/types'
import type { HookRegistry } from './hooks'
import { countDocuments, listDocuments } from './list-documents'
import { listTuning, nearestRow, rememberRows, seekCounts } from './list-positions'

/**
 * The read layer's SQL. One query per page: the page of ids is cut first, then references
 * are joined onto those rows only (joining before OFFSET costs at deep pages); a later page
 * cuts its ids alone, and a deep one seeks from a row remembered before it (list-positions.ts).
 * The total comes from a trigger-kept counter when no filter applies, and otherwise from a
 * count cached under the versions of the tables it read (exact: any write moves a version);
 * a text search counts only so far and says "more than" past it (`totalIsLowerBound`).
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
/** `totalIsLowerBound`: the list holds more than `total` rows (a text search counted only so far: listTuning.exactCountUpTo). */
export type ListResult = { rows: Row[]; total: number; page: number; size: number; totalPages: number; totalIsLowerBound?: true }
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
/** A count remembered under versions: exact, or only known to exceed `n` (a bounded count that found more). */
const countCache = new Map<string, { versions: string; n: number; exact: boolean }>()

/** The tables' versions as one text (`table:version,…`), the same in a statement's own snapshot as when read alone. */
const versionsText = (tables: readonly string[]) =>
  sql<string>`(select coalesce(string_agg(table_name || ':' || version, ',' order by table_name), '') from row_count where table_name = any(${[...tables]}))`

async function versionsOf(db: Executor, tables: readonly string[]): Promise<string> {
  const r = await sql<{ v: string }>`select ${versionsText(tables)} as v`.execute(db)
  return r.rows[0]?.v ?? ''
}

async function countRows(db: Executor, registry: Registry, entity: Entity<string, Fields>, filters: readonly Filter[], upTo?: number): Promise<number> {
  const where = whereClause(registry, entity, 't', filters)
  // Bounded: the database stops at the first upTo + 1 matches (a LIMIT under the count).
  const r = upTo === undefined
    ? await sql<{ n: number }>`select count(*) as n from ${source(entity)} t ${where}`.execute(db)
    : await sql<{ n: number }>`select count(*) as n from (select 1 from ${source(entity)} t ${where} limit ${upTo + 1}) s`.execute(db)
  return Number(r.rows[0]?.n ?? 0)
}

/** Whether a filter matches text (a search, a `contains`): what a common term makes a count of thousands of rows. */
const matchesText = (f: Filter): boolean => f.op === 'search' || f.op === 'contains' || (f.op === 'any' && f.filters.some(matchesText))

/** A list's total: exact, or a lower bound (the list holds more than `n`). */
type Count = { n: number; exact: boolean }

/**
 * How many rows match. Unfiltered: the trigger-kept counter. Filtered: a count remembered
 * under the versions of the tables it read — paging through a search counts once. Inside a
 * transaction nothing is remembered: what it sees may yet be rolled back. With `upTo`, a
 * list matched by text is counted only that far: more is said as a lower bound.
 */
async function count(db: Executor, registry: Registry, entity: Entity<string, Fields>, filters: readonly Filter[], pending: Promise<string> | undefined, upTo?: number): Promise<Count> {
  // The counter counts a Trash's rows too: such a list is counted as a filtered one, remembered the same way.
  if (filters.length === 0 && !entity.trash) {
    const r = await sql<{ n: number }>`select n from row_count where table_name = ${entity.name}`.execute(db)
    if (r.rows[0]) return { n: Number(r.rows[0].n), exact: true }
    return { n: await countRows(db, registry, entity, filters), exact: true }
  }
  const bound = upTo !== undefined && filters.some(matchesText) ? upTo : undefined
  const counted = async (): Promise<Count> => {
    const n = await countRows(db, registry, entity, filters, bound)
    return bound !== undefined && n > bound ? { n: bound, exact: false } : { n, exact: true }
  }
  // A count against the clock changes with no write: never remembered.
  if (!pending || filters.some((f) => f.op === 'past_due')) return counted()
  const key = `${entity.name}|${JSON.stringify(filters)}`
  const versions = await pending
  const hit = countCache.get(key)
  if (hit && hit.versions === versions) {
    if (hit.exact) return { n: hit.n, exact: true }
    if (bound !== undefined && hit.n >= bound) return { n: bound, exact: false }
  }
  const c = await counted()
  countCache.delete(key)
  if (countCache.size >= COUNT_CACHE_MAX) countCache.delete(countCache.keys().next().value!)
  countCache.set(key, { versions, ...c })
  return c
}

/**
 * How far a text search is counted for a page ending at row `end`: listTuning.exactCountUpTo,
 * doubled until past the page's end — so the count covers the page asked, and walking on
 * through the pages reuses the count remembered rather than counting again for each.
 */
function countBound(end: number): number {
  let bound = Math.max(1, listTuning.exactCountUpTo)
  while (bound < end) bound *= 2
  return bound
}

/** Forgets every remembered count (a bench that reads several databases from one process; a server reads one). */
export function forgetCounts(): void {
  countCache.clear()
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

/**
 * Where a page past the first is cut: `offset` rows skipped — after the row `after` when a
 * row before the page is remembered (then inclusive when it is the page's first row) — and,
 * for such a seek, the versions the remembered row stands under, checked in the statement's
 * own snapshot: a write since then makes the statement answer nothing (and the page is read by OFFSET).
 */
type Cut = { size: number; offset: number; after?: { id: number; inclusive: boolean; tables: readonly string[]; versions: string } }

/** The comparison that seeks past (or to) a remembered row, in the list's order: only on an order no row has a null key in. */
function seekClause(entity: Entity<string, Fields>, alias: string, ordering: string, after: NonNullable<Cut['after']>): RawBuilder<unknown> {
  const desc = ordering.startsWith('-')
  const name = desc ? ordering.slice(1) : ordering
  const op = sql.raw(`${desc ? '<' : '>'}${after.inclusive ? '=' : ''}`)
  if (name === 'id') return sql`${ref(alias, 'id')} ${op} ${after.id}`
  // The remembered row's key is read in the same snapshot: nothing of it is carried between requests but its id.
  return sql`(${ref(alias, name)}, ${ref(alias, 'id')}) ${op} ((select ${ref('b', name)} from ${source(entity, 'all')} b where b.id = ${after.id}), ${after.id})`
}

/** Whether a list's order can be sought along: by id, or by a stored, required (never null) field of the entity that is not a reference. */
export function isSeekable(entity: Entity<string, Fields>, ordering: string): boolean {
  const name = ordering.replace(/^-/, '')
  if (name === 'id') return true
  const field = entity.fields[name]
  return field !== undefined && field.kind !== 'ref' && field.presence !== 'optional' && !field.isVirtual && columnFields(entity, [name]).length === 1
}

/**
 * A page past the first: its ids are cut first — from the order's index alone where it can
 * (a deferred join: no earlier row is read whole), or sought from a remembered row — then its
 * rows read and joined.
 */
async function laterPageRows(db: Executor, registry: Registry, entity: Entity<string, Fields>, q: ListQuery, cut: Cut): Promise<Row[]> {
  const { columns, joins } = listColumns(registry, entity, 'p')
  const conditions = q.filters.map((f) => conditionOf(registry, entity, 't', f))
  if (cut.after) conditions.push(seekClause(entity, 't', q.ordering, cut.after), sql`${versionsText(cut.after.tables)} = ${cut.after.versions}`)
  const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``
  const r = await sql<Row>`
    with k as (
      select t.id from ${source(entity)} t ${where}
      order by ${orderClause(registry, entity, 't', q.ordering)} limit ${cut.size} offset ${cut.offset}
    ), p as (
      select t.* from ${source(entity)} t where t.id in (select k.id from k)
    )
    select ${sql.join(columns)} from p ${sql.join(joins, sql` `)}
    order by ${orderClause(registry, entity, 'p', q.ordering)}`.execute(db)
  return r.rows
}

/**
 * A page by its number: the first by LIMIT; a later one by a deferred join; a deep one (from
 * `listTuning.seekFrom` rows on) of a list that can be sought along, from the nearest row
 * remembered before it under the same versions. Every page is the one OFFSET gives in the
 * statement's snapshot: a seek whose versions moved answers nothing, and the page is cut by OFFSET.
 */
async function pageByNumber(db: Executor, registry: Registry, entity: Entity<string, Fields>, q: ListQuery, page: { page: number; size: number }, versions: string | undefined): Promise<Row[]> {
  const offset = (page.page - 1) * page.size
  if (offset === 0) return pageRows(db, registry, entity, q, page)
  if (versions === undefined) return laterPageRows(db, registry, entity, q, { size: page.size, offset })
  const key = `${entity.name}|${q.ordering}|${JSON.stringify(q.filters)}`
  const tables = tablesRead(registry, entity, q.filters)
  const near = nearestRow(key, versions, offset)
  let rows: Row[] = []
  if (near) {
    const inclusive = near.position === offset
    rows = await laterPageRows(db, registry, entity, q, { size: page.size, offset: inclusive ? 0 : offset - near.position - 1, after: { id: near.id, inclusive, tables, versions } })
  }
  if (near) seekCounts[rows.length > 0 ? 'sought' : 'missed']++
  if (rows.length === 0) rows = await laterPageRows(db, registry, entity, q, { size: page.size, offset })
  rememberRows(key, versions, offset, rows.map((r) => Number(r.id)))
  return rows
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
  return (await count(db, registry, entity, filters, pendingVersions(db, registry, entity, filters))).n
}

export async function listRows(db: Executor, entity: Entity<string, Fields>, q: ListQuery, registry: Registry = registeredEntities, hooks?: HookRegistry): Promise<ListResult> {
  // A document kept one row per line is listed a row per document.
  if (entity.rowsPerLine) return listDocuments(db, registry, entity, q, hooks)
  if (!q.page) {
    const rows = withVirtual(entity, await pageRows(db, registry, entity, q))
    return { rows, total: rows.length, page: 1, size: rows.length, totalPages: 1 }
  }
  const { size } = q.page
  const offset = (q.page.page - 1) * size
  // A deep page of a list whose rows change only with a write: its versions are read before
  // the page (what was read is remembered under versions no newer than the rows), and the count reuses them.
  const seeks = offset >= listTuning.seekFrom && !db.isTransaction && isSeekable(entity, q.ordering) && !q.filters.some((f) => f.op === 'past_due')
  const seekVersions = seeks ? versionsOf(db, tablesRead(registry, entity, q.filters)) : undefined
  const versions = seekVersions ? await seekVersions : undefined
  const pending = seekVersions && (q.filters.length > 0 || entity.trash) ? seekVersions : pendingVersions(db, registry, entity, q.filters)
  const upTo = countBound(offset + size)
  // Count and page run side by side; only a page past the end needs a second look.
  const [counted, first] = await Promise.all([count(db, registry, entity, q.filters, pending, upTo), pageByNumber(db, registry, entity, q, q.page, versions)])
  const total = counted.n
  // More than `total`: there is at least one page past the one it ends on.
  const totalPages = Math.max(1, Math.ceil((counted.exact ? total : total + 1) / size))
  const page = Math.min(q.page.page, totalPages)
  const rows = withVirtual(entity, page === q.page.page ? first : await pageByNumber(db, registry, entity, q, { page, size }, undefined))
  return { rows, total, page, size, totalPages, ...(counted.exact ? {} : { totalIsLowerBound: true as const }) }
}

// ---------------------------------------------------------------- one record

/** The key a record carries the display names of its references under (`{city: 3, _labels: {city: 'Dhaka'}}`). */
export const LABELS = '_labels'

/** Columns giving each reference's label (`__label_city`) and each many-to-many's labels by id, for `_labels`. */
export function labelColumns(registry: Registry, entity: Entity<string, Fields>, alias: string): RawBuilder<unknown>[] {
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
