import { sql } from 'kysely'
import { isBuiltInRow, lineLinkColumn, LINE_POSITION, rootOf, storageOf, withComputed, type Action, type Entity, type Fields, type Message } from '../../schema/kit'
import { hashPassword } from '../auth/passwords'
import type { Executor, Row, Trx } from '../db/types'
import { asSystem, authorize, scopeOf, type Access, type EngineCtx } from './access'
import { diff, MASKED, writeAudit, type Changes } from './audit'
import { BusinessError, ConflictError, NotFoundError, ValidationError } from './errors'
import { hooksOf, type Actor, type HookRegistry, type WriteAction } from './hooks'
import { impactOf, type ImpactItem } from './delete-impact'
import { findRow, LABELS, linkTable, listRows, refTarget, source, type Filter, type ListQuery, type ListResult, type Registry } from './list-query'
import { modelName, validateRecord, validateShape, type Values } from './validate'
import { checkWithin } from './within'
import { sanitizeMarkup } from './html-markup'
import { fillSlugs } from './slugs'

/**
 * The engine's read and write layer. A write validates with the registry (fields, then
 * rules), works out computed values, hashes secrets, checks references, runs the domain
 * hooks, and writes the row — split between the parent's table and the entity's own for an
 * entity that extends another — its many-to-many links, a document's lines (each through
 * this same path, with its hooks and audit) and its audit entry, in one transaction. A
 * failure writes nothing. Given a transaction as `db`, a write joins it, so a domain
 * service can make several writes atomic. Every call says who asks (see access.ts).
 */
export type Ctx = EngineCtx
export type { Access }

const id = sql.id

export const notFound = (entity: Entity<string, Fields>, rowId: number | string) =>
  new NotFoundError({ key: 'detail.not_found', params: { model: modelName(entity), entity: entity.labelKey, id: String(rowId) } })

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

/** Deadlocks and serialization failures: the transaction may simply be run again. */
const isRetryable = (e: unknown) => pgError(e).code === '40P01' || pgError(e).code === '40001'

/** Runs `work` in the caller's transaction when `db` is one, else in a new one (tried again on a deadlock); maps constraint errors. */
export async function inTransaction<T>(ctx: Pick<Ctx, 'db' | 'entity'>, work: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    if (ctx.db.isTransaction) return await work(ctx.db as Trx)
    for (let attempt = 1; ; attempt++) {
      try {
        return await ctx.db.transaction().execute(work)
      } catch (e) {
        if (attempt >= 3 || !isRetryable(e)) throw e
      }
    }
  } catch (e) {
    throw constraintError(ctx.entity, e) ?? e
  }
}

// ---------------------------------------------------------------- references, secrets, columns

/** Every reference a record (and each of its lines) holds, checked against its target's table in one query per target. */
async function checkReferences(trx: Trx, registry: Registry, entity: Entity<string, Fields>, values: Values): Promise<void> {
  const wanted = new Map<string, Array<{ key: string; id: number }>>()
  const collect = (e: Entity<string, Fields>, record: Values, prefix: string) => {
    for (const name of e.fieldNames) {
      const field = e.fields[name]!
      const value = record[name]
      if (field.kind === 'lines' && Array.isArray(value)) {
        value.forEach((line: Values, i) => collect(field.lines!.entity, line, `${prefix}${name}.${i}.`))
        continue
      }
      if (!field.ref || value === undefined || value === null) continue
      const target = refTarget(registry, e, name).name
      const ids = field.kind === 'refs' ? (value as number[]) : [value as number]
      const list = wanted.get(target) ?? []
      for (const rowId of ids) list.push({ key: `${prefix}${name}`, id: rowId })
      wanted.set(target, list)
    }
  }
  collect(entity, values, '')
  const errors: Record<string, Message[]> = {}
  for (const [target, refs] of wanted) {
    const found = await sql<{ id: number }>`select id from ${id(target)} where id = any(${[...new Set(refs.map((r) => r.id))]}::bigint[])`.execute(trx)
    const have = new Set(found.rows.map((r) => r.id))
    for (const r of refs.filter((x) => !have.has(x.id))) (errors[r.key] ??= []).push({ key: 'validation.ref_missing', params: { value: r.id } })
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
}

/** Write-only values (passwords) are stored as argon2id hashes; a blank one is left out, keeping the stored hash. */
async function hashSecrets(entity: Entity<string, Fields>, values: Values): Promise<Values> {
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (field.kind === 'password' && !field.isTransient && typeof values[name] === 'string') values[name] = await hashPassword(values[name] as string)
  }
  return values
}

