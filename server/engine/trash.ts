import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { hasComputed, rootOf, withComputed, type Entity, type Fields, type Message } from '../../schema/kit'
import type { Executor, Row, Trx } from '../db/types'
import { asSystem, authorize, scopeOf, type EngineCtx } from './access'
import { writeAudit } from './audit'
import { inAuditBatch } from './audit-scope'
import { ConflictError, NotFoundError } from './errors'
import { linkTable, listColumns, source, whereClause, type Filter } from './list-query'
import { deleteOne, deleting } from './operations/delete'
import { runAfterRead } from './operations/hooks-run'
import { inTransaction } from './operations/transaction'
import { tableOfField } from './trash-move'

/**
 * The Trash of an entity (EntityConfig.trash), beside its delete (trash-move.ts): its rows
 * listed with when and by whom they were deleted, restored — by ids, or by the batch of the
 * delete that put them there (the list's Undo) — and deleted for good (a purge: the engine's
 * delete, with its reference checks, hooks and files). Each a transaction of its own.
 */

const id = sql.id

/** A row of the Trash's list: the list's columns, and when and by whom (their e-mail) it was deleted. */
export type TrashPage = { rows: Row[]; page: number; size: number; totalPages: number; total: number }

/** The Trash's rows for the caller (within their row scope), newest first; `q` as the list's search. */
export async function listTrash(ctx: EngineCtx, query: { q?: string; page: { page: number; size: number } }): Promise<TrashPage> {
  authorize(ctx, 'DELETE')
  const { entity, registry } = ctx
  const filters: Filter[] = [...(query.q ? [{ op: 'search' as const, value: query.q }] : []), ...scopeOf(ctx)]
  const where = whereClause(registry, entity, 't', filters)
  const counted = await sql<{ n: number }>`select count(*) as n from ${source(entity, 'trashed')} t ${where}`.execute(ctx.db)
  const total = Number(counted.rows[0]?.n ?? 0)
  const { size } = query.page
  const totalPages = Math.max(1, Math.ceil(total / size))
  const page = Math.min(query.page.page, totalPages)
  const { columns, joins } = listColumns(registry, entity, 'p')
  const r = await sql<Row>`
    with p as (
      select * from ${source(entity, 'trashed')} t ${where}
      order by t.deleted_at desc, t.id desc limit ${size} offset ${(page - 1) * size}
    )
    select ${sql.join(columns)}, p.deleted_at, du.email as deleted_by from p ${sql.join(joins, sql` `)}
    left join "user" du on du.id = p.deleted_by
    order by p.deleted_at desc, p.id desc`.execute(ctx.db)
  const rows = hasComputed(entity, 'virtual') ? r.rows.map((row) => withComputed(entity, row, 'virtual') as Row) : r.rows
  await runAfterRead(ctx, rows, 'list')
  return { rows, page, size, totalPages, total }
}

/** The ids of the entity's rows in the Trash among `ids`, within the caller's scope, locked. */
async function trashedOf(ctx: EngineCtx, trx: Trx, entity: Entity<string, Fields>, ids: readonly number[]): Promise<number[]> {
  const scope = whereClause(ctx.registry, entity, 't', [{ field: 'id', op: 'in', values: [...ids] }, ...scopeOf({ ...ctx, entity })])
  await sql`select id from ${id(entity.name)} where id = any(${[...ids]}::bigint[]) and deleted_at is not null order by id for update`.execute(trx)
  const found = await sql<{ id: number }>`select t.id from ${source(entity, 'trashed')} t ${scope} order by t.id`.execute(trx)
  return found.rows.map((r) => Number(r.id))
}

const missing = (entity: Entity<string, Fields>, ids: readonly number[]) => new NotFoundError({ key: 'detail.trash_missing', params: { label: `${entity.labelKey}.other`, ids: ids.join(', ') } })

/** How a row is named in a refusal: its label quoted, or its id. */
async function nameOf(db: Executor, entity: Entity<string, Fields>, rowId: number): Promise<string> {
  const r = await sql<Row>`select * from ${source(entity, 'all')} t where t.id = ${rowId}`.execute(db)
  const label = r.rows[0]?.[entity.labelField]
  return typeof label === 'string' && label !== '' ? `'${label}'` : `#${rowId}`
}

