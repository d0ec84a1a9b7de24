import type { Entity, Fields } from '../../../schema/kit'
import { ValidationError } from '../errors'
import type { Row, Trx } from '../../db/types'
import { authorize, type EngineCtx } from '../access'
import { writeAudit } from '../audit'
import { fillSlugs } from '../slugs'
import type { Values } from '../validate'
import { checkWithin } from '../within'
import { runAfter, runBefore, runBeforeValidate } from './hooks-run'
import { mergeLines, syncLines } from './lines'
import { answer, lockRow, read } from './read'
import { checkReferences } from './references'
import { checkOwnVia, ownInput } from './own'
import { auditChanges, columnsOf, tablesOf, writeLinks, type LineRow } from './rows'
import { refuseForeignFiles } from '../uploads'
import { inTransaction } from './transaction'
import { refuseLocked } from './workflow'
import { refuseOwned } from './owned'
import { renumberIfMoved } from '../numbering'
import { asInput, checkNotStale, fromClient, judge } from './values'
import { sql } from 'kysely'

/**
 * The body laid over the stored row: a read-only field keeps its stored value unless the server
 * set it (a beforeValidate hook), a document's lines are laid over its stored lines, a write-only
 * field not sent stays as it is (null: keep the hash; a transient one is left out).
 */
export function mergeOver(entity: Entity<string, Fields>, before: Row, given: Values): Values {
  const merged: Values = {}
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (field.isReadOnly && !Object.hasOwn(given, name)) continue
    if (field.isReadOnly) merged[name] = given[name]
    else if (field.kind === 'lines') merged[name] = Object.hasOwn(given, name) ? mergeLines(entity, name, before[name] as LineRow[], given[name]) : asInput(entity, name, before[name])
    else merged[name] = Object.hasOwn(given, name) ? given[name] : field.isWriteOnly ? (field.isTransient ? undefined : null) : asInput(entity, name, before[name])
  }
  for (const name of Object.keys(merged)) if (merged[name] === undefined) delete merged[name]
  return merged
}

/**
 * A change judged up to its values, the caller's access to the entity and their input already
 * checked: the record's state (locked, another's, stale), the modules' beforeValidate, the body
 * over the stored row, validation and slugs. One order, shared by the bulk change
 * (bulk-update-batch.ts).
 */
export async function judgeChange(ctx: EngineCtx, trx: Trx, rowId: number, before: Row, input: Values): Promise<{ given: Values; values: Values }> {
  refuseLocked(ctx, before)
  await refuseOwned(ctx, trx, before)
  checkNotStale(before, input)
  const given = await runBeforeValidate(ctx, trx, 'update', before, input)
  const values = await fillSlugs(trx, ctx.entity, await judge(ctx, trx, ctx.entity, mergeOver(ctx.entity, before, given), 'update'), rowId)
  return { given, values }
}

/**
 * PUT and PATCH: the body is laid over the stored row (a document's lines over its stored
 * lines) and the result judged whole. Read-only fields keep their stored value; a
 * write-only field keeps its hash unless sent.
 */
export async function updateRow(ctx: EngineCtx, rowId: number, body: Values): Promise<Row> {
  const { entity, actor } = ctx
  authorize(ctx, 'UPDATE', rowId)
  const input = ownInput(ctx, fromClient(ctx, body), 'update')
  return inTransaction(ctx, async (trx) => {
    const before = await lockRow(ctx, trx, rowId)
    const { given, values } = await judgeChange(ctx, trx, rowId, before, input)
    await checkReferences(trx, ctx.registry, entity, values)
    await checkChange(ctx, trx, before, values, given)
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
    await runAfter(ctx, trx, 'update', rowId, before, after, values)
    // What followed may have set more (a line's cost as its goods moved again, a posting's number).
    return answer(ctx, trx, entity.moves || entity.posts ? (await read(ctx, trx, rowId))! : after)
  })
}

/**
 * What an update checks once its values are judged and its references found, before it is
 * stored: the caller's own rows, the scope of a `within`, a dated number's move, an id taken
 * from a reference, files of another record, and the entity's beforeWrite hooks. One order,
 * shared by the bulk change (bulk-update-batch.ts).
 */
export async function checkChange(ctx: EngineCtx, trx: Trx, before: Values, values: Values, given: Values): Promise<void> {
  const { entity } = ctx
  await checkOwnVia(ctx, trx, values)
  await checkWithin(trx, ctx.registry, entity, values)
  await renumberIfMoved(trx, entity, before, values)
  if (entity.idFrom && values[entity.idFrom] !== before[entity.idFrom]) {
    throw new ValidationError({ [entity.idFrom]: [{ key: 'validation.id_from', params: { label: entity.fieldLabelKey(entity.idFrom), entity: entity.labelKey } }] })
  }
  refuseForeignFiles(entity, values, before, ctx.uploads)
  await runBefore(ctx, trx, 'update', before, values, given)
}
