import { sql } from 'kysely'
import { rootOf, type Entity, type Fields, type Message } from '../../schema/kit'
import { hashPassword } from '../auth/passwords'
import type { Executor, Row, Trx } from '../db/types'
import { diff, MASKED, writeAudit, type Changes } from './audit'
import { ConflictError, NotFoundError, ValidationError } from './errors'
import { hooksOf, type Actor, type HookRegistry, type WriteAction } from './hooks'
import { findRow, linkTable, refTarget, type Registry } from './list-query'
import { modelName, validateRecord, type Values } from './validate'

/**
 * Generic writes: validate with the registry schema, hash secrets, check references, run
 * the domain hooks, write the row (split between the parent's table and the entity's own
 * for an entity that extends another), its many-to-many links and its audit entry in one
 * transaction. A failure writes nothing. Given a transaction as `db`, the write joins it,
 * so a domain service can make several writes atomic.
 */
export type Ctx = { db: Executor; registry: Registry; entity: Entity<string, Fields>; actor: Actor | null; hooks?: HookRegistry }

const id = sql.id

export const notFound = (entity: Entity<string, Fields>, rowId: number | string) =>
  new NotFoundError(`${modelName(entity)} id - ${rowId} doesn't exists`)

type PgError = { code?: string; constraint?: string; detail?: string; table?: string }
const pgError = (e: unknown): PgError => (typeof e === 'object' && e !== null ? (e as PgError) : {})

/** Maps a constraint the database refused to the field map the client understands. */
function constraintError(entity: Entity<string, Fields>, e: unknown): Error | undefined {
  const err = pgError(e)
  const tables = [entity.name, ...(entity.parent ? [entity.parent.name] : [])]
  const table = tables.find((t) => err.constraint?.startsWith(`${t}_`))
  const field = table ? err.constraint!.slice(table.length + 1).replace(/_(key|fkey)$/, '') : undefined
  if (err.code === '23505' && field && entity.fields[field]) {
    return new ValidationError({ [field]: [{ key: 'validation.unique', params: { label: entity.fieldLabelKey(field), entity: entity.labelKey } }] })
  }
  if (err.code === '23503' && field && entity.fields[field]) {
    return new ValidationError({ [field]: [{ key: 'validation.ref', params: { label: entity.fieldLabelKey(field) } }] })
  }
  return undefined
}

async function checkReferences(trx: Trx, registry: Registry, entity: Entity<string, Fields>, values: Values): Promise<void> {
  const errors: Record<string, Message[]> = {}
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (!field.ref || values[name] === undefined) continue
    const wanted = (field.kind === 'refs' ? (values[name] as number[]) : [values[name] as number | null]).filter((v): v is number => v !== null && v !== undefined)
    if (wanted.length === 0) continue
    const target = refTarget(registry, entity, name)
    const found = await sql<{ id: number }>`select id from ${id(target.name)} where id = any(${wanted})`.execute(trx)
    const have = new Set(found.rows.map((r) => r.id))
    for (const missing of wanted.filter((w) => !have.has(w))) {
      ;(errors[name] ??= []).push({ key: 'validation.ref_missing', params: { value: missing } })
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
}

/** Write-only values (passwords) are stored as argon2id hashes; a blank one is left out, keeping the stored hash. */
async function hashSecrets(entity: Entity<string, Fields>, values: Values): Promise<Values> {
  for (const name of entity.fieldNames) {
    if (entity.fields[name]!.kind === 'password' && typeof values[name] === 'string') values[name] = await hashPassword(values[name] as string)
  }
  return values
}

/** The columns of `names` to write: absent values (read-only fields) and blank secrets are left to the database. */
function columnsOf(entity: Entity<string, Fields>, values: Values, names: readonly string[]): Values {
  const out: Values = {}
  for (const name of names) {
    const field = entity.fields[name]!
    const v = values[name]
    if (field.kind === 'refs' || v === undefined || (field.isWriteOnly && v === null)) continue
    out[name] = field.kind === 'json' && v !== null ? JSON.stringify(v) : v
  }
  return out
}

/** Field names by the table that stores them: the parent's first (it holds the id), then the entity's own. */
function tablesOf(entity: Entity<string, Fields>): Array<{ table: string; names: readonly string[] }> {
  if (!entity.parent) return [{ table: entity.name, names: entity.fieldNames }]
  return [
    { table: entity.parent.name, names: entity.fieldNames.filter((n) => !entity.ownFieldNames.includes(n)) },
    { table: entity.name, names: entity.ownFieldNames },
  ]
}

async function writeLinks(trx: Trx, entity: Entity<string, Fields>, rowId: number, values: Values, isNew: boolean): Promise<void> {
  for (const name of entity.fieldNames) {
    if (entity.fields[name]!.kind !== 'refs' || values[name] === undefined) continue
    const table = linkTable(entity, name)
    if (!isNew) await sql`delete from ${id(table)} where owner_id = ${rowId}`.execute(trx)
    const ids = (values[name] as number[] | null) ?? []
    if (ids.length > 0) {
      await sql`insert into ${id(table)} (owner_id, target_id) select ${rowId}, unnest(${ids}::bigint[])`.execute(trx)
    }
  }
}

/** The audit entry's changes: readable fields before and after; a written secret only as masked. */
function auditChanges(entity: Entity<string, Fields>, before: Row | null, after: Row | null, written: Values | null): Changes {
  const readable = entity.fieldNames.filter((n) => !entity.fields[n]!.isWriteOnly)
  const changes = diff(before, after, readable)
  for (const name of entity.fieldNames) {
    if (entity.fields[name]!.isWriteOnly && typeof written?.[name] === 'string') changes[name] = [before ? MASKED : null, MASKED]
  }
  return changes
}

/** Runs `work` in the caller's transaction when `db` is one, else in a new one; maps constraint errors. */
export async function inTransaction<T>(ctx: Pick<Ctx, 'db' | 'entity'>, work: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return ctx.db.isTransaction ? await work(ctx.db as Trx) : await ctx.db.transaction().execute(work)
  } catch (e) {
    throw constraintError(ctx.entity, e) ?? e
  }
}