export type RestoreTarget = { ids: readonly number[] } | { batch: string }

/**
 * Restores rows from the Trash, in one transaction: by ids (of this entity), or by the batch
 * of a delete (every row it put in the Trash: the Undo), with the references that delete
 * cleared and the links it removed, where nothing has taken their place since. Refused (409)
 * when a value that must be unique is taken meanwhile, or when a row it refers to is itself in
 * the Trash. The caller needs the DELETE permission of every entity the rows are of.
 */
export async function restoreRows(ctx: EngineCtx, target: RestoreTarget): Promise<{ message: Message; ids: number[] }> {
  authorize(ctx, 'DELETE')
  const restore = () =>
    inTransaction(ctx, async (trx) => {
      const { rows, batches } = 'batch' in target ? await ofBatch(ctx, trx, target.batch) : await ofIds(ctx, trx, target.ids)
      for (const [name, ids] of rows) await refuseTaken(trx, entityOf(ctx, name), ids, rows)
      for (const [name, ids] of rows) await sql`update ${id(name)} set deleted_at = null, deleted_by = null where id = any(${ids}::bigint[])`.execute(trx)
      // Judged once all are back: a row may refer to another restored with it.
      for (const [name, ids] of rows) await refuseTrashedReferences(ctx, trx, entityOf(ctx, name), ids)
      for (const [name, ids] of rows) for (const rowId of ids) await writeAudit(trx, { actor: ctx.actor, entity: name, entityId: rowId, action: 'restore', changes: {} })
      await putBack(ctx, trx, batches, rows)
      return rows.get(ctx.entity.name) ?? []
    })
  const ids = await inAuditBatch(randomUUID(), restore)
  return { message: { key: 'detail.restore_done', params: { label: `${ctx.entity.labelKey}.other`, ids: ids.join(', ') } }, ids }
}

const entityOf = (ctx: EngineCtx, name: string): Entity<string, Fields> => ctx.registry.find((e) => e.name === name)!

type Restoring = { rows: Map<string, number[]>; batches: string[] }

/** The rows of this entity asked for, all in the Trash (else 404 naming those that are not), and the batches that put them there. */
async function ofIds(ctx: EngineCtx, trx: Trx, asked: readonly number[]): Promise<Restoring> {
  const ids = [...new Set(asked)]
  const found = new Set(await trashedOf(ctx, trx, ctx.entity, ids))
  const absent = ids.filter((i) => !found.has(i))
  if (absent.length > 0) throw missing(ctx.entity, absent)
  const deletes = await sql<{ batch: string | null }>`
    select distinct on (entity_id) batch from audit_log where entity = ${ctx.entity.name} and entity_id = any(${ids}::bigint[]) and action = 'delete'
    order by entity_id, id desc`.execute(trx)
  return { rows: new Map([[ctx.entity.name, ids.sort((a, b) => a - b)]]), batches: [...new Set(deletes.rows.map((d) => d.batch).filter((b): b is string => b !== null))] }
}

/**
 * What a delete's batch put in the Trash and is there still (a row deleted again since
 * belongs to that later delete): some of this entity's rows at least, else 404. Rows of other
 * entities that went with them (a reference that cascades) come back too, for a caller who
 * may delete those as well.
 */
async function ofBatch(ctx: EngineCtx, trx: Trx, batch: string): Promise<Restoring> {
  const deleted = await sql<{ entity: string; entity_id: number }>`
    select d.entity, d.entity_id from audit_log d where d.batch = ${batch}::uuid and d.action = 'delete'
    and not exists (select 1 from audit_log l where l.entity = d.entity and l.entity_id = d.entity_id and l.action in ('delete', 'restore', 'purge') and l.id > d.id)
    order by d.id`.execute(trx)
  const rows = new Map<string, number[]>()
  for (const d of deleted.rows) {
    const entity = ctx.registry.find((e) => e.name === d.entity)
    if (!entity?.trash) continue
    rows.set(entity.name, [...(rows.get(entity.name) ?? []), Number(d.entity_id)])
  }
  for (const [name, ids] of rows) {
    const other = entityOf(ctx, name)
    if (other !== ctx.entity) authorize({ ...ctx, entity: other }, 'DELETE')
    const trashed = await trashedOf(ctx, trx, other, ids)
    if (trashed.length > 0) rows.set(name, trashed)
    else rows.delete(name)
  }
  if (!rows.has(ctx.entity.name)) throw new NotFoundError({ key: 'detail.restore_batch_missing', params: { label: `${ctx.entity.labelKey}.other` } })
  return { rows, batches: [batch] }
}

