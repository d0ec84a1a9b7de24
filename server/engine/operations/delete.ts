import { sql } from 'kysely'
import { isBuiltInRow, rootOf, type Entity, type Fields, type Message } from '../../../schema/kit'
import type { Row, Trx } from '../../db/types'
import { asSystem, authorize, type EngineCtx } from '../access'
import { writeAudit } from '../audit'
import { impactOf, referencesTo, type ImpactItem, type Reference } from '../delete-impact'
import { ConflictError, NotFoundError } from '../errors'
import { source, type Registry } from '../list-query'
import { modelName } from '../validate'
import { builtInRefusal, runAfter, runBefore } from './hooks-run'
import { deleteLine, lineCtx } from './lines'
import { isInScope, lockRow, notFound } from './read'
import { auditChanges, type LineRow } from './rows'
import { inTransaction, pgError } from './transaction'
import { refuseLocked } from './workflow'
import { ownedMessage, ownerImpact, ownerOfAny, refuseOwned } from './owned'
import { moveToTrash, type TrashErrors } from '../trash-move'
import { currentAuditScope, inAuditBatch } from '../audit-scope'
import { randomUUID } from 'node:crypto'

/**
 * Deletes: a row with what goes with it — a document's lines, the rows whose reference
 * cascades — each through the engine (hooks, audit entry, files), deepest first; refused
 * in the contract's words when rows still refer to it.
 */

/** The entity whose rows refused a delete (a line's document, for a document's line), from the database's error. */
function referencedBy(registry: Registry, e: unknown): { model: string; labelKey?: string } | undefined {
  const err = pgError(e)
  // 23503: foreign_key_violation (NO ACTION); 23001: restrict_violation (ON DELETE RESTRICT).
  if (err.code !== '23503' && err.code !== '23001') return undefined
  const table = err.table ?? /from table "([^"]+)"/.exec(err.detail ?? '')?.[1]
  const other = table ? registry.find((x) => x.name === table) : undefined
  const shown = other?.lineOf ? (registry.find((x) => x.name === other.lineOf) ?? other) : other
  return other ? { model: modelName(other), labelKey: shown!.labelKey } : { model: table ?? 'another record' }
}

/** What refuses a delete: the kind of record referring (its model for the contract, its label key for the screens), how many, and the record's name. */
type Referrer = { model: string; labelKey?: string; count?: number; name?: string }

/**
 * The contract's words for a delete (api-contract §2.1), as messages: English exactly as the
 * contract writes them (`<Model> id - 5 is deleted successfully`), other languages with the
 * screens' name of the entity. `target`: one record (`delete/{id}`), or a selection
 * (`delete_multiple/`, which speaks of `ids - [...]` even for one).
 */
export const deleteMessage = (entity: Entity<string, Fields>, target: number | readonly number[], what: 'deleted' | 'refused' | 'missing', other?: Referrer): Message => {
  const isMany = typeof target !== 'number'
  const params: Record<string, string | number> = { model: modelName(entity), entity: entity.labelKey, label: `${entity.labelKey}.other` }
  if (isMany) params.ids = target.join(', ')
  else params.id = target
  // A refusal names the record as the screens do ('Gazipur', else #5) and how many refer to it.
  params.name = other?.name === undefined ? `#${isMany ? target.join(', #') : target}` : `'${other.name}'`
  if (other) Object.assign(params, { other: other.model, label: other.labelKey ? `${other.labelKey}.other` : other.model }, other.count === undefined ? {} : { count: other.count })
  const many = isMany ? '_many' : ''
  // Not `delete_refused_many`: with a count, i18next reads `_many` as a plural form (Arabic has one).
  if (what === 'refused') return { key: isMany ? 'detail.delete_refused_several' : 'detail.delete_refused', params }
  return { key: `detail.${what === 'deleted' ? 'delete_done' : 'delete_missing'}${many}`, params }
}

/**
 * Deletes the root row (an entity's own row goes with its parent's), a document's lines first,
 * each through the line's hooks and audit, and the rows that cascade with it through the
 * engine too (their hooks, audit entries and files, deepest first), not by the database alone.
 */
