import { isBuiltInRow, type Entity, type Fields, type Message } from '../../../schema/kit'
import type { Row, Trx } from '../../db/types'
import { asSystem, type EngineCtx } from '../access'
import { BusinessError, ForbiddenError } from '../errors'
import { hooksOf, type WriteAction } from '../hooks'
import type { Values } from '../validate'

/** The domain's hooks as a write runs them (hooks.ts), and the built-in rows no write may rename or delete. */

/** Why a built-in row may not be renamed or deleted, naming it. */
export function builtInRefusal(entity: Entity<string, Fields>, row: Row): Message {
  const field = entity.builtIn!.field
  // A flag (is_deletable false) says nothing about which row it is: its label does.
  const value = typeof row[field] === 'boolean' ? row[entity.labelField] : row[field]
  return { key: entity.builtIn!.message, params: { entity: entity.labelKey, value: String(value) } }
}

/** What a hook gets of the write that runs it: engine calls in its transaction, its caller's language. */
export const fromWrite = (ctx: EngineCtx, trx: Trx) => ({ engine: (entity: Entity<string, Fields>) => asSystem(ctx, entity, trx), language: ctx.language })

export async function runBeforeValidate(ctx: EngineCtx, trx: Trx, action: WriteAction, before: Row | null, input: Values): Promise<Values> {
  const hooks = hooksOf(ctx.hooks, ctx.entity).filter((h) => h.beforeValidate)
  if (hooks.length === 0) return input
  const changed = { ...input }
  for (const h of hooks) await h.beforeValidate!({ trx, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, action, before, input: changed, ...fromWrite(ctx, trx) })
  return changed
}

export const hasBeforeValidate = (ctx: EngineCtx) => hooksOf(ctx.hooks, ctx.entity).some((h) => h.beforeValidate)

export async function runBefore(ctx: EngineCtx, trx: Trx, action: WriteAction, before: Row | null, values: Values | null, input: Values = {}): Promise<void> {
  const builtIn = ctx.entity.builtIn
  if (builtIn && isBuiltInRow(ctx.entity, before) && (action === 'delete' || (values !== null && builtIn.field in values && values[builtIn.field] !== before![builtIn.field]))) {
    throw new BusinessError(builtInRefusal(ctx.entity, before!))
  }
  for (const h of hooksOf(ctx.hooks, ctx.entity)) {
    await h.beforeWrite?.({ trx, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, action, before, values, input, ...fromWrite(ctx, trx) })
  }
  // A field only an admin may set (Field.isAdminOnly): another caller may send it only as it is
  // (after the domain's rules, whose own words about it come first).
  if (ctx.actor && !ctx.actor.isAdmin && values) {
    const set = ctx.entity.fieldNames.find((n) => {
      const field = ctx.entity.fields[n]!
      return field.isAdminOnly && n in values && values[n] !== (before ? before[n] : (field.defaultValue ?? null))
    })
    if (set) throw new ForbiddenError({ key: 'detail.admin_only_field', params: { label: ctx.entity.fieldLabelKey(set) } })
  }
}

export async function runAfter(ctx: EngineCtx, trx: Trx, action: WriteAction, rowId: number, before: Row | null, after: Row | null, values: Values = {}): Promise<void> {
  for (const h of hooksOf(ctx.hooks, ctx.entity)) {
    await h.afterWrite?.({ trx, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, action, rowId, before, after, values, ...fromWrite(ctx, trx) })
  }
}

export async function runAfterRead(ctx: EngineCtx, rows: Row[], shape: 'record' | 'list'): Promise<void> {
  for (const h of hooksOf(ctx.hooks, ctx.entity)) {
    if (rows.length > 0) await h.afterRead?.({ db: ctx.db, registry: ctx.registry, entity: ctx.entity, actor: ctx.actor, rows, shape })
  }
}