async function runBefore(ctx: Ctx, trx: Trx, action: WriteAction, before: Row | null, values: Values | null): Promise<void> {
  for (const h of hooksOf(ctx.hooks, ctx.entity)) {
    await h.beforeWrite?.({ trx, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, action, before, values })
  }
}

async function runAfter(ctx: Ctx, trx: Trx, action: WriteAction, rowId: number, before: Row | null, after: Row | null): Promise<void> {
  for (const h of hooksOf(ctx.hooks, ctx.entity)) {
    await h.afterWrite?.({ trx, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, action, rowId, before, after })
  }
}

export async function createRow(ctx: Ctx, input: Values): Promise<Row> {
  const { entity, actor } = ctx
  const values = await hashSecrets(entity, validateRecord(entity, input, 'create'))
  return inTransaction(ctx, async (trx) => {
    await checkReferences(trx, ctx.registry, entity, values)
    await runBefore(ctx, trx, 'create', null, values)
    const [root, own] = tablesOf(entity)
    const audit = { created_by: actor?.id ?? null, updated_by: actor?.id ?? null }
    const inserted = await trx.insertInto(root!.table).values({ ...columnsOf(entity, values, root!.names), ...audit }).returning('id').executeTakeFirstOrThrow()
    const rowId = Number(inserted.id)
    if (own) await trx.insertInto(own.table).values({ id: rowId, ...columnsOf(entity, values, own.names) }).execute()
    await writeLinks(trx, entity, rowId, values, true)
    const stored = (await findRow(trx, entity, rowId))!
    await writeAudit(trx, { actor, entity: entity.name, entityId: rowId, action: 'create', changes: auditChanges(entity, null, stored, values) })
    await runAfter(ctx, trx, 'create', rowId, null, stored)
    return stored
  })
}

/**
 * A stored value in the form a client sends it, so that the merged record validates:
 * the driver gives timestamptz as a Date, which the datetime field (a string) would refuse.
 */
const asInput = (value: unknown) => (value instanceof Date ? value.toISOString() : value)

/**
 * PUT and PATCH: the body is laid over the stored row and the result validated whole.
 * Read-only fields keep their stored value; a write-only field keeps its hash unless sent.
 */
