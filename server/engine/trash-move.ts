import { sql } from 'kysely'
import { isBuiltInRow, rootOf, storageOf, type Entity, type Fields } from '../../schema/kit'
import type { Row, Trx } from '../db/types'
import { asSystem, type EngineCtx } from './access'
import { writeAudit, type Changes } from './audit'
import { impactOf, referencesTo, type Reference } from './delete-impact'
import { BusinessError } from './errors'
import { findRow } from './list-query'
import { builtInRefusal } from './operations/hooks-run'
import { isInScope } from './operations/read'
import { auditChanges } from './operations/rows'
import { modelName } from './validate'

/**
 * A delete of an entity with a Trash (EntityConfig.trash): its rows stay, marked `deleted_at`
 * and `deleted_by`, and every read leaves them out. What a delete would do to the rows that
 * refer to them happens as it would — refused while live rows refer (`restrict`), their
 * reference cleared (`setNull`), many-to-many links removed, rows that cascade moved to the
 * Trash with them — each change audited in the delete's batch, so that a restore puts back
 * what the delete took (trash.ts). Nothing live points into the Trash afterwards. The row's
 * files and the domain's delete hooks wait for the delete for good (a purge).
 */

/** Why live rows refuse the move: the kind of record referring, how many, and the record's name. */
export type TrashRefusal = { model: string; labelKey: string; count: number; name?: string }

export type TrashErrors = {
  /** Ids of the entity that are not there to delete (unknown, already in the Trash, or outside the caller's scope). */
  missing: (ids: number[]) => Error
  refused: (refusal: TrashRefusal) => Error
}

/** The rows moved, by entity: those asked for and those that went with them. */
type Moving = Map<string, { entity: Entity<string, Fields>; rows: Map<number, Row> }>

const id = sql.id

/** Whether the rows of a reference's table are themselves rows that may wait in a Trash (then only live ones count). */
const holdsTrash = (r: Reference): boolean => r.referring.trash !== undefined && !r.referring.parent && r.table === r.referring.name

export async function moveToTrash(ctx: EngineCtx, trx: Trx, ids: readonly number[], errors: TrashErrors): Promise<void> {
  const entity = ctx.entity
  const unique = [...new Set(ids)]
  const locked = await sql<{ id: number }>`select id from ${id(entity.name)} where id = any(${unique}::bigint[]) and deleted_at is null order by id for update`.execute(trx)
  const found = new Set(locked.rows.map((r) => Number(r.id)))
  const outside: number[] = []
  for (const rowId of unique) if (!found.has(rowId) || !(await isInScope(ctx, trx, rowId))) outside.push(rowId)
  if (outside.length > 0) throw errors.missing(outside)

  const moving: Moving = new Map()
  await gather(ctx, trx, entity, unique, moving)

  const actor = ctx.actor?.id ?? null
  for (const { entity: e, rows } of moving.values()) {
    await sql`update ${id(e.name)} set deleted_at = now(), deleted_by = ${actor} where id = any(${[...rows.keys()]}::bigint[])`.execute(trx)
    for (const [rowId, before] of rows) await writeAudit(trx, { actor: ctx.actor, entity: e.name, entityId: rowId, action: 'delete', changes: auditChanges(e, before, null, null) })
  }
  // Counted once they are in the Trash: a row that went with them no longer refers.
  for (const { entity: e, rows } of moving.values()) {
    const impact = await impactOf(trx, ctx.registry, e, [...rows.keys()], { live: true })
    const refusing = impact.find((i) => i.effect === 'refuse' || (i.effect === 'delete' && !ctx.registry.find((x) => x.name === i.entity)?.trash))
    if (!refusing) continue
    const other = ctx.registry.find((x) => x.name === refusing.entity)!
    const label = unique.length === 1 ? moving.get(entity.name)!.rows.get(unique[0]!)?.[entity.labelField] : undefined
    throw errors.refused({ model: modelName(other), labelKey: other.labelKey, count: refusing.count, ...(typeof label === 'string' && label !== '' ? { name: label } : {}) })
  }
  for (const { entity: e, rows } of moving.values()) {
    for (const r of referencesTo(ctx.registry, e)) {
      if (r.isAuthor) continue
      if (r.effect === 'clear') await clearLive(ctx, trx, r, [...rows.keys()])
      else if (r.effect === 'unlink' && r.table !== r.referring.name && !r.referring.isLine) await unlinkLive(ctx, trx, r, [...rows.keys()])
    }
  }
}

/**
 * The rows that move with these: each read as its history keeps it, built-in ones refused,
 * and those a reference deletes with them (`onDelete: 'cascade'`: a category's sub
 * categories) added — the registry check makes sure such rows have a Trash too.
 */