/** The columns of `names` to write: fields without a column, absent values (read-only fields) and blank secrets are left out. */
function columnsOf(entity: Entity<string, Fields>, values: Values, names: readonly string[]): Values {
  const out: Values = {}
  for (const name of names) {
    const field = entity.fields[name]!
    const v = values[name]
    if (!field.sql || v === undefined || (field.isWriteOnly && v === null)) continue
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

/** The audit entry's changes: readable fields before and after (not a document's lines: they have their own); a written secret only as masked. */
const withoutLabels = (lines: LineRow[] | undefined) => lines?.map(({ _labels: _, ...line }) => line)

function auditChanges(entity: Entity<string, Fields>, before: Row | null, after: Row | null, written: Values | null): Changes {
  const readable = entity.fieldNames.filter((n) => !entity.fields[n]!.isWriteOnly && entity.fields[n]!.kind !== 'lines' && entity.fields[n]!.isAudited)
  const changes = diff(before, after, readable)
  // A document's lines are audited one by one; its own entry says that they changed, and how many there are.
  for (const name of entity.linesFieldNames) {
    const [was, is] = [before?.[name] as LineRow[] | undefined, after?.[name] as LineRow[] | undefined]
    if (JSON.stringify(withoutLabels(was)) !== JSON.stringify(withoutLabels(is))) changes[name] = [was ? was.length : null, is ? is.length : null]
  }
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (field.isWriteOnly && !field.isTransient && typeof written?.[name] === 'string') changes[name] = [before ? MASKED : null, MASKED]
  }
  return changes
}

// ---------------------------------------------------------------- hooks

async function runBeforeValidate(ctx: Ctx, trx: Trx, action: WriteAction, before: Row | null, input: Values): Promise<Values> {
  const hooks = hooksOf(ctx.hooks, ctx.entity).filter((h) => h.beforeValidate)
  if (hooks.length === 0) return input
  const changed = { ...input }
  for (const h of hooks) await h.beforeValidate!({ trx, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, action, before, input: changed })
  return changed
}

async function runBefore(ctx: Ctx, trx: Trx, action: WriteAction, before: Row | null, values: Values | null): Promise<void> {
  const builtIn = ctx.entity.builtIn
  if (builtIn && isBuiltInRow(ctx.entity, before) && (action === 'delete' || (values !== null && builtIn.field in values && values[builtIn.field] !== before![builtIn.field]))) {
    // A flag (is_deletable false) says nothing about which row it is: its label does.
    const value = typeof before![builtIn.field] === 'boolean' ? before![ctx.entity.labelField] : before![builtIn.field]
    throw new BusinessError({ key: builtIn.message, params: { entity: ctx.entity.labelKey, value: String(value) } })
  }
  for (const h of hooksOf(ctx.hooks, ctx.entity)) {
    await h.beforeWrite?.({ trx, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, action, before, values })
  }
}

async function runAfter(ctx: Ctx, trx: Trx, action: WriteAction, rowId: number, before: Row | null, after: Row | null): Promise<void> {
  for (const h of hooksOf(ctx.hooks, ctx.entity)) {
    await h.afterWrite?.({ trx, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, action, rowId, before, after })
  }
}

async function runAfterRead(ctx: Ctx, rows: Row[], shape: 'record' | 'list'): Promise<void> {
  for (const h of hooksOf(ctx.hooks, ctx.entity)) {
    if (rows.length > 0) await h.afterRead?.({ db: ctx.db, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, rows, shape })
  }
}

// ---------------------------------------------------------------- reads

const read = (ctx: Ctx, db: Executor, rowId: number) => findRow(db, ctx.entity, rowId, ctx.registry)

/** Whether the row is within the caller's scope (always, without one). */
async function isInScope(ctx: Ctx, db: Executor, rowId: number): Promise<boolean> {
  const scope = scopeOf(ctx)
  if (scope.length === 0) return true
  const { rows } = await listRows(db, ctx.entity, { filters: [{ field: 'id', op: 'equals', value: rowId }, ...scope], ordering: 'id' }, ctx.registry)
  return rows.length > 0
}

/** One record for the caller: their permission (or their own row), their scope, then the entity's after-read hooks. */
export async function readRow(ctx: Ctx, rowId: number): Promise<Row> {
  authorize(ctx, 'DETAILS', rowId)
  const row = await read(ctx, ctx.db, rowId)
  if (!row || !(await isInScope(ctx, ctx.db, rowId))) throw notFound(ctx.entity, rowId)
  await runAfterRead(ctx, [row], 'record')
  return row
}

/** A list for the caller: `filters` within their scope; `permission` when the route needs another than LIST. */
export async function readList(ctx: Ctx, query: ListQuery): Promise<ListResult> {
  authorize(ctx, 'LIST')
  const result = await listRows(ctx.db, ctx.entity, { ...query, filters: [...query.filters, ...scopeOf(ctx)] }, ctx.registry)
  await runAfterRead(ctx, result.rows, 'list')
  return result
}

/** Locks the row (its root table's row, for an entity that extends another) and reads it; a row outside the caller's scope is not found. */
async function lockRow(ctx: Ctx, trx: Trx, rowId: number): Promise<Row> {
  await sql`select id from ${id(rootOf(ctx.entity).name)} where id = ${rowId} for update`.execute(trx)
  const row = await read(ctx, trx, rowId)
  if (!row || !(await isInScope(ctx, trx, rowId))) throw notFound(ctx.entity, rowId)
  return row
}

// ---------------------------------------------------------------- lines

type LineRow = Row & { id: number }

const lineCtx = (ctx: Ctx, trx: Trx, document: Entity<string, Fields>, field: string): Ctx => asSystem(ctx, document.fields[field]!.lines!.entity, trx)

const isObject = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * A stored value in the form a client sends it, so that the merged record validates:
 * the driver gives timestamptz as a Date, which the datetime field (a string) would refuse;
 * a document's stored lines become lines with their ids.
 */
function asInput(entity: Entity<string, Fields>, name: string, value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  if (entity.fields[name]?.kind === 'lines' && Array.isArray(value)) {
    const line = entity.fields[name]!.lines!.entity
    return value.map((row: Values) => Object.fromEntries(Object.entries(row).filter(([k]) => k !== LABELS).map(([k, v]) => [k, asInput(line, k, v)])))
  }
  return value
}

/**
 * The lines an update sends, laid over the stored ones: a line with an `id` is that stored
 * line with the values sent; a bare value of the field's `scalar` is the stored line that
 * holds it, if any (so `menu_items: [3, 5]` keeps the lines of 3 and 5); the rest are new.
 * An `id` that is not one of this document's lines is refused.
 */
function mergeLines(entity: Entity<string, Fields>, field: string, stored: readonly LineRow[], given: unknown): unknown {
  if (!Array.isArray(given)) return given
  const spec = entity.fields[field]!.lines!
  const byId = new Map(stored.map((l) => [l.id, l]))
  const unused = new Set(stored.map((l) => l.id))
  const errors: Record<string, Message[]> = {}
  const merged = given.map((item, i) => {
    if (spec.scalar && !isObject(item)) {
      const match = stored.find((l) => unused.has(l.id) && l[spec.scalar!] === item)
      if (!match) return { [spec.scalar]: item }
      unused.delete(match.id)
      return { id: match.id, [spec.scalar]: item }
    }
    if (!isObject(item) || item.id === undefined || item.id === null || item.id === '') return item
    const lineId = Number(item.id)
    const line = byId.get(lineId)
    if (!line) {
      errors[`${field}.${i}.id`] = [{ key: 'validation.line_id', params: { label: 'field.line' } }]
      return item
    }
    unused.delete(lineId)
    return { ...(asInput(entity, field, [line]) as Values[])[0], ...item, id: lineId }
  })
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  return merged
}

async function insertLine(ctx: Ctx, docId: number, position: number, values: Values): Promise<void> {
  const trx = ctx.db as Trx
  const line = ctx.entity
  const { id: _ignored, ...fields } = values
  await runBefore(ctx, trx, 'create', null, fields)
  const audit = { created_by: ctx.actor?.id ?? null, updated_by: ctx.actor?.id ?? null }
  const inserted = await trx
    .insertInto(line.name)
    .values({ ...columnsOf(line, fields, line.fieldNames), [lineLinkColumn(line)]: docId, [LINE_POSITION]: position, ...audit })
    .returning('id')
    .executeTakeFirstOrThrow()
  const lineId = Number(inserted.id)
  await writeLinks(trx, line, lineId, fields, true)
  const stored = (await read(ctx, trx, lineId))!
  await writeAudit(trx, { actor: ctx.actor, entity: line.name, entityId: lineId, action: 'create', changes: { ...auditChanges(line, null, stored, fields), [LINE_POSITION]: [null, position] } })
  await runAfter(ctx, trx, 'create', lineId, null, stored)
}

/** Whether a line sent back as it is stored (same values, same place): nothing to write. */
function isLineUnchanged(line: Entity<string, Fields>, before: LineRow, fields: Values, moved: boolean): boolean {
  if (moved) return false
  const names = line.fieldNames.filter((n) => line.fields[n]!.sql !== undefined || line.fields[n]!.kind === 'refs').filter((n) => fields[n] !== undefined)
  return Object.keys(diff(before, fields, names)).length === 0
}

async function updateLine(ctx: Ctx, before: LineRow, position: number, beforePosition: number, values: Values): Promise<void> {
  const trx = ctx.db as Trx
  const line = ctx.entity
  const { id: lineId, ...fields } = values as Values & { id: number }
  if (isLineUnchanged(line, before, fields, position !== beforePosition)) return
  await runBefore(ctx, trx, 'update', before, fields)
  await trx
    .updateTable(line.name)
    .set({ ...columnsOf(line, fields, line.fieldNames), [LINE_POSITION]: position, updated_by: ctx.actor?.id ?? null, updated_at: sql`now()` })
    .where('id', '=', lineId)
    .execute()
  await writeLinks(trx, line, lineId, fields, false)
  const after = (await read(ctx, trx, lineId))!
  const changes = auditChanges(line, before, after, fields)
  if (position !== beforePosition) changes[LINE_POSITION] = [beforePosition, position]
  if (Object.keys(changes).length > 0) await writeAudit(trx, { actor: ctx.actor, entity: line.name, entityId: lineId, action: 'update', changes })
  await runAfter(ctx, trx, 'update', lineId, before, after)
}

async function deleteLine(ctx: Ctx, before: LineRow): Promise<void> {
  const trx = ctx.db as Trx
  await runBefore(ctx, trx, 'delete', before, null)
  await sql`delete from ${id(ctx.entity.name)} where id = ${before.id}`.execute(trx)
  await writeAudit(trx, { actor: ctx.actor, entity: ctx.entity.name, entityId: before.id, action: 'delete', changes: auditChanges(ctx.entity, before, null, null) })
  await runAfter(ctx, trx, 'delete', before.id, before, null)
}

/** Brings a document's stored lines to the validated ones: changed lines updated, new ones added, those left out removed — each through the line's hooks and audit. */
async function syncLines(ctx: Ctx, trx: Trx, docId: number, field: string, stored: readonly LineRow[], lines: readonly Values[]): Promise<void> {
  const lc = lineCtx(ctx, trx, ctx.entity, field)
  const kept = new Set(lines.map((l) => l.id).filter((x): x is number => typeof x === 'number'))
  for (const line of stored) if (!kept.has(line.id)) await deleteLine(lc, line)
  const positions = new Map(stored.map((l, i) => [l.id, i]))
  for (const [i, line] of lines.entries()) {
    const before = typeof line.id === 'number' ? stored.find((l) => l.id === line.id) : undefined
    if (!before) await insertLine(lc, docId, i, line)
    else await updateLine(lc, before, i, positions.get(before.id)!, line)
  }
}

// ---------------------------------------------------------------- writes

/**
 * Validates a record as the registry judges it and makes the values to store: formatted
 * text sanitised, computed fields worked out (each line's, then the document's), secrets
 * hashed. Slugs are made later, in the transaction (they depend on the stored rows).
 */
async function prepare(entity: Entity<string, Fields>, input: Values, mode: 'create' | 'update'): Promise<Values> {
  const values = withComputed(entity, sanitizeMarkup(entity, { ...validateRecord(entity, input, mode), ...serverValues(entity, input) }))
  return hashSecrets(entity, values)
}

/** The read-only fields the server sets itself: not lines, not computed. */
const serverSet = (entity: Entity<string, Fields>) =>
  entity.fieldNames.filter((name) => {
    const field = entity.fields[name]!
    return field.isReadOnly && field.kind !== 'lines' && field.compute === undefined
  })

const writableCopies = new WeakMap<object, Entity<string, Fields>['fields'][string]>()
const writable = (field: Entity<string, Fields>['fields'][string]) => {
  let copy = writableCopies.get(field)
  if (!copy) writableCopies.set(field, (copy = { ...field, isReadOnly: false } as typeof field))
  return copy
}

/**
 * Read-only fields are the server's (a document's number, the status an action moves): a
 * client's values for them are dropped before anything else (`fromClient`); the server's own
 * — a system write's, or what a before-validate hook filled in — are judged by the field's
 * validator and stored, never silently lost.
 */
function serverValues(entity: Entity<string, Fields>, input: Values): Values {
  const given = serverSet(entity).filter((name) => Object.hasOwn(input, name))
  if (given.length === 0) return {}
  const shape = { fields: Object.fromEntries(given.map((name) => [name, writable(entity.fields[name]!)])), fieldNames: given, rules: [], linesFieldNames: [], fieldLabelKey: entity.fieldLabelKey }
  return validateShape(shape, Object.fromEntries(given.map((name) => [name, input[name]])))
}

/** A caller's body without the read-only fields; code acting as the system may set them. */
function fromClient(ctx: Ctx, input: Values): Values {
  const readOnly = serverSet(ctx.entity).filter((name) => Object.hasOwn(input, name))
  if (ctx.access === 'system' || readOnly.length === 0) return input
  const kept = { ...input }
  for (const name of readOnly) delete kept[name]
  return kept
}

const hasBeforeValidate = (ctx: Ctx) => hooksOf(ctx.hooks, ctx.entity).some((h) => h.beforeValidate)

export async function createRow(ctx: Ctx, body: Values): Promise<Row> {
  const { entity, actor } = ctx
  authorize(ctx, 'CREATE')
  const input = fromClient(ctx, body)
  // Without hooks that fill in values, judging (and hashing) need not hold a transaction.
  const early = hasBeforeValidate(ctx) ? undefined : await prepare(entity, input, 'create')
  return inTransaction(ctx, async (trx) => {
    const prepared = early ?? (await prepare(entity, await runBeforeValidate(ctx, trx, 'create', null, input), 'create'))
    // A copy: a transaction tried again (a deadlock) makes its slugs again.
    const values = await fillSlugs(trx, entity, prepared, null)
    await checkReferences(trx, ctx.registry, entity, values)
    await checkWithin(trx, ctx.registry, entity, values)
    await runBefore(ctx, trx, 'create', null, values)
    const [root, own] = tablesOf(entity)
    const audit = { created_by: actor?.id ?? null, updated_by: actor?.id ?? null }
    // A record whose id is that of the row a reference points at (a role's menu has the role's).
    const given = entity.idFrom ? { id: values[entity.idFrom] } : {}
    const inserted = await trx.insertInto(root!.table).values({ ...given, ...columnsOf(entity, values, root!.names), ...audit }).returning('id').executeTakeFirstOrThrow()
    const rowId = Number(inserted.id)
    if (own) await trx.insertInto(own.table).values({ id: rowId, ...columnsOf(entity, values, own.names) }).execute()
    await writeLinks(trx, entity, rowId, values, true)
    for (const field of entity.linesFieldNames) {
      const lines = (values[field] as Values[] | null) ?? []
      const withId = lines.findIndex((l) => l.id !== undefined)
      if (withId >= 0) throw new ValidationError({ [`${field}.${withId}.id`]: [{ key: 'validation.line_id', params: { label: 'field.line' } }] })
      const lc = lineCtx(ctx, trx, entity, field)
      for (const [i, line] of lines.entries()) await insertLine(lc, rowId, i, line)
    }
    const stored = (await read(ctx, trx, rowId))!
    await writeAudit(trx, { actor, entity: entity.name, entityId: rowId, action: 'create', changes: auditChanges(entity, null, stored, values) })
    await runAfter(ctx, trx, 'create', rowId, null, stored)
    return answer(ctx, trx, stored)
  })
}

/** The record a write answers with, as a read of it would be (the after-read hooks add theirs). */
async function answer(ctx: Ctx, trx: Trx, row: Row): Promise<Row> {
  await runAfterRead({ ...ctx, db: trx }, [row], 'record')
  return row
}

/**
 * The `updated_at` a client sends (the one it read) must not be older than the stored one:
 * someone else changed the record since. A client that sends none is not checked.
 */
function checkNotStale(before: Row, input: Values): void {
  const given = input.updated_at
  if (given === undefined || given === null || given === '') return
  const at = typeof given === 'string' ? Date.parse(given) : Number.NaN
  if (Number.isNaN(at)) throw new ValidationError({ updated_at: [{ key: 'validation.datetime', params: { label: 'field.updated_at' } }] })
  const stored = before.updated_at instanceof Date ? before.updated_at.getTime() : Date.parse(String(before.updated_at))
  if (at < stored) throw new ConflictError({ key: 'validation.stale' })
}

/**
 * PUT and PATCH: the body is laid over the stored row (a document's lines over its stored
 * lines) and the result judged whole. Read-only fields keep their stored value; a
 * write-only field keeps its hash unless sent.
 */
export async function updateRow(ctx: Ctx, rowId: number, body: Values): Promise<Row> {
  const { entity, actor } = ctx
  authorize(ctx, 'UPDATE', rowId)
  const input = fromClient(ctx, body)
  return inTransaction(ctx, async (trx) => {
    const before = await lockRow(ctx, trx, rowId)
    checkNotStale(before, input)
    const given = await runBeforeValidate(ctx, trx, 'update', before, input)
    const merged: Values = {}
    for (const name of entity.fieldNames) {
      const field = entity.fields[name]!
      // A read-only field keeps its stored value unless the server sets it.
      if (field.isReadOnly && !Object.hasOwn(given, name)) continue
      if (field.isReadOnly) merged[name] = given[name]
      else if (field.kind === 'lines') merged[name] = Object.hasOwn(given, name) ? mergeLines(entity, name, before[name] as LineRow[], given[name]) : asInput(entity, name, before[name])
      else merged[name] = Object.hasOwn(given, name) ? given[name] : field.isWriteOnly ? (field.isTransient ? undefined : null) : asInput(entity, name, before[name])
    }
    for (const name of Object.keys(merged)) if (merged[name] === undefined) delete merged[name]
    const values = await fillSlugs(trx, entity, await prepare(entity, merged, 'update'), rowId)
    await checkReferences(trx, ctx.registry, entity, values)
    await checkWithin(trx, ctx.registry, entity, values)
    if (entity.idFrom && values[entity.idFrom] !== before[entity.idFrom]) {
      throw new ValidationError({ [entity.idFrom]: [{ key: 'validation.id_from', params: { label: entity.fieldLabelKey(entity.idFrom), entity: entity.labelKey } }] })
    }
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
    for (const field of entity.linesFieldNames) await syncLines(ctx, trx, rowId, field, before[field] as LineRow[], (values[field] as Values[] | null) ?? [])
    const after = (await read(ctx, trx, rowId))!
    const changes = auditChanges(entity, before, after, values)
    if (Object.keys(changes).length > 0) await writeAudit(trx, { actor, entity: entity.name, entityId: rowId, action: 'update', changes })
    await runAfter(ctx, trx, 'update', rowId, before, after)
    return answer(ctx, trx, after)
  })
}

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

/**
 * The contract's words for a delete (api-contract §2.1), as messages: English exactly as the
 * contract writes them (`<Model> id - 5 is deleted successfully`), other languages with the
 * screens' name of the entity. `target`: one record (`delete/{id}`), or a selection
 * (`delete_multiple/`, which speaks of `ids - [...]` even for one).
 */
const deleteMessage = (entity: Entity<string, Fields>, target: number | readonly number[], what: 'deleted' | 'refused' | 'missing', other?: { model: string; labelKey?: string }): Message => {
  const isMany = typeof target !== 'number'
  const params: Record<string, string | number> = { model: modelName(entity), entity: entity.labelKey, label: `${entity.labelKey}.other` }
  if (isMany) params.ids = target.join(', ')
  else params.id = target
  if (other) Object.assign(params, { other: other.model, label: other.labelKey ? `${other.labelKey}.other` : other.model })
  const many = isMany ? '_many' : ''
  return { key: `detail.${what === 'deleted' ? 'delete_done' : what === 'refused' ? 'delete_refused' : 'delete_missing'}${many}`, params }
}

/**
 * The references that delete their rows with the row they point at (`onDelete: 'cascade'`:
 * a product's pictures, a category's sub categories, a user's shipping addresses), to this
 * entity or to the one it extends (whose row goes with it).
 */
function cascadesTo(registry: Registry, entity: Entity<string, Fields>): Array<{ entity: Entity<string, Fields>; field: string }> {
  const targets = new Set([entity.name, rootOf(entity).name])
  return registry.flatMap((e) =>
    e.isLine
      ? []
      : e.fieldNames
          .filter((name) => {
            const field = e.fields[name]!
            return field.kind === 'ref' && field.sql !== undefined && field.ref !== undefined && field.ref.onDelete === 'cascade' && targets.has(field.ref.target)
          })
          .map((field) => ({ entity: e, field })),
  )
}

/**
 * Deletes the root row (an entity's own row goes with its parent's), a document's lines first,
 * each through the line's hooks and audit, and the rows that cascade with it through the
 * engine too (their hooks, audit entries and files, deepest first), not by the database alone.
 */
async function deleteOne(trx: Trx, ctx: Ctx, rowId: number): Promise<void> {
  const before = await lockRow(ctx, trx, rowId)
  await runBefore(ctx, trx, 'delete', before, null)
  for (const field of ctx.entity.linesFieldNames) {
    const lc = lineCtx(ctx, trx, ctx.entity, field)
    for (const line of before[field] as LineRow[]) await deleteLine(lc, line)
  }
  for (const child of cascadesTo(ctx.registry, ctx.entity)) {
    const table = storageOf(child.entity, child.field).name
    const rows = await sql<{ id: number }>`select id from ${id(table)} where ${sql.ref(child.field)} = ${rowId} and id <> ${rowId} order by id`.execute(trx)
    // The parent's delete was allowed: what goes with it is the system's doing, as the database's cascade would be.
    const childCtx = asSystem(ctx, child.entity, trx)
    for (const { id: childId } of rows.rows) {
      // A row an earlier cascade of this delete took (a sub category's own sub category) is gone already.
      const isGone = (await sql`select 1 from ${id(table)} where id = ${childId}`.execute(trx)).rows.length === 0
      if (!isGone) await deleteOne(trx, childCtx, Number(childId))
    }
  }
  await sql`delete from ${id(rootOf(ctx.entity).name)} where id = ${rowId}`.execute(trx)
  await writeAudit(trx, { actor: ctx.actor, entity: ctx.entity.name, entityId: rowId, action: 'delete', changes: auditChanges(ctx.entity, before, null, null) })
  await runAfter(ctx, trx, 'delete', rowId, before, null)
}

async function deleting<T>(ctx: Ctx, target: number | number[], work: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return ctx.db.isTransaction ? await work(ctx.db as Trx) : await ctx.db.transaction().execute(work)
  } catch (e) {
    const other = referencedBy(ctx.registry, e)
    if (!other) throw e
    throw new ConflictError(deleteMessage(ctx.entity, target, 'refused', other))
  }
}

