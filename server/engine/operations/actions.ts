import type { Entity, Fields } from '../../../schema/kit'
import type { Row, Trx } from '../../db/types'
import { asSystem, authorize, type EngineCtx } from '../access'
import { writeAudit } from '../audit'
import { ConflictError } from '../errors'
import type { Actor, HookRegistry } from '../hooks'
import type { Registry } from '../list-query'
import { validateShape, type Values } from '../validate'
import { answer, lockRow, read } from './read'
import { auditChanges } from './rows'
import { inTransaction } from './transaction'
import { moveStatus, refuseTransition } from './workflow'
import { refuseOwned } from './owned'

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
  engine: (entity: Entity<string, Fields>) => EngineCtx
  /** The caller's language (Accept-Language), for what the action writes for a person. */
  language?: string
}
export type ActionHandler = (args: ActionArgs) => Promise<void> | void

/**
 * Runs a custom action on one row (`POST …/<action>/{id}`): the caller's permission for it,
 * the row within their scope and locked, the action available for the row in its state,
 * the input judged, then the domain's handler — all in one transaction — and an audit
 * entry named after the action with what changed. Answers the row as it is after.
 * A workflow's transition needs no handler: the engine moves the status (after the
 * domain's side effect, when a module gives one) and runs what follows from it.
 */
export async function runAction(ctx: EngineCtx, rowId: number, name: string, input: Values, handler: ActionHandler | undefined): Promise<Row> {
  const action = ctx.entity.actions[name]
  if (!action) throw new Error(`${ctx.entity.name} has no action ${name}`)
  authorize(ctx, { permission: action.permission })
  return inTransaction(ctx, async (trx) => {
    const before = await lockRow(ctx, trx, rowId)
    await refuseOwned(ctx, trx, before)
    refuseTransition(ctx, action, before)
    if (action.isAvailable && !action.isAvailable(before)) {
      throw new ConflictError({ key: 'action.not_available', params: { label: action.labelKey, entity: ctx.entity.labelKey } })
    }
    const fieldLabelKey = (field: string) => action.input[field]?.label ?? `field.${field}`
    const values = validateShape({ fields: action.input, fieldNames: action.inputNames, rules: [], linesFieldNames: [], fieldLabelKey }, input)
    await handler?.({ trx, id: rowId, row: before, input: values, actor: ctx.actor, registry: ctx.registry, hooks: ctx.hooks, engine: (entity) => asSystem(ctx, entity, trx), language: ctx.language })
    const after = action.transition ? await moveStatus(ctx, trx, action, rowId, before) : (await read(ctx, trx, rowId))!
    const changes = auditChanges(ctx.entity, before, after, null)
    if (action.inputNames.length > 0) changes._input = [null, values]
    await writeAudit(trx, { actor: ctx.actor, entity: ctx.entity.name, entityId: rowId, action: name, changes })
    return answer(ctx, trx, after)
  })
}
