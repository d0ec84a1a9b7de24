import { sql } from 'kysely'
import { columnFields, documentFacts, hasComputed, readableFields, rootOf, withComputed, type Entity, type Fields, type Message } from '../../schema/kit'
import type { Executor, Row, Trx } from '../db/types'
import { authorize, scopeOf, type EngineCtx } from './access'
import { currentAuditScope } from './audit-scope'
import { NotFoundError, ValidationError } from './errors'
import { hooksOf } from './hooks'
import { LABELS, labelColumns, linkTable, refTarget, source, whereClause } from './list-query'
import { ownInput } from './operations/own'
import { checkChange, judgeChange } from './operations/update'
import { notFound, read } from './operations/read'
import { auditChanges, columnsOf } from './operations/rows'
import { fromClient } from './operations/values'
import { refusalOf, rowLabel, type Refusal } from './bulk-update-refusals'
import type { Values } from './validate'

/**
 * The engine's update (operations/update.ts) run over a batch of records at once, for an
 * entity where that gives each record exactly what its own update would: the rows read,
 * locked and scoped in one query each, every record judged in memory in the update's order
 * of checks (so the first reason it refuses is the same), the references of the whole batch
 * looked up once per target, then one UPDATE, one read of what was stored and one insert of
 * the audit entries (each its record's, with the request's source and batch).
 *
 * Not for an entity whose write hooks (hooks.ts: beforeValidate, beforeWrite, afterWrite)
 * must run for each record around its own write — a hook may read or change the entity's
 * other rows, and sees those written before it — nor for what a record's update makes of
 * other rows than its own, in order (a slug's free suffix, a period's next number, a
 * document's lines, a parent's row, a check against the entity's own rows): those keep
 * the one-by-one update.
 */
export function isBatchable(ctx: EngineCtx): boolean {
  const { entity } = ctx
  if (hooksOf(ctx.hooks, entity).some((h) => h.beforeValidate || h.beforeWrite || h.afterWrite)) return false
  if (!readsInBatches(entity) || entity.moves || entity.posts || entity.numbering?.date) return false
  const isOwnTarget = (name: string) => entity.fields[name]!.ref?.target === entity.name
  if (entity.fieldNames.some((n) => entity.fields[n]!.slugFrom !== undefined || (entity.fields[n]!.within !== undefined && isOwnTarget(n)))) return false
  return !documentFacts(entity).some((f) => f.target === entity.name)
}

/** Whether `findRows` reads the entity's records as `findRow` does: one table, no lines. */
export const readsInBatches = (entity: Entity<string, Fields>): boolean => !entity.parent && !entity.rowsPerLine && entity.linesFieldNames.length === 0

export type Change = { id: number; values: Values }

/** A record judged ready to store: what its update would write, and the row as it was. */
export type Prepared = { id: number; index: number; before: Row; values: Values }

/** A batch judged: the records ready to store and those that refused, each in the batch's order. */
export type Judged = { prepared: Prepared[]; refusals: Array<{ id: number; index: number; refusal: Refusal }> }