/** Deletes one row; answers the contract's message (rendered in the request's language by the route). */
export async function deleteRow(ctx: Ctx, rowId: number): Promise<Message> {
  authorize(ctx, 'DELETE', rowId)
  await deleting(ctx, rowId, (trx) => deleteOne(trx, ctx, rowId))
  return deleteMessage(ctx.entity, rowId, 'deleted')
}

export async function deleteRows(ctx: Ctx, ids: number[]): Promise<Message> {
  authorize(ctx, 'DELETE')
  const unique = [...new Set(ids)]
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
export async function deleteImpact(ctx: Ctx, target: number | number[]): Promise<DeleteImpact> {
  authorize(ctx, 'DELETE', typeof target === 'number' ? target : undefined)
  const unique = typeof target === 'number' ? [target] : [...new Set(target)]
  const found = await sql<{ id: number }>`select id from ${source(ctx.entity)} t where id = any(${unique}::bigint[])`.execute(ctx.db)
  const have = new Set(found.rows.map((r) => Number(r.id)))
  for (const rowId of unique) {
    if (!have.has(rowId) || !(await isInScope(ctx, ctx.db, rowId))) {
      throw typeof target === 'number' ? notFound(ctx.entity, rowId) : new NotFoundError(deleteMessage(ctx.entity, [rowId], 'missing'))
    }
  }
  const references = await impactOf(ctx.db, ctx.registry, ctx.entity, unique)
  const refusing = references.find((r) => r.effect === 'refuse')
  const other = refusing ? ctx.registry.find((e) => e.name === refusing.entity) : undefined
  return {
    ids: unique,
    can_delete: refusing === undefined,
    references,
    ...(other ? { detail: deleteMessage(ctx.entity, typeof target === 'number' ? target : unique, 'refused', { model: modelName(other), labelKey: other.labelKey }) } : {}),
  }
}

// ---------------------------------------------------------------- custom actions

/** What an action's handler gets: the locked row, the validated input, and an engine context for its own writes. */
export type ActionArgs = {
  trx: Trx
  /** The row's id, and the row as stored when the action began. */
  id: number
  row: Row
  input: Values
  actor: Actor | null
  registry: Registry
  hooks?: HookRegistry
  /** Engine calls made by the handler (as the system, audited as the caller, in this transaction). */
  engine: (entity: Entity<string, Fields>) => Ctx
}
export type ActionHandler = (args: ActionArgs) => Promise<void> | void

/**
 * Runs a custom action on one row (`POST …/<action>/{id}`): the caller's permission for it,
 * the row within their scope and locked, the action available for the row in its state,
 * the input judged, then the domain's handler — all in one transaction — and an audit
 * entry named after the action with what changed. Answers the row as it is after.
 */
export async function runAction(ctx: Ctx, rowId: number, name: string, input: Values, handler: ActionHandler): Promise<Row> {
  const action = ctx.entity.actions[name]
  if (!action) throw new Error(`${ctx.entity.name} has no action ${name}`)
  authorize(ctx, { permission: action.permission })
  return inTransaction(ctx, async (trx) => {
    const before = await lockRow(ctx, trx, rowId)
    if (action.isAvailable && !action.isAvailable(before)) {
      throw new ConflictError({ key: 'action.not_available', params: { label: action.labelKey, entity: ctx.entity.labelKey } })
    }
    const fieldLabelKey = (field: string) => action.input[field]?.label ?? `field.${field}`
    const values = validateShape({ fields: action.input, fieldNames: action.inputNames, rules: [], linesFieldNames: [], fieldLabelKey }, input)
    await handler({ trx, id: rowId, row: before, input: values, actor: ctx.actor, registry: ctx.registry, hooks: ctx.hooks, engine: (entity) => asSystem(ctx, entity, trx) })
    const after = (await read(ctx, trx, rowId))!
    const changes = auditChanges(ctx.entity, before, after, null)
    if (action.inputNames.length > 0) changes._input = [null, values]
    await writeAudit(trx, { actor: ctx.actor, entity: ctx.entity.name, entityId: rowId, action: name, changes })
    return answer(ctx, trx, after)
  })
}

/** Filters of an entity's row scope, for domain code that lists rows itself. */
export const scopeFilters = (ctx: Ctx): Filter[] => scopeOf(ctx)

export type { Action }
