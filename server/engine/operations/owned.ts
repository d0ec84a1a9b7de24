import { sql } from 'kysely'
import { storageOf, type Entity, type Fields, type Message } from '../../../schema/kit'
import type { Executor, Row } from '../../db/types'
import type { EngineCtx } from '../access'
import type { ImpactItem } from '../delete-impact'
import { ConflictError } from '../errors'
import { postedBy } from '../posting'

/**
 * A document another record posted (`posts: { as: <entity> }`: a donation's receipt, a cause's
 * sales entry) belongs to that record: it is written, reposted and cancelled with it, so a
 * caller's own update, delete or action on the document is refused (409), naming the record
 * to change instead — otherwise the ledger and the record would disagree. The record's own
 * writes reach the document as the system, and are not held back.
 */
export type Owner = { entity: Entity<string, Fields>; id: number }

/** The record that posted this row's document, when a caller (not the system) is the one writing. */
export async function ownerOf(ctx: EngineCtx, db: Executor, row: Row): Promise<Owner | undefined> {
  const numbering = ctx.entity.numbering
  const number = numbering ? row[numbering.field] : undefined
  if (ctx.access === 'system' || typeof number !== 'string' || number === '') return undefined
  return postedBy(db, ctx.registry, ctx.entity, number)
}

export const ownedMessage = (entity: Entity<string, Fields>, owner: Owner): Message => ({
  key: 'detail.posted_by_record',
  params: { entity: entity.labelKey, label: `${owner.entity.labelKey}.one`, id: owner.id },
})

export async function refuseOwned(ctx: EngineCtx, db: Executor, row: Row): Promise<void> {
  const owner = await ownerOf(ctx, db, row)
  if (owner) throw new ConflictError(ownedMessage(ctx.entity, owner))
}

/** The record that posted any of these rows' documents (a delete of several asks), for a caller. */
export async function ownerOfAny(ctx: EngineCtx, db: Executor, ids: readonly number[]): Promise<Owner | undefined> {
  const numbering = ctx.entity.numbering
  if (!numbering || ctx.access === 'system' || !ctx.registry.some((e) => e.posts?.as === ctx.entity.name)) return undefined
  const numbers = await sql<{ number: string | null }>`select distinct ${sql.ref(numbering.field)} as number from ${sql.id(storageOf(ctx.entity, numbering.field).name)} where id = any(${[...ids]}::bigint[])`.execute(db)
  for (const { number } of numbers.rows) {
    const owner = await ownerOf(ctx, db, { [numbering.field]: number })
    if (owner) return owner
  }
  return undefined
}

/** What a delete's confirmation says of it: the record it belongs to refuses the delete. */
export const ownerImpact = (owner: Owner): ImpactItem => ({ entity: owner.entity.name, field: owner.entity.posts!.number, count: 1, effect: 'refuse' })
