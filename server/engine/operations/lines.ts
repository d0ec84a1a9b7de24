import { sql } from 'kysely'
import { lineLinkColumn, LINE_POSITION, type Entity, type Fields, type Message } from '../../../schema/kit'
import type { Trx } from '../../db/types'
import { asSystem, type EngineCtx } from '../access'
import { diff, writeAudit } from '../audit'
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

export async function insertLine(ctx: EngineCtx, docId: number, position: number, values: Values): Promise<void> {
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

async function updateLine(ctx: EngineCtx, before: LineRow, position: number, beforePosition: number, values: Values): Promise<void> {
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

export async function deleteLine(ctx: EngineCtx, before: LineRow): Promise<void> {
  const trx = ctx.db as Trx
  await runBefore(ctx, trx, 'delete', before, null)
  await sql`delete from ${sql.id(ctx.entity.name)} where id = ${before.id}`.execute(trx)
  await writeAudit(trx, { actor: ctx.actor, entity: ctx.entity.name, entityId: before.id, action: 'delete', changes: auditChanges(ctx.entity, before, null, null) })
  await runAfter(ctx, trx, 'delete', before.id, before, null)
}

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