export async function updateRow(ctx: Ctx, rowId: number, input: Values): Promise<Row> {
  const { entity, actor } = ctx
  return inTransaction(ctx, async (trx) => {
    const before = await lockRow(trx, entity, rowId)
    const merged: Values = {}
    for (const name of entity.fieldNames) {
      const field = entity.fields[name]!
      if (field.isReadOnly) continue
      merged[name] = Object.hasOwn(input, name) ? input[name] : field.isWriteOnly ? null : asInput(before[name])
    }
    const values = await hashSecrets(entity, validateRecord(entity, merged, 'update'))
    await checkReferences(trx, ctx.registry, entity, values)
    await runBefore(ctx, trx, 'update', before, values)
    const [root, own] = tablesOf(entity)
    await trx
      .updateTable(root!.table)
      .set({ ...columnsOf(entity, values, root!.names), updated_by: actor?.id ?? null, updated_at: sql`now()` })
      .where('id', '=', rowId)
      .execute()
    const ownColumns = own ? columnsOf(entity, values, own.names) : {}
    if (own && Object.keys(ownColumns).length > 0) await trx.updateTable(own.table).set(ownColumns).where('id', '=', rowId).execute()
    await writeLinks(trx, entity, rowId, values, false)
    const after = (await findRow(trx, entity, rowId))!
    const changes = auditChanges(entity, before, after, values)
    if (Object.keys(changes).length > 0) await writeAudit(trx, { actor, entity: entity.name, entityId: rowId, action: 'update', changes })
    await runAfter(ctx, trx, 'update', rowId, before, after)
    return after
  })
}

/** Locks the row (its root table's row, for an entity that extends another) and reads it. */
async function lockRow(trx: Trx, entity: Entity<string, Fields>, rowId: number): Promise<Row> {
  await sql`select id from ${id(rootOf(entity).name)} where id = ${rowId} for update`.execute(trx)
  const row = await findRow(trx, entity, rowId)
  if (!row) throw notFound(entity, rowId)
  return row
}

function referencedBy(registry: Registry, e: unknown): string | undefined {
  const err = pgError(e)
  // 23503: foreign_key_violation (NO ACTION); 23001: restrict_violation (ON DELETE RESTRICT).
  if (err.code !== '23503' && err.code !== '23001') return undefined
  const table = err.table ?? /from table "([^"]+)"/.exec(err.detail ?? '')?.[1]
  const other = table ? registry.find((x) => x.name === table) : undefined
  return other ? modelName(other) : (table ?? 'another record')
}

/** Deletes the root row: an entity's own row goes with its parent's (on delete cascade). */
async function deleteOne(trx: Trx, ctx: Ctx, rowId: number): Promise<void> {
  const before = await lockRow(trx, ctx.entity, rowId)
  await runBefore(ctx, trx, 'delete', before, null)
  await sql`delete from ${id(rootOf(ctx.entity).name)} where id = ${rowId}`.execute(trx)
  await writeAudit(trx, { actor: ctx.actor, entity: ctx.entity.name, entityId: rowId, action: 'delete', changes: auditChanges(ctx.entity, before, null, null) })
  await runAfter(ctx, trx, 'delete', rowId, before, null)
}

async function deleting<T>(ctx: Ctx, ids: number[], work: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return ctx.db.isTransaction ? await work(ctx.db as Trx) : await ctx.db.transaction().execute(work)
  } catch (e) {
    const other = referencedBy(ctx.registry, e)
    if (!other) throw e
    const what = ids.length === 1 ? `id - ${ids[0]}` : `ids - [${ids.join(', ')}]`
    throw new ConflictError(`${modelName(ctx.entity)} ${what} cannot be deleted: ${other} records refer to it.`)
  }
}

export async function deleteRow(ctx: Ctx, rowId: number): Promise<string> {
  await deleting(ctx, [rowId], (trx) => deleteOne(trx, ctx, rowId))
  return `${modelName(ctx.entity)} id - ${rowId} is deleted successfully`
}

export async function deleteRows(ctx: Ctx, ids: number[]): Promise<string> {
  const unique = [...new Set(ids)]
  await deleting(ctx, unique, async (trx) => {
    const found = await sql<{ id: number }>`select id from ${id(ctx.entity.name)} where id = any(${unique}) for update`.execute(trx)
    const have = new Set(found.rows.map((r) => r.id))
    const missing = unique.filter((i) => !have.has(i))
    if (missing.length > 0) throw new NotFoundError(`${modelName(ctx.entity)} ids - [${missing.join(', ')}] don't exist`)
    for (const rowId of unique) await deleteOne(trx, ctx, rowId)
  })
  return `${modelName(ctx.entity)} ids - [${unique.join(', ')}] deleted successfully`
}