export async function deleteOne(trx: Trx, ctx: EngineCtx, rowId: number, auditAs: 'delete' | 'purge' = 'delete'): Promise<void> {
  const before = await lockRow(ctx, trx, rowId, 'delete')
  refuseLocked(ctx, before)
  await refuseOwned(ctx, trx, before)
  await runBefore(ctx, trx, 'delete', before, null)
  for (const field of ctx.entity.linesFieldNames) {
    const lc = lineCtx(ctx, trx, ctx.entity, field)
    for (const line of before[field] as LineRow[]) await deleteLine(lc, line)
  }
  for (const child of referencesTo(ctx.registry, ctx.entity)) {
    if (child.effect !== 'delete') continue
    const rows = await sql<{ id: number }>`select id from ${sql.id(child.table)} where ${sql.ref(child.column)} = ${rowId} and id <> ${rowId} order by id`.execute(trx)
    // The parent's delete was allowed: what goes with it is the system's doing, as the database's cascade would be.
    const childCtx = asSystem(ctx, child.shownAs, trx)
    for (const { id: childId } of rows.rows) {
      // A row an earlier cascade of this delete took (a sub category's own sub category) is gone already.
      const isGone = (await sql`select 1 from ${sql.id(child.table)} where id = ${childId}`.execute(trx)).rows.length === 0
      if (!isGone) await deleteOne(trx, childCtx, Number(childId))
    }
  }
  for (const ref of referencesTo(ctx.registry, ctx.entity)) if (ref.effect === 'clear' && !ref.isAuthor) await clearReference(trx, ctx, ref, rowId)
  await sql`delete from ${sql.id(rootOf(ctx.entity).name)} where id = ${rowId}`.execute(trx)
  await writeAudit(trx, { actor: ctx.actor, entity: ctx.entity.name, entityId: rowId, action: auditAs, changes: auditChanges(ctx.entity, before, null, null) })
  await runAfter(ctx, trx, 'delete', rowId, before, null)
}

/**
 * A reference the registry clears with the row it names (`onDelete: 'setNull'`: a deleted
 * category's products), cleared by the engine before the database would: each cleared row is
 * changed by the caller, now, with its audit entry. Hooks do not run: the clear is the
 * registry's own rule, and a hook could not refuse it. A row's authors (`created_by`) are the
 * database's to clear: no field of the registry's, they have no audit entry.
 */
async function clearReference(trx: Trx, ctx: EngineCtx, ref: Reference, rowId: number): Promise<void> {
  const others = ref.isSameTable ? sql` and id <> ${rowId}` : sql``
  const cleared = await sql<{ id: number }>`update ${sql.id(ref.table)} set ${sql.ref(ref.column)} = null where ${sql.ref(ref.column)} = ${rowId}${others} returning id`.execute(trx)
  const ids = cleared.rows.map((r) => Number(r.id))
  if (ids.length === 0) return
  await sql`update ${sql.id(rootOf(ref.referring).name)} set updated_at = now(), updated_by = ${ctx.actor?.id ?? null} where id = any(${ids}::bigint[])`.execute(trx)
  if (ref.referring.fields[ref.column]?.isAudited === false) return
  for (const id of ids) await writeAudit(trx, { actor: ctx.actor, entity: ref.referring.name, entityId: id, action: 'update', changes: { [ref.column]: [rowId, null] } })
}

/**
 * A delete's transaction: a reference that still holds the rows refuses it, saying which kind
 * of record refers to them and — counted once the transaction has failed, unless it is part
 * of a larger one — how many, and the record's name.
 */
export async function deleting<T>(ctx: EngineCtx, target: number | number[], work: (trx: Trx) => Promise<T>): Promise<T> {
  let referrer: Referrer | undefined
  try {
    return await inTransaction(ctx, work, {
      mapError: (e) => {
        referrer = referencedBy(ctx.registry, e)
        return referrer ? new ConflictError(deleteMessage(ctx.entity, target, 'refused', referrer)) : undefined
      },
    })
  } catch (e) {
    if (!referrer || ctx.db.isTransaction) throw e
    const ids = typeof target === 'number' ? [target] : target
    const refusing = (await impactOf(ctx.db, ctx.registry, ctx.entity, ids)).find((i) => i.effect === 'refuse')
    // A row in the Trash is named too (its delete for good, a purge, is refused the same way).
    const named = typeof target === 'number' ? await sql<Row>`select * from ${source(ctx.entity, 'all')} t where id = ${target}`.execute(ctx.db) : undefined
    const label = named?.rows[0]?.[ctx.entity.labelField]
    throw new ConflictError(deleteMessage(ctx.entity, target, 'refused', { ...referrer, count: refusing?.count, name: typeof label === 'string' && label !== '' ? label : undefined }))
  }
}

/**
 * A delete of an entity with a Trash moves its rows there (trash-move.ts), refused in the
 * words a delete uses; its audit entries are one batch — the request's, else one of its own —
 * which a restore (the Undo) names.
 */
