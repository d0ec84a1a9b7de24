import { sql } from 'kysely'
import type { Entity, Fields, Message } from '../../schema/kit'
import { joinTableName } from '../db/registry-schema'
import type { Db, Row, Trx } from '../db/types'
import { diff, writeAudit, type Actor } from './audit'
import { ConflictError, NotFoundError, ValidationError } from './errors'
import { findRow, refTarget, type Registry } from './list-query'
import { modelName, validateRecord, type Values } from './validate'

/**
 * Generic writes: validate with the registry schema, check references, write the row,
 * its many-to-many links and its audit entry in one transaction. A failure writes nothing.
 */
type Ctx = { db: Db; registry: Registry; entity: Entity<string, Fields>; actor: Actor | null }

const id = sql.id

export const notFound = (entity: Entity<string, Fields>, rowId: number | string) =>
  new NotFoundError(`${modelName(entity)} id - ${rowId} doesn't exists`)

type PgError = { code?: string; constraint?: string; detail?: string; table?: string }
const pgError = (e: unknown): PgError => (typeof e === 'object' && e !== null ? (e as PgError) : {})

/** Maps a constraint the database refused to the field map the client understands. */
function constraintError(entity: Entity<string, Fields>, e: unknown): Error | undefined {
  const err = pgError(e)
  const field = err.constraint?.replace(new RegExp(`^${entity.name}_`), '').replace(/_(key|fkey)$/, '')
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
    if (!field.ref) continue
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

function columnsOf(entity: Entity<string, Fields>, values: Values): Values {
  const out: Values = {}
  for (const name of entity.fieldNames) {
    if (entity.fields[name]!.kind === 'refs') continue
    const v = values[name]
    out[name] = entity.fields[name]!.kind === 'json' && v !== null && v !== undefined ? JSON.stringify(v) : v
  }
  return out
}

async function writeLinks(trx: Trx, entity: Entity<string, Fields>, rowId: number, values: Values, isNew: boolean): Promise<void> {
  for (const name of entity.fieldNames) {
    if (entity.fields[name]!.kind !== 'refs') continue
    const table = joinTableName(entity.name, name)
    if (!isNew) await sql`delete from ${id(table)} where owner_id = ${rowId}`.execute(trx)
    const ids = (values[name] as number[] | null) ?? []
    if (ids.length > 0) {
      await sql`insert into ${id(table)} (owner_id, target_id) select ${rowId}, unnest(${ids}::bigint[])`.execute(trx)
    }
  }
}

async function inTransaction<T>(ctx: Ctx, work: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction().execute(work)
  } catch (e) {
    throw constraintError(ctx.entity, e) ?? e
  }
}

export async function createRow(ctx: Ctx, input: Values): Promise<Row> {
  const { entity, actor } = ctx
  const values = validateRecord(entity, input)
  return inTransaction(ctx, async (trx) => {
    await checkReferences(trx, ctx.registry, entity, values)
    const row = { ...columnsOf(entity, values), created_by: actor?.id ?? null, updated_by: actor?.id ?? null }
    const inserted = await trx.insertInto(entity.name).values(row).returning('id').executeTakeFirstOrThrow()
    const rowId = Number(inserted.id)
    await writeLinks(trx, entity, rowId, values, true)
    const stored = (await findRow(trx, entity, rowId))!
    await writeAudit(trx, { actor, entity: entity.name, entityId: rowId, action: 'create', changes: diff(null, stored, entity.fieldNames) })
    return stored
  })
}

/**
 * A stored value in the form a client sends it, so that the merged record validates:
 * the driver gives timestamptz as a Date, which the datetime field (a string) would refuse.
 */
const asInput = (value: unknown) => (value instanceof Date ? value.toISOString() : value)

/** PUT and PATCH: the body is laid over the stored row and the result validated whole. */
export async function updateRow(ctx: Ctx, rowId: number, input: Values): Promise<Row> {
  const { entity, actor } = ctx
  return inTransaction(ctx, async (trx) => {
    const before = await lockRow(trx, entity, rowId)
    const merged: Values = {}
    for (const name of entity.fieldNames) merged[name] = Object.hasOwn(input, name) ? input[name] : asInput(before[name])
    const values = validateRecord(entity, merged)
    await checkReferences(trx, ctx.registry, entity, values)
    await trx
      .updateTable(entity.name)
      .set({ ...columnsOf(entity, values), updated_by: actor?.id ?? null, updated_at: sql`now()` })
      .where('id', '=', rowId)
      .execute()
    await writeLinks(trx, entity, rowId, values, false)
    const after = (await findRow(trx, entity, rowId))!
    const changes = diff(before, after, entity.fieldNames)
    if (Object.keys(changes).length > 0) await writeAudit(trx, { actor, entity: entity.name, entityId: rowId, action: 'update', changes })
    return after
  })
}

async function lockRow(trx: Trx, entity: Entity<string, Fields>, rowId: number): Promise<Row> {
  await sql`select id from ${id(entity.name)} where id = ${rowId} for update`.execute(trx)
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

async function deleteOne(trx: Trx, ctx: Ctx, rowId: number): Promise<void> {
  const before = await lockRow(trx, ctx.entity, rowId)
  await sql`delete from ${id(ctx.entity.name)} where id = ${rowId}`.execute(trx)
  await writeAudit(trx, { actor: ctx.actor, entity: ctx.entity.name, entityId: rowId, action: 'delete', changes: diff(before, null, ctx.entity.fieldNames) })
}

async function deleting<T>(ctx: Ctx, ids: number[], work: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction().execute(work)
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

