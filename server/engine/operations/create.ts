import type { Row } from '../../db/types'
import { authorize, type EngineCtx } from '../access'
import { writeAudit } from '../audit'
import { fillSlugs } from '../slugs'
import { numberRecord } from '../numbering'
import type { Values } from '../validate'
import { checkWithin } from '../within'
import { hasBeforeValidate, runAfter, runBefore, runBeforeValidate } from './hooks-run'
import { insertLines } from './lines'
import { answer, read } from './read'
import { checkReferences } from './references'
import { checkOwnVia, ownInput } from './own'
import { auditChanges, columnsOf, tablesOf, writeLinks } from './rows'
import { refuseForeignFiles } from '../uploads'
import { inTransaction } from './transaction'
import { fromClient, judge } from './values'
import { fillLookup } from './workflow'

/**
 * A new record: judged by the registry, its references checked, the domain's hooks run, its
 * row written — split between the parent's table and its own for an entity that extends
 * another — with its links, a document's lines and its audit entry, in one transaction.
 */
export async function createRow(ctx: EngineCtx, body: Values): Promise<Row> {
  const { entity, actor } = ctx
  authorize(ctx, 'CREATE')
  const input = ownInput(ctx, fromClient(ctx, body), 'create')
  // Without hooks that fill in values, judging (and hashing) need not hold a transaction.
  const early = hasBeforeValidate(ctx) ? undefined : await judge(ctx, ctx.db, entity, input, 'create')
  return inTransaction(ctx, async (trx) => {
    const prepared = early ?? (await judge(ctx, trx, entity, await runBeforeValidate(ctx, trx, 'create', null, input), 'create'))
    // A copy: a transaction tried again (a deadlock) makes its slugs again.
    const values = await fillSlugs(trx, entity, prepared, null)
    await numberRecord(trx, entity, values)
    await checkReferences(trx, ctx.registry, entity, values)
    await checkOwnVia(ctx, trx, values)
    await checkWithin(trx, ctx.registry, entity, values)
    // A workflow starts at its initial state unless code acting as the system says otherwise.
    if (entity.workflow && (values[entity.workflow.field] === undefined || values[entity.workflow.field] === null)) values[entity.workflow.field] = entity.workflow.initial
    await fillLookup(trx, entity, values)
    refuseForeignFiles(entity, values, null, ctx.uploads)
    await runBefore(ctx, trx, 'create', null, values, input)
    const [root, own] = tablesOf(entity)
    const audit = { created_by: actor?.id ?? null, updated_by: actor?.id ?? null }
    // A record whose id is that of the row a reference points at (a role's menu has the role's).
    const given = entity.idFrom ? { id: values[entity.idFrom] } : {}
    const inserted = await trx.insertInto(root!.table).values({ ...given, ...columnsOf(entity, values, root!.names), ...audit }).returning('id').executeTakeFirstOrThrow()
    const rowId = Number(inserted.id)
    if (own) await trx.insertInto(own.table).values({ id: rowId, ...columnsOf(entity, values, own.names) }).execute()
    await writeLinks(trx, entity, rowId, values, true)
    await insertLines(ctx, trx, rowId, values)
    const stored = (await read(ctx, trx, rowId))!
    await writeAudit(trx, { actor, entity: entity.name, entityId: rowId, action: 'create', changes: auditChanges(entity, null, stored, values) })
    await runAfter(ctx, trx, 'create', rowId, null, stored, values)
    // What followed may have set more (a line's cost as its goods moved).
    return answer(ctx, trx, entity.moves ? (await read(ctx, trx, rowId))! : stored)
  })
}
