import { sql, type RawBuilder } from 'kysely'
import { lineEntityOf, lineLinkColumn, LINE_POSITION, rootOf, storageOf, type Entity, type Fields, type RelatedSpec } from '../../schema/kit'
import { can } from '../auth/principal'
import type { Executor } from '../db/types'
import type { Actor } from './hooks'
import type { Registry } from './list-query'

/**
 * Which audit entries make a record's history: its own (and those written of the same row
 * through an entity that shares its table — a user changed on the employee form — for a
 * caller who may read that entity), its document's lines (each line's entries, a line since
 * removed included), and the rows of its `related` lists that refer to it, for a caller who
 * may list them. Every part is a lookup by (entity, entity_id) — the audit log's index — but
 * the related rows that no longer refer to the record, found from the time it was made on.
 */
export type HistoryPart = 'own' | 'line' | 'related'

/** A document's lines as the history names them: which lines field, and the line field it labels each by. */
export type LineSource = {
  readonly entity: string
  readonly field: string
  readonly labelField: string
  /** A document kept one row per line: each row's place now (a row's place is not audited). */
  readonly positions?: ReadonlyMap<number, number>
}

export type HistoryScope = {
  readonly rows: ReadonlyArray<{ readonly entity: string; readonly ids: readonly number[]; readonly part: HistoryPart }>
  readonly related: ReadonlyArray<{ readonly spec: RelatedSpec; readonly other: Entity<string, Fields> }>
  readonly lines: readonly LineSource[]
  /** When the record was made: no related row referred to it before. */
  readonly since: string | null
}

/** The most rows of removed lines a history follows: a document that lost more is no document a person reads line by line. */
const MAX_REMOVED = 10_000

const idList = (rows: ReadonlyArray<{ id: number | string }>) => rows.map((r) => Number(r.id))

async function documentRows(db: Executor, entity: Entity<string, Fields>, id: number): Promise<{ ids: number[]; positions: Map<number, number> }> {
  const { key } = entity.rowsPerLine!
  const table = sql.id(entity.name)
  const current = await sql<{ id: number | string }>`
    select id from ${table} where ${sql.ref(key)} = (select ${sql.ref(key)} from ${table} where id = ${id}) order by id`.execute(db)
  const ids = idList(current.rows)
  // The numbers the document had before (a voucher moved to another day took that day's number).
  const keys = await sql<{ key: string }>`
    select ${sql.ref(key)}::text as key from ${table} where id = ${id}
    union
    select distinct a.changes -> ${key} ->> 0 from audit_log a
    where a.entity = ${entity.name} and a.entity_id = any(${ids}::bigint[]) and a.changes -> ${key} ->> 0 is not null
      and a.changes -> ${key} ->> 1 = (select ${sql.ref(key)}::text from ${table} where id = ${id})`.execute(db)
  // Its rows since removed: their delete entries name the document's number.
  const removed = await sql<{ id: number | string }>`
    select distinct a.entity_id as id from audit_log a
    where a.entity = ${entity.name} and a.action = 'delete' and a.changes -> ${key} ->> 0 = any(${keys.rows.map((k) => k.key)}::text[])
      and a.at >= (select min(b.at) from audit_log b where b.entity = ${entity.name} and b.entity_id = any(${ids}::bigint[]))
    limit ${MAX_REMOVED}`.execute(db)
  return { ids: [...ids, ...idList(removed.rows)], positions: new Map(ids.map((rowId, i) => [rowId, i])) }
}

/**
 * A document's lines of one lines field: those it has, and those removed — a removed line's
 * row is gone, but it was added by a write of the document (the same transaction, so the same
 * `at`) and is no other document's now.
 */
async function lineRows(db: Executor, line: Entity<string, Fields>, ownNames: readonly string[], id: number): Promise<number[]> {
  const table = sql.id(line.name)
  const current = await sql<{ id: number | string }>`select id from ${table} where ${sql.ref(lineLinkColumn(line))} = ${id} order by ${sql.ref(LINE_POSITION)}, id`.execute(db)
  const removed = await sql<{ id: number | string }>`
    select distinct c.entity_id as id from audit_log c
    where c.entity = ${line.name} and c.action = 'create'
      and c.at in (select d.at from audit_log d where d.entity = any(${[...ownNames]}::text[]) and d.entity_id = ${id})
      and not exists (select 1 from ${table} x where x.id = c.entity_id)
    limit ${MAX_REMOVED}`.execute(db)
  return [...idList(current.rows), ...idList(removed.rows)]
}

export async function historyScope(db: Executor, registry: Registry, entity: Entity<string, Fields>, id: number, caller: Actor): Promise<HistoryScope> {
  // The same row through another entity of its table (a user's employee form), if the caller may read that one.
  const root = rootOf(entity).name
  const ownNames = registry.filter((e) => !e.isLine && rootOf(e).name === root && (e.name === entity.name || can(caller, e.permissions.DETAILS))).map((e) => e.name)
  const rows: Array<HistoryScope['rows'][number]> = []
  const lines: LineSource[] = []
  if (entity.rowsPerLine) {
    const spec = entity.rowsPerLine
    const document = await documentRows(db, entity, id)
    rows.push({ entity: entity.name, ids: document.ids, part: 'line' })
    lines.push({ entity: entity.name, field: spec.lines, labelField: spec.lineFields[0] ?? entity.labelField, positions: document.positions })
  } else {
    rows.push(...ownNames.map((name) => ({ entity: name, ids: [id], part: 'own' as const })))
    for (const field of entity.linesFieldNames) {
      const line = lineEntityOf(entity, field)
      rows.push({ entity: line.name, ids: await lineRows(db, line, ownNames, id), part: 'line' })
      lines.push({ entity: line.name, field, labelField: line.labelField })
    }
  }
  const related = entity.related
    .map((spec) => ({ spec, other: registry.find((e) => e.name === spec.entity) }))
    .filter((r): r is { spec: RelatedSpec; other: Entity<string, Fields> } => r.other !== undefined && can(caller, r.other.permissions.LIST))
  const made = await sql<{ at: Date | string | null }>`select created_at as at from ${sql.id(rootOf(entity).name)} where id = ${id}`.execute(db)
  const at = made.rows[0]?.at ?? null
  return { rows, related, lines, since: at === null ? null : at instanceof Date ? at.toISOString() : String(at) }
}

/**
 * The audit entries of the rows a related list shows, and of those that referred to the
 * record once (their change of the reference names it) — from the record's making on.
 */
export function relatedCondition(spec: RelatedSpec, other: Entity<string, Fields>, id: number, since: string | null): RawBuilder<unknown> {
  const table = sql.id(storageOf(other, spec.via).name)
  return sql`a.entity = ${other.name} and (
    a.entity_id in (select r.id from ${table} r where r.${sql.ref(spec.via)} = ${id})
    or ((a.changes -> ${spec.via} ->> 0 = ${String(id)} or a.changes -> ${spec.via} ->> 1 = ${String(id)}) ${since === null ? sql`` : sql`and a.at >= ${since}::timestamptz`}))`
}
