import { sql } from 'kysely'
import { documentOf, type Entity, type Fields } from '../../../schema/kit'
import type { Executor, Row, Trx } from '../../db/types'
import { asSystem, authorize, type EngineCtx } from '../access'
import { ConflictError, NotFoundError } from '../errors'
import { hooksOf, type WriteAction } from '../hooks'
import { LABELS } from '../list-query'
import { numberRecord, renumberIfMoved } from '../numbering'
import type { Values } from '../validate'
import { deleteMessage } from './delete'
import { runAfterRead } from './hooks-run'
import { deleteChildRow, insertChildRow, mergeLines, updateChildRow } from './lines'
import { isInScope, notFound, read } from './read'
import { checkReferences } from './references'
import type { LineRow } from './rows'
import { refuseForeignFiles } from '../uploads'
import { inTransaction } from './transaction'
import { refuseOwned } from './owned'
import { asInput, checkNotStale, fromClient, judge } from './values'

/**
 * Documents kept one row per line (`rowsPerLine`: the contract's vouchers). A client reads
 * and writes the document — its header and its lines (`documentOf`), judged by the
 * registry's rules with the facts they need — and the engine keeps its rows: every row holds
 * the header and one line, each written through the entity's hooks with its own audit entry,
 * all in one transaction. A document is reached by the id of any of its rows (the contract's
 * ids are rows'); its key (a voucher's number) is the server's. The rows are the engine's own
 * doing once the document is allowed (as the system, audited as the caller). After the rows,
 * the entity's `afterDocumentWrite` hooks see the whole document (a posting).
 */
const specOf = (entity: Entity<string, Fields>) => {
  if (!entity.rowsPerLine) throw new Error(`${entity.name} is not kept one row per line`)
  return entity.rowsPerLine
}

/**
 * A row's document key; a row that does not exist, or that the caller may not reach, is not
 * found. For a write (`isWrite`), a row that another write of its document removed — an update
 * that replaced its lines, perhaps while this one waited — says so: the document changed meanwhile.
 */
async function keyOfRow(ctx: EngineCtx, db: Executor, rowId: number, isWrite = false): Promise<string> {
  const { key } = specOf(ctx.entity)
  const found = await sql<{ key: string | null }>`select ${sql.ref(key)} as key from ${sql.id(ctx.entity.name)} where id = ${rowId}`.execute(db)
  const value = found.rows[0]?.key
  if (value === undefined || value === null) throw isWrite ? await missingRow(ctx, db, rowId) : notFound(ctx.entity, rowId)
  if (!(await isInScope(ctx, db, rowId))) throw notFound(ctx.entity, rowId)
  return value
}

/**
 * What became of a row that is not there, from the audit log (every row's delete is audited
 * with its values): removed from a document that still stands — 409, that document changed
 * meanwhile — or never there, or its document deleted — 404.
 */
async function missingRow(ctx: EngineCtx, db: Executor, rowId: number): Promise<Error> {
  const { key } = specOf(ctx.entity)
  const deleted = await sql<{ key: string | null }>`
    select a.changes -> ${key} ->> 0 as key from audit_log a
    where a.entity = ${ctx.entity.name} and a.entity_id = ${rowId} and a.action = 'delete'
    order by a.id desc limit 1`.execute(db)
  const was = deleted.rows[0]?.key
  const standing = was ? await sql<{ id: number }>`select id from ${sql.id(ctx.entity.name)} where ${sql.ref(key)} = ${was} order by id limit 1`.execute(db) : undefined
  const row = standing?.rows[0]
  if (!was || !row || !(await isInScope(ctx, db, Number(row.id)))) return notFound(ctx.entity, rowId)
  return new ConflictError({ key: 'detail.changed_meanwhile', params: { entity: ctx.entity.labelKey, key: was } })
}

/** The stored rows of a document, in the order they were written (locked for a write that changes them). */
async function rowsOf(ctx: EngineCtx, db: Executor, key: string, lock = false): Promise<LineRow[]> {
  const ids = await sql<{ id: number }>`select id from ${sql.id(ctx.entity.name)} where ${sql.ref(specOf(ctx.entity).key)} = ${key} order by id ${lock ? sql`for update` : sql``}`.execute(db)
  const rows: LineRow[] = []
  for (const { id } of ids.rows) rows.push((await read(ctx, db, Number(id))) as LineRow)
  return rows
}

/** The rows of a document as they stand, in one statement: their ids and when each last changed. */
async function versionOf(ctx: EngineCtx, db: Executor, key: string): Promise<string> {
  const r = await sql<{ version: string | null }>`
    select string_agg(id::text || '@' || updated_at::text, ',' order by id) as version
    from ${sql.id(ctx.entity.name)} where ${sql.ref(specOf(ctx.entity).key)} = ${key}`.execute(db)
  return r.rows[0]?.version ?? ''
}

