import { sql } from 'kysely'
import { utcDay } from '../../schema/kit/dates'
import { statesAfter, type Entity, type Fields } from '../../schema/kit'
import type { Row, Trx } from '../db/types'
import type { Actor, EntityHooks, HookContext, HookRegistry } from './hooks'
import type { Registry } from './list-query'
import { numberDayOf } from './numbering'

/**
 * Documents that move stock (EntityConfig.moves), as posted documents post (posting.ts): the
 * engine decides when a record moves its stock, moves it again and undoes it — in the
 * transaction of the write or transition that causes it — and the domain says what it moves
 * (its module's `stockMoves`). Keeping the stock itself is the inventory module's
 * (`StockKeeper`): the engine never touches its tables.
 */

/**
 * One line of what a document moves: whole units in (+, at `unitCost`, or at the moving
 * average when it gives none) or out (−, at the moving average), or a count (`counted`: the
 * quantity found, whose difference from what is on hand moves, in or out as above).
 */
export type StockMovement = {
  product: number
  quantity?: number
  counted?: number
  unitCost?: string | null
  /** The document's line it is (its row id): where `moves.lineCost` keeps the cost it moved at. */
  line?: number
}

/** What the engine gives a module's movement function. */
export type StockMovesArgs = { trx: Trx; registry: Registry; hooks: HookRegistry | undefined; actor: Actor | null; entity: Entity<string, Fields>; record: Row }
/** A module's movements of one entity's records (`stockMoves: { <entity>: … }`). */
export type StockMovesOf = (args: StockMovesArgs) => Promise<readonly StockMovement[]> | readonly StockMovement[]

/** Where the stock is kept, by the module that keeps it. */
/** The app's registry and hooks, for the writes that follow a movement (a notice of low stock). */
export type Engine = { registry: Registry; hooks: HookRegistry | undefined }

export interface StockKeeper {
  /**
   * Moves the document's stock (it is `type` the entity's name, `id` its row); a refusal throws
   * and writes nothing. Answers, for each movement, the unit cost it moved at (null: nothing moved).
   */
  move(trx: Trx, entry: { type: string; id: number; number: string; date: string; movements: readonly StockMovement[]; actor: Actor | null } & Engine): Promise<ReadonlyArray<string | null>>
  /** Undoes what stands of the document (nothing standing: nothing to do); refused while its goods are gone. */
  reverse(trx: Trx, entry: { type: string; id: number; date: string; actor: Actor | null } & Engine): Promise<void>
  /** What stands of the document, as movements of whole units (empty: nothing). */
  standing(trx: Trx, entry: { type: string; id: number }): Promise<readonly StockMovement[]>
}

type Deps = { stock: StockKeeper | undefined; movesOf: ReadonlyMap<string, StockMovesOf>; hooks: () => HookRegistry | undefined }

/** Movements in a form two of them compare in: per product, the units and the cost in, in product order. */
const comparable = (movements: readonly StockMovement[]) =>
  JSON.stringify([...movements].map((m) => [m.product, m.quantity ?? null, m.counted ?? null, m.quantity !== undefined && m.quantity > 0 ? Number(m.unitCost ?? 0) : null]).sort((a, b) => Number(a[0]) - Number(b[0]) || String(a).localeCompare(String(b))))

