import { sql } from 'kysely'
import { rootOf, type Entity, type Fields } from '../../../schema/kit'
import type { Executor, Row, Trx } from '../../db/types'
import { authorize, scopeOf, type EngineCtx, type ScopePurpose } from '../access'
import { NotFoundError } from '../errors'
import { findRow, listRows, listTotal, type Filter, type ListQuery, type ListResult } from '../list-query'
import { modelName } from '../validate'
import { runAfterRead } from './hooks-run'

/** Reads for a caller: their permission (or their own row), their row scope, then the entity's after-read hooks. */

export const notFound = (entity: Entity<string, Fields>, rowId: number | string) =>
  new NotFoundError({ key: 'detail.not_found', params: { model: modelName(entity), entity: entity.labelKey, id: String(rowId) } })

export const read = (ctx: EngineCtx, db: Executor, rowId: number) => findRow(db, ctx.entity, rowId, ctx.registry)

/** Whether the row is within the caller's scope (always, without one): to read it, or to write it (access.ts ScopePurpose). */
export async function isInScope(ctx: EngineCtx, db: Executor, rowId: number, purpose: ScopePurpose = 'write'): Promise<boolean> {
  const scope = scopeOf(ctx, purpose)
  if (scope.length === 0) return true
  const { rows } = await listRows(db, ctx.entity, { filters: [{ field: 'id', op: 'equals', value: rowId }, ...scope], ordering: 'id' }, ctx.registry)
  return rows.length > 0
}

/** One record for the caller: their permission (or their own row), their scope, then the entity's after-read hooks. */
export async function readRow(ctx: EngineCtx, rowId: number): Promise<Row> {
  authorize(ctx, 'DETAILS', rowId)
  const row = await read(ctx, ctx.db, rowId)
  if (!row || !(await isInScope(ctx, ctx.db, rowId, 'read'))) throw notFound(ctx.entity, rowId)
  await runAfterRead(ctx, [row], 'record')
  return row
}

/** A list for the caller: `filters` within their scope. */
export async function readList(ctx: EngineCtx, query: ListQuery): Promise<ListResult> {
  authorize(ctx, 'LIST')
  const result = await listRows(ctx.db, ctx.entity, { ...query, filters: [...query.filters, ...scopeOf(ctx, 'read')] }, ctx.registry, ctx.hooks)
  await runAfterRead(ctx, result.rows, 'list')
  return result
}

/** How many records the caller's list totals (its `total_elements`), without a page: their permission, their scope. */
export async function countList(ctx: EngineCtx, filters: readonly Filter[] = []): Promise<number> {
  authorize(ctx, 'LIST')
  return listTotal(ctx.db, ctx.entity, [...filters, ...scopeOf(ctx, 'read')], ctx.registry)
}

/**
 * Locks the row (its root table's row, for an entity that extends another) and reads it; a
 * row outside the caller's scope is not found. A change keeps the row's key, so it takes the
 * lock that lets others' references to the row be checked meanwhile (`for no key update`):
 * two moves in one tree, each checking its new parent's key while holding its own row, would
 * otherwise deadlock. A delete takes the row whole.
 */
export async function lockRow(ctx: EngineCtx, trx: Trx, rowId: number, purpose: 'change' | 'delete' = 'change'): Promise<Row> {
  await sql`select id from ${sql.id(rootOf(ctx.entity).name)} where id = ${rowId} ${purpose === 'delete' ? sql`for update` : sql`for no key update`}`.execute(trx)
  // A delete for good reaches a row in the Trash (a purge, and what goes with it); a change never does.
  const row = purpose === 'delete' ? await findRow(trx, ctx.entity, rowId, ctx.registry, 'all') : await read(ctx, trx, rowId)
  if (!row || !(await isInScope(ctx, trx, rowId))) throw notFound(ctx.entity, rowId)
  return row
}

/** The record a write answers with, as a read of it would be (the after-read hooks add theirs). */
export async function answer(ctx: EngineCtx, trx: Trx, row: Row): Promise<Row> {
  await runAfterRead({ ...ctx, db: trx }, [row], 'record')
  return row
}

/** Filters of an entity's row scope, for domain code that lists rows itself. */
export const scopeFilters = (ctx: EngineCtx): Filter[] => scopeOf(ctx)