/** A value that must be unique and is held now by a row not in the Trash, or by another row restored with it: 409. */
async function refuseTaken(trx: Trx, entity: Entity<string, Fields>, ids: readonly number[], restoring: ReadonlyMap<string, number[]>): Promise<void> {
  const all = restoring.get(entity.name) ?? []
  for (const name of entity.fieldNames.filter((n) => entity.fields[n]!.isUnique && entity.fields[n]!.sql !== undefined)) {
    const within = entity.fields[name]!.uniqueWithin
    const sameWithin = within ? sql` and o.${id(within)} = r.${id(within)}` : sql``
    const taken = await sql<{ id: number; value: unknown }>`
      select r.id, r.${id(name)} as value from ${id(entity.name)} r where r.id = any(${[...ids]}::bigint[]) and r.${id(name)} is not null
      and exists (select 1 from ${id(entity.name)} o where o.id <> r.id and o.${id(name)} = r.${id(name)}${sameWithin}
        and (o.deleted_at is null or o.id = any(${all}::bigint[])))
      order by r.id limit 1`.execute(trx)
    const row = taken.rows[0]
    if (row) {
      throw new ConflictError({
        key: 'detail.restore_taken',
        params: { entity: entity.labelKey, name: await nameOf(trx, entity, Number(row.id)), label: entity.fieldLabelKey(name), value: String(row.value) },
      })
    }
  }
}

/** A restored row may not point into the Trash (nothing live does): 409 naming the reference. */
async function refuseTrashedReferences(ctx: EngineCtx, trx: Trx, entity: Entity<string, Fields>, ids: readonly number[]): Promise<void> {
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    const target = field.ref && !field.isVirtual ? ctx.registry.find((e) => e.name === field.ref!.target) : undefined
    if (!target?.trash || (field.kind !== 'ref' && field.kind !== 'refs')) continue
    const holding =
      field.kind === 'ref'
        ? await sql<{ id: number }>`select r.id from ${id(tableOfField(entity, name))} r join ${id(target.name)} x on x.id = r.${id(name)}
            where r.id = any(${[...ids]}::bigint[]) and x.deleted_at is not null order by r.id limit 1`.execute(trx)
        : await sql<{ id: number }>`select jt.owner_id as id from ${id(linkTable(entity, name))} jt join ${id(target.name)} x on x.id = jt.target_id
            where jt.owner_id = any(${[...ids]}::bigint[]) and x.deleted_at is not null order by jt.owner_id limit 1`.execute(trx)
    const row = holding.rows[0]
    if (row) throw new ConflictError({ key: 'detail.restore_ref_trashed', params: { entity: entity.labelKey, name: await nameOf(trx, entity, Number(row.id)), label: entity.fieldLabelKey(name) } })
  }
}

type AuditEntry = { entity: string; entity_id: number; changes: Record<string, [unknown, unknown]> }

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v)

/**
 * What the delete did to the rows that referred to the restored ones — a reference cleared,
 * a link removed (its `update` entries in the delete's batch) — put back where it is still as
 * the delete left it: a reference since set to another row stays, a referring row since
 * deleted is gone. Each put back is audited as a change of that row, by the caller.
 */
