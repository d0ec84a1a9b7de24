import { sql } from 'kysely'
import { isEditableIn, rootOf, storageOf, type Entity, type EntityAction, type Fields } from '../../../schema/kit'
import type { Executor, Row, Trx } from '../../db/types'
import type { Values } from '../validate'
import type { EngineCtx } from '../access'
import { ConflictError } from '../errors'
import { hooksOf } from '../hooks'
import { read } from './read'
import { fromWrite } from './hooks-run'

/**
 * A workflow's rules in the write layer (EntityConfig.workflow): a caller's plain update or
 * delete of a record whose status is outside `editableIn` is refused, naming the status; a
 * transition moves the status from a state it leaves from, or is refused naming both.
 * Code acting as the system (a transition's own handler, a posting) is not held back.
 */
const statusOf = (ctx: EngineCtx, row: Row) => String(row[ctx.entity.workflow!.field])

export function refuseLocked(ctx: EngineCtx, row: Row): void {
  if (ctx.access === 'system' || isEditableIn(ctx.entity, row)) return
  throw new ConflictError({ key: 'detail.workflow_locked', params: { entity: ctx.entity.labelKey, status: `option.${statusOf(ctx, row)}` } })
}

/** Refuses a transition the record's status does not allow. */
export function refuseTransition(ctx: EngineCtx, action: EntityAction, row: Row): void {
  if (!action.transition || action.transition.from.includes(statusOf(ctx, row))) return
  throw new ConflictError({ key: 'detail.transition_not_allowed', params: { action: action.labelKey, entity: ctx.entity.labelKey, status: `option.${statusOf(ctx, row)}` } })
}

/**
 * Moves the status to the transition's target and runs what follows from it (the
 * `afterTransition` hooks: a posting, a reversal), in the action's transaction. Answers the
 * record as it is after.
 */
export async function moveStatus(ctx: EngineCtx, trx: Trx, action: EntityAction, rowId: number, before: Row): Promise<Row> {
  const { field, to } = action.transition!
  const workflow = ctx.entity.workflow!
  const stamp = workflow.transitions[action.name]?.stamp
  const lookup = workflow.lookup
  // The status, the moment it moved (`stamp`) and the lookup row named as it, in the status's own table (the registry check holds them there).
  await sql`update ${sql.id(storageOf(ctx.entity, field).name)} set ${sql.ref(field)} = ${to}
    ${stamp ? sql`, ${sql.ref(stamp)} = now()` : sql``}
    ${lookup ? sql`, ${sql.ref(lookup.field)} = (${lookupRowOf(ctx.entity, to)})` : sql``}
    where id = ${rowId}`.execute(trx)
  await sql`update ${sql.id(rootOf(ctx.entity).name)} set updated_at = now(), updated_by = ${ctx.actor?.id ?? null} where id = ${rowId}`.execute(trx)
  const after = (await read(ctx, trx, rowId))!
  const hooks = hooksOf(ctx.hooks, ctx.entity).filter((h) => h.afterTransition)
  for (const h of hooks) await h.afterTransition!({ trx, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, transition: action.name, rowId, before, after, ...fromWrite(ctx, trx) })
  // What followed may have set more (a posting's number).
  return hooks.length > 0 ? (await read(ctx, trx, rowId))! : after
}


/** The id of the workflow's lookup row named as `state` (null when the lookup has no such row), as SQL. */
function lookupRowOf(entity: Entity<string, Fields>, state: string) {
  const lookup = entity.workflow!.lookup!
  const target = entity.fields[lookup.field]!.ref!.target
  return sql<number | null>`select id from ${sql.id(target)} where name = ${lookup.nameOf(state)} order by id limit 1`
}

/** A new record's lookup row (WorkflowConfig.lookup), named as the state it starts in. */
export async function fillLookup(db: Executor, entity: Entity<string, Fields>, values: Values): Promise<void> {
  const lookup = entity.workflow?.lookup
  if (!lookup) return
  const found = await sql<{ id: number | null }>`select (${lookupRowOf(entity, String(values[entity.workflow!.field]))}) as id`.execute(db)
  values[lookup.field] = found.rows[0]?.id ?? null
}