const id = sql.id
const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`)

/**
 * Records as `findRow` (list-query.ts) reads one — the update's `before` and `after` — by id,
 * in one query: raw reference ids, many-to-many as id arrays, `_labels`, virtual values, no
 * write-only field. Only for an entity `readsInBatches` takes (one table, no lines). Live rows only.
 * `labels: false`: without `_labels` — what an update compares and audits is the values — unless
 * a virtual value is worked out from the row (it might read them).
 */
export async function findRows(ctx: EngineCtx, db: Executor, ids: readonly number[], options: { labels?: boolean } = {}): Promise<Map<number, Row>> {
  const { entity } = ctx
  const hasLabels = options.labels !== false || hasComputed(entity, 'virtual')
  const readable = readableFields(entity)
  const links = readable
    .filter((n) => entity.fields[n]!.kind === 'refs')
    .map((n) => sql`array(select jt.target_id from ${id(linkTable(entity, n))} jt where jt.owner_id = t.id order by jt.target_id) as ${id(n)}`)
  const columns = columnFields(entity, readable).map((n) => sql`${ref('t', n)}`)
  const all = [sql`t.id`, ...columns, ...links, sql`t.created_at`, sql`t.updated_at`, sql`t.created_by`, sql`t.updated_by`, ...(hasLabels ? labelColumns(ctx.registry, ctx.entity, 't') : [])]
  const r = await sql<Row>`select ${sql.join(all)} from ${source(entity)} t where t.id = any(${[...ids]}::bigint[])`.execute(db)
  const found = new Map<number, Row>()
  for (const raw of r.rows) {
    let row: Row = {}
    const labels: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(raw)) {
      if (!key.startsWith('__label_')) row[key] = value
      else if (value !== null && !(typeof value === 'object' && Object.keys(value as object).length === 0)) labels[key.slice(8)] = value
    }
    if (hasLabels) row[LABELS] = labels
    if (hasComputed(entity, 'virtual')) row = withComputed(entity, row, 'virtual') as Row
    const ordered: Row = { id: row.id }
    for (const name of readable) if (name in row) ordered[name] = row[name]
    for (const key of ['created_at', 'updated_at', 'created_by', 'updated_by', ...(hasLabels ? [LABELS] : [])]) ordered[key] = row[key]
    found.set(Number(raw.id), ordered)
  }
  return found
}

/** The ids of those records the caller may write (their row scope), as `isInScope` judges one. */
async function writableIds(ctx: EngineCtx, db: Executor, ids: readonly number[]): Promise<Set<number>> {
  const scope = scopeOf(ctx, 'write')
  if (scope.length === 0) return new Set(ids)
  const r = await sql<{ id: number }>`select t.id from ${source(ctx.entity)} t ${whereClause(ctx.registry, ctx.entity, 't', [{ field: 'id', op: 'in', values: [...ids] }, ...scope])}`.execute(db)
  return new Set(r.rows.map((x) => Number(x.id)))
}

/**
 * Locks records as `lockRow` locks one to change it (`for no key update`, in id order) and reads
 * them (without `_labels`: `recordLabel` names one), with which of them the caller may write
 * (their row scope); a record gone (or in the Trash) is not among them.
 */
export async function lockRows(ctx: EngineCtx, trx: Trx, ids: readonly number[]): Promise<{ rows: Map<number, Row>; writable: Set<number> }> {
  await sql`select id from ${id(rootOf(ctx.entity).name)} where id = any(${[...ids]}::bigint[]) order by id for no key update`.execute(trx)
  return { rows: await findRows(ctx, trx, ids, { labels: false }), writable: await writableIds(ctx, trx, ids) }
}

/** References of each record checked as `checkReferences` does one's, with one query per target for the whole batch. */
async function referenceErrors(ctx: EngineCtx, trx: Trx, records: readonly Values[]): Promise<Array<Record<string, Message[]> | undefined>> {
  const { entity, registry } = ctx
  const wanted = records.map((values) => {
    const byTarget = new Map<string, Array<{ key: string; id: number }>>()
    for (const name of entity.fieldNames) {
      const field = entity.fields[name]!
      const value = values[name]
      if (!field.ref || value === undefined || value === null) continue
      const target = refTarget(registry, entity, name).name
      const list = byTarget.get(target) ?? []
      for (const rowId of field.kind === 'refs' ? (value as number[]) : [value as number]) list.push({ key: name, id: rowId })
      byTarget.set(target, list)
    }
    return byTarget
  })
  const known = new Map<string, Map<number, boolean>>()
  for (const target of new Set(wanted.flatMap((w) => [...w.keys()]))) {
    const ids = [...new Set(wanted.flatMap((w) => (w.get(target) ?? []).map((r) => r.id)))]
    const hasTrash = registry.find((e) => e.name === target)?.trash !== undefined
    const found = await sql<{ id: number; trashed: boolean }>`select id, ${hasTrash ? sql`deleted_at is not null` : sql`false`} as trashed
      from ${id(target)} where id = any(${ids}::bigint[])`.execute(trx)
    known.set(target, new Map(found.rows.map((r) => [Number(r.id), r.trashed])))
  }
  return wanted.map((byTarget) => {
    const errors: Record<string, Message[]> = {}
    for (const [target, refs] of byTarget) {
      const targetEntity = registry.find((e) => e.name === target)
      for (const r of refs) {
        const trashed = known.get(target)!.get(r.id)
        if (trashed === undefined) (errors[r.key] ??= []).push({ key: 'validation.ref_missing', params: { value: r.id } })
        else if (trashed) (errors[r.key] ??= []).push({ key: 'validation.ref_trashed', params: { entity: targetEntity!.labelKey, value: r.id } })
      }
    }
    return Object.keys(errors).length > 0 ? errors : undefined
  })
}

/** A record's name (rowLabel) from a row read without `_labels`: a label that is a reference is read as `findRow` reads it. */
export async function recordLabel(ctx: EngineCtx, db: Executor, rowId: number, row: Row | undefined): Promise<string> {
  const isRef = ctx.entity.fields[ctx.entity.labelField]?.kind === 'ref'
  return rowLabel(ctx.entity, rowId, isRef && row && !(LABELS in row) ? await read(ctx, db, rowId) : row)
}

/**
 * Locks the batch's rows (in id order, as one update after another would) and judges each
 * record as its update would, in the same order of checks; nothing is written. `ctx.db` is the
 * transaction. A record's refusal is named as the one-by-one change names it.
 */
export async function judgeBatch(ctx: EngineCtx, trx: Trx, changes: readonly Change[]): Promise<Judged> {
  const { entity } = ctx
  const { rows, writable } = await lockRows(ctx, trx, changes.map((c) => c.id))
  const refusals: Judged['refusals'] = []
  const refuse = async (index: number, e: unknown) => {
    const fields = refusalOf(e)
    if (!fields) throw e
    const rowId = changes[index]!.id
    // A record out of the caller's reach is named by its id alone: its name is not theirs to read.
    refusals.push({ id: rowId, index, refusal: { label: e instanceof NotFoundError ? `#${rowId}` : await recordLabel(ctx, trx, rowId, rows.get(rowId)), fields } })
  }
  // Up to the reference checks: each record on its own.
  const judged: Array<{ index: number; before: Row; values: Values; given: Values }> = []
  for (const [index, change] of changes.entries()) {
    try {
      authorize(ctx, 'UPDATE', change.id)
      const input = ownInput(ctx, fromClient(ctx, { ...change.values }), 'update')
      const before = rows.get(change.id)
      if (!before || !writable.has(change.id)) throw notFound(entity, change.id)
      const { given, values } = await judgeChange(ctx, trx, change.id, before, input)
      judged.push({ index, before, values, given })
    } catch (e) {
      await refuse(index, e)
    }
  }
  // The references of them all at once; then the rest of the update's checks, each record on its own.
  const referenceRefusals = await referenceErrors(ctx, trx, judged.map((j) => j.values))
  const prepared: Prepared[] = []
  for (const [k, { index, before, values, given }] of judged.entries()) {
    const rowId = changes[index]!.id
    try {
      if (referenceRefusals[k]) throw new ValidationError(referenceRefusals[k]!)
      await checkChange(ctx, trx, before, values, given)
      prepared.push({ id: rowId, index, before, values })
    } catch (e) {
      await refuse(index, e)
    }
  }
  refusals.sort((a, b) => a.index - b.index)
  return { prepared, refusals }
}