async function putBack(ctx: EngineCtx, trx: Trx, batches: readonly string[], restored: ReadonlyMap<string, number[]>): Promise<void> {
  if (batches.length === 0) return
  const entries = await sql<AuditEntry>`select entity, entity_id, changes from audit_log where batch = any(${[...batches]}::uuid[]) and action = 'update' order by id`.execute(trx)
  const isRestored = (target: string, value: unknown) => isId(value) && (restored.get(target)?.includes(value) ?? false)
  for (const entry of entries.rows) {
    const referring = ctx.registry.find((e) => e.name === entry.entity)
    if (!referring) continue
    const rowId = Number(entry.entity_id)
    for (const [name, [was, is]] of Object.entries(entry.changes)) {
      const field = referring.fields[name]
      if (!field?.ref || field.isVirtual) continue
      const target = field.ref.target
      if (field.kind === 'ref' && is === null && isRestored(target, was)) {
        const back = await sql`update ${id(tableOfField(referring, name))} set ${id(name)} = ${was as number} where id = ${rowId} and ${id(name)} is null returning id`.execute(trx)
        if (back.rows.length > 0) await changed(ctx, trx, referring, rowId, { [name]: [null, was] })
      } else if (field.kind === 'refs' && Array.isArray(was) && Array.isArray(is)) {
        const removed = was.filter((t) => !is.includes(t) && isRestored(target, t)) as number[]
        if (removed.length === 0) continue
        const link = linkTable(referring, name)
        const before = await sql<{ target_id: number }>`select target_id from ${id(link)} where owner_id = ${rowId} order by target_id`.execute(trx)
        const inserted = await sql<{ target_id: number }>`insert into ${id(link)} (owner_id, target_id)
          select ${rowId}, t from unnest(${removed}::bigint[]) t where exists (select 1 from ${id(rootOf(referring).name)} o where o.id = ${rowId})
          on conflict do nothing returning target_id`.execute(trx)
        if (inserted.rows.length === 0) continue
        const was_ = before.rows.map((r) => Number(r.target_id))
        const now = [...was_, ...inserted.rows.map((r) => Number(r.target_id))].sort((a, b) => a - b)
        await changed(ctx, trx, referring, rowId, { [name]: [was_, now] })
      }
    }
  }
}

async function changed(ctx: EngineCtx, trx: Trx, entity: Entity<string, Fields>, rowId: number, changes: Record<string, [unknown, unknown]>): Promise<void> {
  await sql`update ${id(rootOf(entity).name)} set updated_at = now(), updated_by = ${ctx.actor?.id ?? null} where id = ${rowId}`.execute(trx)
  const [field] = Object.keys(changes)
  if (entity.fields[field!]?.isAudited === false) return
  await writeAudit(trx, { actor: ctx.actor, entity: entity.name, entityId: rowId, action: 'update', changes })
}

/**
 * Deletes rows of the Trash for good (`<PREFIX>_PURGE`): each through the engine's delete —
 * what refers to it checked (a trashed row that still refers refuses it, as any row would),
 * what cascades deleted with it, its hooks run and its files released — in one transaction,
 * audited as `purge`.
 */
export async function purgeRows(ctx: EngineCtx, asked: readonly number[]): Promise<Message> {
  authorize(ctx, { permission: ctx.entity.trash!.purgePermission })
  const ids = [...new Set(asked)]
  await deleting(ctx, ids.length === 1 ? ids[0]! : ids, async (trx) => {
    const found = new Set(await trashedOf(ctx, trx, ctx.entity, ids))
    const absent = ids.filter((i) => !found.has(i))
    if (absent.length > 0) throw missing(ctx.entity, absent)
    // The caller's authority was checked here, over rows the Trash alone holds: the delete acts on it.
    const system = asSystem(ctx, ctx.entity, trx)
    for (const rowId of ids) {
      const isGone = (await sql`select 1 from ${id(ctx.entity.name)} where id = ${rowId}`.execute(trx)).rows.length === 0
      if (!isGone) await deleteOne(trx, system, rowId, 'purge')
    }
  })
  return { key: 'detail.purge_done', params: { label: `${ctx.entity.labelKey}.other`, ids: ids.join(', ') } }
}

/**
 * Runs a delete with its audit entries as one batch, and says which: the answer of a delete
 * of an entity with a Trash names it (`batch`), which `restore/` takes to undo that delete.
 */
export async function inDeleteBatch<T>(entity: Entity<string, Fields>, work: () => Promise<T>): Promise<{ result: T; batch?: string }> {
  const batch = randomUUID()
  const result = await inAuditBatch(batch, work)
  return { result, ...(entity.trash ? { batch } : {}) }
}