async function gather(ctx: EngineCtx, trx: Trx, entity: Entity<string, Fields>, ids: readonly number[], moving: Moving): Promise<void> {
  let entry = moving.get(entity.name)
  if (!entry) moving.set(entity.name, (entry = { entity, rows: new Map() }))
  const added: number[] = []
  for (const rowId of ids) {
    if (entry.rows.has(rowId)) continue
    const before = await findRow(trx, entity, rowId, ctx.registry)
    if (!before) continue
    if (isBuiltInRow(entity, before)) throw new BusinessError(builtInRefusal(entity, before))
    entry.rows.set(rowId, before)
    added.push(rowId)
  }
  if (added.length === 0) return
  for (const r of referencesTo(ctx.registry, entity)) {
    if (r.effect !== 'delete' || !holdsTrash(r)) continue
    const taken = [...(moving.get(r.referring.name)?.rows.keys() ?? [])]
    const children = await sql<{ id: number }>`select id from ${id(r.table)} where ${id(r.column)} = any(${added}::bigint[]) and deleted_at is null
      and id <> all(${taken}::bigint[]) order by id for update`.execute(trx)
    if (children.rows.length > 0) await gather(asSystem(ctx, r.referring, trx), trx, r.referring, children.rows.map((c) => Number(c.id)), moving)
  }
}

/** Touches the rows a move changed, as any change of theirs would (their form, open elsewhere, then knows it is stale). */
async function touch(ctx: EngineCtx, trx: Trx, entity: Entity<string, Fields>, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await sql`update ${id(rootOf(entity).name)} set updated_at = now(), updated_by = ${ctx.actor?.id ?? null} where id = any(${[...ids]}::bigint[])`.execute(trx)
}

/** A reference the registry clears with the row it names, cleared for the live rows that hold it; each change audited in the batch. */
async function clearLive(ctx: EngineCtx, trx: Trx, r: Reference, ids: readonly number[]): Promise<void> {
  const live = holdsTrash(r) ? sql` and deleted_at is null` : sql``
  const holding = await sql<{ id: number; was: number }>`select id, ${id(r.column)} as was from ${id(r.table)}
    where ${id(r.column)} = any(${[...ids]}::bigint[])${live} order by id for update`.execute(trx)
  if (holding.rows.length === 0) return
  const rowIds = holding.rows.map((h) => Number(h.id))
  await sql`update ${id(r.table)} set ${id(r.column)} = null where id = any(${rowIds}::bigint[])`.execute(trx)
  await touch(ctx, trx, r.referring, rowIds)
  if (r.referring.fields[r.column]?.isAudited === false) return
  for (const row of holding.rows) await writeAudit(trx, { actor: ctx.actor, entity: r.referring.name, entityId: Number(row.id), action: 'update', changes: { [r.column]: [Number(row.was), null] } })
}

/** Many-to-many links to the rows removed from their live owners (a product's colours), each owner's change audited in the batch. */
async function unlinkLive(ctx: EngineCtx, trx: Trx, r: Reference, ids: readonly number[]): Promise<void> {
  const owner = r.referring
  const live = owner.trash && !owner.parent ? sql` and exists (select 1 from ${id(owner.name)} o where o.id = owner_id and o.deleted_at is null)` : sql``
  const owners = await sql<{ owner_id: number; before: number[] }>`
    select owner_id, array_agg(target_id order by target_id) as before from ${id(r.table)}
    where owner_id in (select owner_id from ${id(r.table)} where target_id = any(${[...ids]}::bigint[])${live}) group by owner_id order by owner_id`.execute(trx)
  if (owners.rows.length === 0) return
  const ownerIds = owners.rows.map((o) => Number(o.owner_id))
  await sql`delete from ${id(r.table)} where target_id = any(${[...ids]}::bigint[]) and owner_id = any(${ownerIds}::bigint[])`.execute(trx)
  await touch(ctx, trx, owner, ownerIds)
  if (owner.fields[r.field]?.isAudited === false) return
  const gone = new Set(ids)
  for (const o of owners.rows) {
    const before = o.before.map(Number)
    const changes: Changes = { [r.field]: [before, before.filter((t) => !gone.has(t))] }
    await writeAudit(trx, { actor: ctx.actor, entity: owner.name, entityId: Number(o.owner_id), action: 'update', changes })
  }
}

/** The table that stores a reference field of an entity (its parent's, for an inherited one). */
export const tableOfField = (entity: Entity<string, Fields>, field: string): string => storageOf(entity, field).name