/**
 * The rows of a document, locked for a write that read them as `seen` before it asked for the
 * lock. Another write that held them meanwhile (a parallel update or cancel of the same
 * voucher) has changed them: this one is refused — 409 saying so, or 404 when the document is
 * gone — rather than carried out over rows it never read.
 */
async function lockRows(ctx: EngineCtx, trx: Trx, key: string, seen: string, rowId: number): Promise<LineRow[]> {
  const stored = await rowsOf(ctx, trx, key, true)
  const now = await versionOf(ctx, trx, key)
  if (now === '') throw notFound(ctx.entity, rowId)
  if (now !== seen) throw new ConflictError({ key: 'detail.changed_meanwhile', params: { entity: ctx.entity.labelKey, key } })
  return stored
}

const pick = (source: Readonly<Record<string, unknown>>, names: readonly string[]) => Object.fromEntries(names.filter((n) => n in source).map((n) => [n, source[n]]))

/** The document its rows make: the header of the first, each row's line (with its row's id), the newest change. */
export function documentOfRows(entity: Entity<string, Fields>, rows: readonly LineRow[]): Row {
  const spec = specOf(entity)
  const shape = documentOf(entity)
  const first = rows[0]!
  const header = shape.fieldNames.filter((n) => n !== spec.lines)
  const labelsOf = (row: Row, names: readonly string[]) => pick((row[LABELS] as Record<string, unknown> | undefined) ?? {}, names)
  const latest = rows.reduce((a, b) => (new Date(String(b.updated_at)) > new Date(String(a.updated_at)) ? b : a))
  return {
    id: first.id,
    ...pick(first, header),
    [spec.lines]: rows.map((row) => ({ id: row.id, ...pick(row, spec.lineFields), [LABELS]: labelsOf(row, spec.lineFields) })),
    created_at: first.created_at,
    updated_at: latest.updated_at,
    created_by: first.created_by,
    updated_by: latest.updated_by,
    [LABELS]: labelsOf(first, header),
  }
}

async function afterDocument(ctx: EngineCtx, trx: Trx, action: WriteAction, before: Row | null, after: Row | null): Promise<void> {
  for (const h of hooksOf(ctx.hooks, ctx.entity)) {
    await h.afterDocumentWrite?.({ trx, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, action, before, after })
  }
}

/** A row's values: the document's header and one of its lines. */
const rowValues = (header: Values, line: Values): Values => ({ ...header, ...line })

const headerOf = (entity: Entity<string, Fields>, doc: Values): Values => {
  const { lines } = specOf(entity)
  const { [lines]: _lines, ...header } = doc
  return header
}

/** One document, by the id of any of its rows. */
export async function readDocument(ctx: EngineCtx, rowId: number): Promise<Row> {
  authorize(ctx, 'DETAILS', rowId)
  const key = await keyOfRow(ctx, ctx.db, rowId)
  const rows = await rowsOf(ctx, ctx.db, key)
  await runAfterRead(ctx, rows, 'record')
  return documentOfRows(ctx.entity, rows)
}

/** A document by its key (a voucher by its number), or undefined. */
export async function findDocument(ctx: EngineCtx, key: string): Promise<Row | undefined> {
  authorize(ctx, 'DETAILS')
  const rows = await rowsOf(ctx, ctx.db, key)
  const shown: LineRow[] = []
  for (const row of rows) if (await isInScope(ctx, ctx.db, row.id)) shown.push(row)
  if (shown.length === 0) return undefined
  await runAfterRead(ctx, shown, 'record')
  return documentOfRows(ctx.entity, shown)
}

/**
 * A new document: judged whole, numbered (its key, unless code acting as the system gives
 * one), its references checked, a row per line written, then the document hooks. Answers the
 * document as stored.
 */
export async function createDocument(ctx: EngineCtx, body: Values): Promise<Row> {
  authorize(ctx, 'CREATE')
  const spec = specOf(ctx.entity)
  const shape = documentOf(ctx.entity)
  const input = fromClient({ entity: shape, access: ctx.access }, body)
  return inTransaction(ctx, async (trx) => {
    const doc = await judge(ctx, trx, shape, input, 'create')
    await numberRecord(trx, ctx.entity, doc)
    await checkReferences(trx, ctx.registry, shape, doc)
    refuseForeignFiles(shape, doc, null, ctx.uploads)
    const rows = asSystem(ctx, ctx.entity, trx)
    const header = headerOf(ctx.entity, doc)
    for (const line of (doc[spec.lines] as Values[] | null) ?? []) await insertChildRow(rows, rowValues(header, line))
    const after = documentOfRows(ctx.entity, await rowsOf(ctx, trx, String(doc[spec.key])))
    await afterDocument(ctx, trx, 'create', null, after)
    return after
  })
}

