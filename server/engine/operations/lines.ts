import { sql } from 'kysely'
import { lineLinkColumn, LINE_POSITION, type Entity, type Fields, type Message } from '../../../schema/kit'
import type { Trx } from '../../db/types'
import { asSystem, type EngineCtx } from '../access'
import { diff, writeAudit, type Changes } from '../audit'
import { ValidationError } from '../errors'
import type { Values } from '../validate'
import { runAfter, runBefore } from './hooks-run'
import { read } from './read'
import { auditChanges, columnsOf, writeLinks, type LineRow } from './rows'
import { asInput } from './values'

/**
 * A document's lines (`f.lines`): each written through the line entity's hooks and audit,
 * in the document's transaction, as the system (the document's permission was checked).
 */
export const lineCtx = (ctx: EngineCtx, trx: Trx, document: Entity<string, Fields>, field: string): EngineCtx => asSystem(ctx, document.fields[field]!.lines!.entity, trx)

const isObject = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The lines an update sends, laid over the stored ones: a line with an `id` is that stored
 * line with the values sent; a bare value of the field's `scalar` is the stored line that
 * holds it, if any (so `menu_items: [3, 5]` keeps the lines of 3 and 5); the rest are new.
 * An `id` that is not one of this document's lines is refused.
 */
export function mergeLines(entity: Entity<string, Fields>, field: string, stored: readonly LineRow[], given: unknown): unknown {
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

/**
 * A row written as part of a larger write — a document's line, a row of a document kept one
 * row per line — through its entity's hooks, with its own audit entry. `columns` are the
 * engine's own (a line's document and place); `audited` what of them the audit entry says.
 */
export async function insertChildRow(ctx: EngineCtx, values: Values, columns: Values = {}, audited: Changes = {}): Promise<number> {
  const trx = ctx.db as Trx
  const entity = ctx.entity
  const { id: _ignored, ...fields } = values
  await runBefore(ctx, trx, 'create', null, fields)
  const audit = { created_by: ctx.actor?.id ?? null, updated_by: ctx.actor?.id ?? null }
  const inserted = await trx
    .insertInto(entity.name)
    .values({ ...columnsOf(entity, fields, entity.fieldNames), ...columns, ...audit })
    .returning('id')
    .executeTakeFirstOrThrow()
  const rowId = Number(inserted.id)
  await writeLinks(trx, entity, rowId, fields, true)
  const stored = (await read(ctx, trx, rowId))!
  await writeAudit(trx, { actor: ctx.actor, entity: entity.name, entityId: rowId, action: 'create', changes: { ...auditChanges(entity, null, stored, fields), ...audited } })
  await runAfter(ctx, trx, 'create', rowId, null, stored)
  return rowId
}

/** Whether a row sent back as it is stored (same values, same place): nothing to write. */
function isUnchanged(entity: Entity<string, Fields>, before: LineRow, fields: Values): boolean {
  const names = entity.fieldNames.filter((n) => entity.fields[n]!.sql !== undefined || entity.fields[n]!.kind === 'refs').filter((n) => fields[n] !== undefined)
  return Object.keys(diff(before, fields, names)).length === 0
}

export async function updateChildRow(ctx: EngineCtx, before: LineRow, values: Values, columns: Values = {}, audited: Changes = {}): Promise<void> {
  const trx = ctx.db as Trx
  const entity = ctx.entity
  const { id: rowId, ...fields } = values as Values & { id: number }
  if (Object.keys(audited).length === 0 && isUnchanged(entity, before, fields)) return
  await runBefore(ctx, trx, 'update', before, fields)
  await trx
    .updateTable(entity.name)
    .set({ ...columnsOf(entity, fields, entity.fieldNames), ...columns, updated_by: ctx.actor?.id ?? null, updated_at: sql`now()` })
    .where('id', '=', rowId)
    .execute()
  await writeLinks(trx, entity, rowId, fields, false)
  const after = (await read(ctx, trx, rowId))!
  const changes = { ...auditChanges(entity, before, after, fields), ...audited }
  if (Object.keys(changes).length > 0) await writeAudit(trx, { actor: ctx.actor, entity: entity.name, entityId: rowId, action: 'update', changes })
  await runAfter(ctx, trx, 'update', rowId, before, after)
}

export async function deleteChildRow(ctx: EngineCtx, before: LineRow): Promise<void> {
  const trx = ctx.db as Trx
  await runBefore(ctx, trx, 'delete', before, null)
  await sql`delete from ${sql.id(ctx.entity.name)} where id = ${before.id}`.execute(trx)
  await writeAudit(trx, { actor: ctx.actor, entity: ctx.entity.name, entityId: before.id, action: 'delete', changes: auditChanges(ctx.entity, before, null, null) })
  await runAfter(ctx, trx, 'delete', before.id, before, null)
}

const insertLine = (ctx: EngineCtx, docId: number, position: number, values: Values) =>
  insertChildRow(ctx, values, { [lineLinkColumn(ctx.entity)]: docId, [LINE_POSITION]: position }, { [LINE_POSITION]: [null, position] })

/** A line's place moves with it: the audit entry says from where to where. */
const updateLine = (ctx: EngineCtx, before: LineRow, position: number, beforePosition: number, values: Values) =>
  updateChildRow(ctx, before, values, { [LINE_POSITION]: position }, position !== beforePosition ? { [LINE_POSITION]: [beforePosition, position] } : {})

export const deleteLine = deleteChildRow

/** Brings a document's stored lines to the validated ones: changed lines updated, new ones added, those left out removed — each through the line's hooks and audit. */
export async function syncLines(ctx: EngineCtx, trx: Trx, docId: number, field: string, stored: readonly LineRow[], lines: readonly Values[]): Promise<void> {
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

/** Writes a new document's lines, in order; a line that names an `id` is refused (it belongs to no stored document). */
export async function insertLines(ctx: EngineCtx, trx: Trx, docId: number, values: Values): Promise<void> {
  for (const field of ctx.entity.linesFieldNames) {
    const lines = (values[field] as Values[] | null) ?? []
    const withId = lines.findIndex((l) => l.id !== undefined)
    if (withId >= 0) throw new ValidationError({ [`${field}.${withId}.id`]: [{ key: 'validation.line_id', params: { label: 'field.line' } }] })
    const lc = lineCtx(ctx, trx, ctx.entity, field)
    for (const [i, line] of lines.entries()) await insertLine(lc, docId, i, line)
  }
}