/** The stock machinery of one entity: move, move again when changed, undo. */
export function stockMover(entity: Entity<string, Fields>, deps: Deps) {
  const spec = entity.moves!
  const { stock } = deps
  const movesOf = deps.movesOf.get(entity.name)
  if (!stock) throw new Error(`'${entity.name}' moves stock, but no module keeps it (a DomainModule's \`stock\`)`)
  if (!movesOf) throw new Error(`'${entity.name}' moves stock, but no module says what: give \`stockMoves: { ${entity.name}: … }\` in a DomainModule`)

  const numberOf = (record: Row) => {
    const number = record[spec.number]
    return typeof number === 'string' && number !== '' ? number : undefined
  }

  /** The line entity whose rows keep the cost they moved at (`moves.lineCost`). */
  const costLine = spec.lineCost ? entity.fields[spec.lineCost.lines]?.lines?.entity : undefined

  /**
   * Brings what stands of the record to what it moves now: nothing when the same, else undone
   * and moved again — dated `date` (default: the record's date field).
   */
  async function sync(trx: Trx, ctx: Pick<HookContext, 'registry' | 'actor'>, id: number, record: Row, at?: string): Promise<void> {
    const number = numberOf(record)
    if (!number) return
    // As the module gives them, one per line: a refused one is named by its line's place.
    const movements = await movesOf!({ trx, registry: ctx.registry, hooks: deps.hooks(), actor: ctx.actor, entity, record })
    const standing = await stock!.standing(trx, { type: entity.name, id })
    // A count moves what differs from what is on hand at the time: it is never "the same".
    const isCount = movements.some((m) => m.counted !== undefined)
    if (standing.length > 0 && !isCount && comparable(standing) === comparable(movements)) return
    const date = at ?? numberDayOf(record, spec.date)
    if (standing.length > 0) await stock!.reverse(trx, { type: entity.name, id, date, actor: ctx.actor, registry: ctx.registry, hooks: deps.hooks() })
    if (movements.length === 0) return
    const costs = await stock!.move(trx, { type: entity.name, id, number, date, movements, actor: ctx.actor, registry: ctx.registry, hooks: deps.hooks() })
    if (!costLine) return
    for (const [i, m] of movements.entries()) {
      if (m.line !== undefined && costs[i] !== null && costs[i] !== undefined) {
        await sql`update ${sql.id(costLine.name)} set ${sql.ref(spec.lineCost!.field)} = ${costs[i]}::numeric where id = ${m.line}`.execute(trx)
      }
    }
  }

  /** The states in which what `on` moved stands (until a `reverseOn` transition undoes it). */
  const movedIn = spec.on === 'create' ? new Set<string>() : statesAfter(entity, spec.on, spec.reverseOn)

  /**
   * A record changed in a state where what its transition moved stands (a confirmed order's
   * items): its goods move as it now is — again, or for the first time when it moved nothing
   * then — dated today.
   */
  async function resyncInState(trx: Trx, ctx: Pick<HookContext, 'registry' | 'actor'>, id: number, record: Row): Promise<void> {
    if (!entity.workflow || !movedIn.has(String(record[entity.workflow.field]))) return
    await sync(trx, ctx, id, record, utcDay())
  }

  async function reverse(trx: Trx, ctx: Pick<HookContext, 'registry' | 'actor'>, id: number, record: Row | null): Promise<void> {
    if ((await stock!.standing(trx, { type: entity.name, id })).length === 0) return
    await stock!.reverse(trx, { type: entity.name, id, date: numberDayOf(record ?? {}, undefined), actor: ctx.actor, registry: ctx.registry, hooks: deps.hooks() })
  }

  return { sync, resyncInState, reverse, movesOnCreate: spec.on === 'create' }
}

/**
 * The engine hooks of every entity that moves stock: moved after the row (and its lines) is
 * written, moved again when a change moves other stock, undone on delete; a workflow's
 * transition moves it (`on`) or undoes it (`reverseOn`), and a change while what it moved
 * stands (an order confirmed, still editable) moves it again as it now is.
 */
export function stockMoveHooks(registry: Registry, deps: Deps): Array<readonly [string, EntityHooks]> {
  return registry
    .filter((e) => e.moves)
    .map((entity) => {
      const spec = entity.moves!
      const m = stockMover(entity, deps)
      const hooks: EntityHooks = {
        async afterWrite(ctx) {
          if (ctx.action === 'delete') await m.reverse(ctx.trx, ctx, ctx.rowId, ctx.before)
          else if (m.movesOnCreate && ctx.after) await m.sync(ctx.trx, ctx, ctx.rowId, ctx.after)
          else if (ctx.action === 'update' && ctx.after) await m.resyncInState(ctx.trx, ctx, ctx.rowId, ctx.after)
        },
        async afterTransition(ctx) {
          if (spec.reverseOn.includes(ctx.transition)) await m.reverse(ctx.trx, ctx, ctx.rowId, ctx.after)
          if (ctx.transition === spec.on) await m.sync(ctx.trx, ctx, ctx.rowId, ctx.after)
        },
      }
      return [entity.name, hooks] as const
    })
}