/**
 * A document changed, by the id of any of its rows: the body is laid over the stored
 * document (its lines over the stored lines: by `id`; a line left out is removed) and judged
 * whole; every row gets the new header, changed lines their values, new lines a row. The key
 * stays. Answers the document as stored.
 */
export async function updateDocument(ctx: EngineCtx, rowId: number, body: Values, found: { key?: string } = {}): Promise<Row> {
  authorize(ctx, 'UPDATE', rowId)
  const spec = specOf(ctx.entity)
  const shape = documentOf(ctx.entity)
  const input = fromClient({ entity: shape, access: ctx.access }, body)
  return inTransaction(ctx, async (trx) => {
    // A caller that found the document by its key (`findDocument`: a voucher by its number) names it so: what
    // became of the row it read meanwhile is then said of the document, not of that row.
    const key = found.key ?? (await keyOfRow(ctx, trx, rowId, true))
    const stored = await lockRows(ctx, trx, key, await versionOf(ctx, trx, key), rowId)
    const before = documentOfRows(ctx.entity, stored)
    await refuseOwned(ctx, trx, before)
    checkNotStale(before, input)
    const merged: Values = {}
    for (const name of shape.fieldNames) {
      const field = shape.fields[name]!
      if (field.isReadOnly) continue
      if (name === spec.lines) merged[name] = Object.hasOwn(input, name) ? mergeLines(shape, name, before[name] as LineRow[], input[name]) : asInput(shape, name, before[name])
      else merged[name] = Object.hasOwn(input, name) ? input[name] : asInput(shape, name, before[name])
    }
    const doc = await judge(ctx, trx, shape, merged, 'update')
    doc[spec.key] = key
    // Moved to another day: the document takes that day's next number (numbering.ts).
    await renumberIfMoved(trx, ctx.entity, before, doc)
    await checkReferences(trx, ctx.registry, shape, doc)
    refuseForeignFiles(shape, doc, before, ctx.uploads)
    const rows = asSystem(ctx, ctx.entity, trx)
    const header = headerOf(ctx.entity, doc)
    const lines = (doc[spec.lines] as Values[] | null) ?? []
    const kept = new Set(lines.map((l) => l.id).filter((id): id is number => typeof id === 'number'))
    for (const row of stored) if (!kept.has(row.id)) await deleteChildRow(rows, row)
    for (const line of lines) {
      const row = typeof line.id === 'number' ? stored.find((r) => r.id === line.id) : undefined
      if (row) await updateChildRow(rows, row, { ...rowValues(header, line), id: row.id })
      else await insertChildRow(rows, rowValues(header, line))
    }
    const after = documentOfRows(ctx.entity, await rowsOf(ctx, trx, String(doc[spec.key])))
    await afterDocument(ctx, trx, 'update', before, after)
    return after
  })
}

async function deleteByKey(ctx: EngineCtx, trx: Trx, key: string, rowId: number): Promise<void> {
  const stored = await lockRows(ctx, trx, key, await versionOf(ctx, trx, key), rowId)
  const before = documentOfRows(ctx.entity, stored)
  await refuseOwned(ctx, trx, before)
  const rows = asSystem(ctx, ctx.entity, trx)
  for (const row of stored) await deleteChildRow(rows, row)
  await afterDocument(ctx, trx, 'delete', before, null)
}

/** Deletes the document a row belongs to, every row through the entity's hooks and audit; answers the contract's message. */
export async function deleteDocument(ctx: EngineCtx, rowId: number) {
  authorize(ctx, 'DELETE', rowId)
  await inTransaction(ctx, async (trx) => deleteByKey(ctx, trx, await keyOfRow(ctx, trx, rowId, true), rowId))
  return deleteMessage(ctx.entity, rowId, 'deleted')
}

/** Deletes the documents of several rows, all or none: a row that does not exist is a 404 and nothing is deleted. */
export async function deleteDocuments(ctx: EngineCtx, rowIds: readonly number[]) {
  authorize(ctx, 'DELETE')
  const unique = [...new Set(rowIds)]
  await inTransaction(ctx, async (trx) => {
    // Each document once, by the first of its rows named.
    const keys = new Map<string, number>()
    for (const rowId of unique) {
      try {
        const key = await keyOfRow(ctx, trx, rowId)
        if (!keys.has(key)) keys.set(key, rowId)
      } catch (e) {
        if (e instanceof NotFoundError) throw new NotFoundError(deleteMessage(ctx.entity, [rowId], 'missing'))
        throw e
      }
    }
    for (const [key, rowId] of keys) await deleteByKey(ctx, trx, key, rowId)
  })
  return deleteMessage(ctx.entity, unique, 'deleted')
}
