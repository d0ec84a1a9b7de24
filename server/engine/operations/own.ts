import { sql } from 'kysely'
import type { Trx } from '../../db/types'
import { isOwnerOnly, type EngineCtx } from '../access'
import { ValidationError } from '../errors'
import { refTarget } from '../list-query'
import type { Values } from '../validate'

/**
 * Writes of a caller who reaches an entity's rows only as their own (EntityConfig.own): a
 * record they write names them in `field`, whatever they sent; one written through `via`
 * must name a record of theirs. Reads and the rows a write may touch are narrowed by the
 * row scope (access.ts scopeOf). An `own.field` no client may set (read-only) is its
 * writer's whoever writes: a record anyone creates names them (an admin's saved view is theirs).
 */
export function ownInput(ctx: EngineCtx, input: Values, mode: 'create' | 'update'): Values {
  const field = ctx.entity.own?.field
  if (ctx.access === 'system' || !field || !ctx.actor) return input
  if (isOwnerOnly(ctx.entity, ctx.actor) || (mode === 'create' && ctx.entity.fields[field]?.isReadOnly)) return { ...input, [field]: ctx.actor.id }
  return input
}

/** A record written through `via` by such a caller names a record of theirs, or its field is refused as an unknown one. */
export async function checkOwnVia(ctx: EngineCtx, trx: Trx, values: Values): Promise<void> {
  const via = ctx.entity.own?.via
  if (ctx.access === 'system' || !via || !isOwnerOnly(ctx.entity, ctx.actor)) return
  const value = values[via]
  if (value === undefined || value === null) return
  const target = refTarget(ctx.registry, ctx.entity, via)
  const found = await sql<{ id: number }>`select id from ${sql.id(target.name)} where id = ${value} and ${sql.ref(target.own!.field!)} = ${ctx.actor.id}`.execute(trx)
  // Another's record is answered as one that does not exist: its existence is not theirs to learn.
  if (found.rows.length === 0) throw new ValidationError({ [via]: [{ key: 'validation.ref_missing', params: { value: value as number } }] })
}