/** A column's value as json_populate_recordset reads it into the table's own type: a JSON field as its JSON. */
function columnValues(entity: Entity<string, Fields>, values: Values): Values {
  const columns = columnsOf(entity, values, entity.fieldNames)
  for (const name of Object.keys(columns)) if (entity.fields[name]!.kind === 'json' && values[name] !== null) columns[name] = values[name]
  return columns
}

/**
 * Writes judged records as their updates would: their columns (one UPDATE per set of columns,
 * each value cast by the table's own column type), their many-to-many links, then their audit
 * entries from what was stored — one per record that changed, in the batch's order, with the
 * request's source and batch.
 */
export async function writeBatch(ctx: EngineCtx, trx: Trx, prepared: readonly Prepared[]): Promise<void> {
  if (prepared.length === 0) return
  const { entity, actor } = ctx
  const table = entity.name
  const groups = new Map<string, Values[]>()
  for (const p of prepared) {
    const columns = columnValues(entity, p.values)
    const key = Object.keys(columns).sort().join(',')
    groups.set(key, [...(groups.get(key) ?? []), { ...columns, id: p.id }])
  }
  for (const [key, rows] of groups) {
    const names = key === '' ? [] : key.split(',')
    const set = [...names.map((n) => sql`${id(n)} = v.${id(n)}`), sql`updated_by = ${actor?.id ?? null}`, sql`updated_at = now()`]
    await sql`update ${id(table)} as t set ${sql.join(set)}
      from json_populate_recordset(null::${id(table)}, ${JSON.stringify(rows)}::json) as v where t.id = v.id`.execute(trx)
  }
  const ids = prepared.map((p) => p.id)
  for (const name of entity.fieldNames) {
    if (entity.fields[name]!.kind !== 'refs') continue
    const writing = prepared.filter((p) => p.values[name] !== undefined)
    if (writing.length === 0) continue
    const link = linkTable(entity, name)
    await sql`delete from ${id(link)} where owner_id = any(${writing.map((p) => p.id)}::bigint[])`.execute(trx)
    const pairs = writing.flatMap((p) => ((p.values[name] as number[] | null) ?? []).map((target) => [p.id, target] as const))
    if (pairs.length > 0) {
      await sql`insert into ${id(link)} (owner_id, target_id) select unnest(${pairs.map((x) => x[0])}::bigint[]), unnest(${pairs.map((x) => x[1])}::bigint[])`.execute(trx)
    }
  }
  const after = await findRows(ctx, trx, ids, { labels: false })
  const entries = prepared
    .map((p) => ({ id: p.id, changes: auditChanges(entity, p.before, after.get(p.id) ?? null, p.values) }))
    .filter((e) => Object.keys(e.changes).length > 0)
  if (entries.length === 0) return
  const { source: from, batch } = currentAuditScope()
  await sql`insert into audit_log (actor, entity, entity_id, action, changes, source, batch)
    select ${actor?.id ?? null}, ${table}, (e.value->>'id')::bigint, 'update', (e.value->'changes')::jsonb, ${from ?? null}, ${batch ?? null}::uuid
    from json_array_elements(${JSON.stringify(entries)}::json) with ordinality as e(value, n) order by e.n`.execute(trx)
}