async function trashing(ctx: EngineCtx, target: number | number[]): Promise<void> {
  const errors: TrashErrors = {
    missing: (ids) => (typeof target === 'number' ? notFound(ctx.entity, target) : new NotFoundError(deleteMessage(ctx.entity, ids, 'missing'))),
    refused: (refusal) => new ConflictError(deleteMessage(ctx.entity, target, 'refused', refusal)),
  }
  const work = () => inTransaction(ctx, (trx) => moveToTrash(ctx, trx, typeof target === 'number' ? [target] : target, errors))
  await (currentAuditScope().batch ? work() : inAuditBatch(randomUUID(), work))
}

/** Deletes one row; answers the contract's message (rendered in the request's language by the route). */
export async function deleteRow(ctx: EngineCtx, rowId: number): Promise<Message> {
  authorize(ctx, 'DELETE', rowId)
  if (ctx.entity.trash) await trashing(ctx, rowId)
  else await deleting(ctx, rowId, (trx) => deleteOne(trx, ctx, rowId))
  return deleteMessage(ctx.entity, rowId, 'deleted')
}

export async function deleteRows(ctx: EngineCtx, ids: number[]): Promise<Message> {
  authorize(ctx, 'DELETE')
  const unique = [...new Set(ids)]
  if (ctx.entity.trash) {
    await trashing(ctx, unique)
    return deleteMessage(ctx.entity, unique, 'deleted')
  }
  await deleting(ctx, unique, async (trx) => {
    const found = await sql<{ id: number }>`select id from ${source(ctx.entity)} t where id = any(${unique}::bigint[])`.execute(trx)
    const have = new Set(found.rows.map((r) => r.id))
    const missing = unique.filter((i) => !have.has(i))
    if (missing.length > 0) throw new NotFoundError(deleteMessage(ctx.entity, missing, 'missing'))
    for (const rowId of unique) {
      // A row that an earlier one of the selection took with it (a cascade: a menu item's children, a category's sub categories) is gone already.
      const isGone = (await sql`select 1 from ${source(ctx.entity)} t where id = ${rowId}`.execute(trx)).rows.length === 0
      if (!isGone) await deleteOne(trx, ctx, rowId)
    }
  })
  return deleteMessage(ctx.entity, unique, 'deleted')
}

export type DeleteImpact = { ids: number[]; can_delete: boolean; references: ImpactItem[]; detail?: Message }

/**
 * What deleting these rows would do, before anything is done (the delete's confirmation
 * asks it): for each kind of row that refers to them, how many, and whether the delete is
 * refused, clears their reference, deletes them too or unlinks them. The caller needs the
 * entity's DELETE permission; a row they cannot reach is not found.
 */
export async function deleteImpact(ctx: EngineCtx, target: number | number[]): Promise<DeleteImpact> {
  authorize(ctx, 'DELETE', typeof target === 'number' ? target : undefined)
  const unique = typeof target === 'number' ? [target] : [...new Set(target)]
  const found = await sql<Row>`select * from ${source(ctx.entity)} t where id = any(${unique}::bigint[])`.execute(ctx.db)
  const have = new Set(found.rows.map((r) => Number(r.id)))
  for (const rowId of unique) {
    if (!have.has(rowId) || !(await isInScope(ctx, ctx.db, rowId))) {
      throw typeof target === 'number' ? notFound(ctx.entity, rowId) : new NotFoundError(deleteMessage(ctx.entity, [rowId], 'missing'))
    }
  }
  // A document another record posted is refused before anything refers to it (owned.ts).
  const owner = await ownerOfAny(ctx, ctx.db, unique)
  // Rows that go to a Trash are held back by live rows alone (a trashed one may keep its reference).
  const references = [...(owner ? [ownerImpact(owner)] : []), ...(await impactOf(ctx.db, ctx.registry, ctx.entity, unique, { live: ctx.entity.trash !== undefined }))]
  const refusing = references.find((r) => r.effect === 'refuse')
  const other = refusing ? ctx.registry.find((e) => e.name === refusing.entity) : undefined
  // A built-in row is refused whatever refers to it, in the words the delete itself would use.
  const builtIn = found.rows.find((row) => isBuiltInRow(ctx.entity, row))
  const detail = owner
    ? ownedMessage(ctx.entity, owner)
    : builtIn
      ? builtInRefusal(ctx.entity, builtIn)
      : other
        ? deleteMessage(ctx.entity, typeof target === 'number' ? target : unique, 'refused', {
            model: modelName(other),
            labelKey: other.labelKey,
            count: refusing!.count,
            name: typeof target === 'number' && typeof found.rows[0]?.[ctx.entity.labelField] === 'string' ? (found.rows[0]![ctx.entity.labelField] as string) || undefined : undefined,
          })
        : undefined
  return { ids: unique, can_delete: refusing === undefined && builtIn === undefined, references, ...(detail ? { detail } : {}) }
}
