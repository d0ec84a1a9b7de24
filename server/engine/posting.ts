import { sql } from 'kysely'
import { money, statesAfter, storageOf, type Entity, type Fields } from '../../schema/kit'
import type { Executor, Row, Trx } from '../db/types'
import type { Actor, EntityHooks, HookContext, HookRegistry } from './hooks'
import type { Registry } from './list-query'
import { nextNumber, numberDayOf, periodOf } from './numbering'

/**
 * Posted documents (EntityConfig.posts; Frappe Books' `Transactional`): the engine decides
 * when a record posts, reposts and reverses — in the transaction of the write or transition
 * that causes it — and the domain says what it posts (its module's `postings`). Writing the
 * general ledger itself is the accounting module's (`Ledger`): the engine never touches its
 * tables.
 */
export type PostingLine = { ledger: number; debit?: string | null; credit?: string | null; subLedger?: number | null; branch?: number | null }

/** What a record posts: its day, its lines (debits equal to credits), and the header its voucher carries. */
export type Posting = {
  date: string
  lines: readonly PostingLine[]
  branch?: number | null
  subLedger?: number | null
  details?: string | null
  /** The invoice a payment or receipt settles (a cause donation's receipt names the cause's sales invoice). */
  refInvoiceNo?: string | null
}

/** What the engine gives a module's posting function. */
export type PostingArgs = { trx: Trx; registry: Registry; hooks: HookRegistry | undefined; actor: Actor | null; entity: Entity<string, Fields>; record: Row }
/**
 * A module's posting of one entity's records (`postings: { <entity>: … }`); null when the
 * record, as it stands, moves no money (a stock count that found what was on hand): then
 * nothing posts, no number is taken for it, and what stood is reversed.
 */
export type PostingOf = (args: PostingArgs) => Promise<Posting | null> | Posting | null

/** Where postings go, by the module that keeps the general ledger. */
export interface Ledger {
  /** Posts under `number`: general-ledger rows of the log type `kind` (`as: 'ledger'`), or a voucher of the kind `as`. */
  post(trx: Trx, entry: { as: string; kind: string; number: string; posting: Posting; actor: Actor | null; registry: Registry; hooks: HookRegistry | undefined }): Promise<void>
  /** Reverses what stands under `number` (nothing standing: nothing to do). */
  reverse(trx: Trx, entry: { as: string; number: string; actor: Actor | null; registry: Registry; hooks: HookRegistry | undefined }): Promise<void>
  /** What stands under `number`, to tell whether a record's posting changed (null: nothing stands). */
  standing(trx: Trx, entry: { as: string; number: string }): Promise<Posting | null>
}

/** A posting in a form two postings compare in: amounts in minor units, each line's sub-ledger and branch with the header's defaults. */
function comparable(p: Posting): string {
  const units = (v: string | null | undefined) => String(money.toMinor(v ?? '0'))
  return JSON.stringify({
    date: p.date,
    details: p.details ?? null,
    refInvoiceNo: p.refInvoiceNo ?? null,
    lines: p.lines.map((l) => [l.ledger, units(l.debit), units(l.credit), l.subLedger ?? p.subLedger ?? null, l.branch ?? p.branch ?? null]),
  })
}

export const isSamePosting = (a: Posting, b: Posting): boolean => comparable(a) === comparable(b)

type Deps = { ledger: Ledger | undefined; postingOf: ReadonlyMap<string, PostingOf>; hooks: () => HookRegistry | undefined }

/** The prefix and reset of the numbers a posting takes: the record's own numbering (`as: 'ledger'`), or its voucher's. */
function numberingOf(registry: Registry, entity: Entity<string, Fields>): { prefix: string; reset: 'day' | 'year' } {
  const spec = entity.posts!
  const numbered = spec.as === 'ledger' ? entity : registry.find((e) => e.name === spec.as)
  const numbering = numbered?.numbering
  if (!numbering) throw new Error(`'${entity.name}' posts as '${spec.as}', which has no numbering`)
  return numbering
}

/**
 * The record that posted the document of `entity` numbered `number` — a donation, for its
 * receipt; a cause, for its sales entry — found by the number it holds (`posts: { as:
 * <entity>, number }`); undefined for a document nobody posted (a voucher entered as such).
 */
export async function postedBy(db: Executor, registry: Registry, entity: Entity<string, Fields>, number: string): Promise<{ entity: Entity<string, Fields>; id: number } | undefined> {
  for (const owner of registry.filter((e) => e.posts?.as === entity.name)) {
    const field = owner.posts!.number
    const found = await sql<{ id: number }>`select id from ${sql.id(storageOf(owner, field).name)} where ${sql.ref(field)} = ${number} order by id limit 1`.execute(db)
    if (found.rows[0]) return { entity: owner, id: Number(found.rows[0].id) }
  }
  return undefined
}

/** The posting machinery of one entity: number, post, repost when changed, reverse. */
export function poster(entity: Entity<string, Fields>, deps: Deps) {
  const spec = entity.posts!
  const { ledger } = deps
  const postingOf = deps.postingOf.get(entity.name)
  if (!ledger) throw new Error(`'${entity.name}' posts to the general ledger, but no module keeps one (a DomainModule's \`ledger\`)`)
  if (!postingOf) throw new Error(`'${entity.name}' posts to the general ledger, but no module says what: give \`postings: { ${entity.name}: … }\` in a DomainModule`)
  const isWanted = (record: Row) => spec.when?.(record) ?? true
  const base = (ctx: Pick<HookContext, 'registry' | 'actor'>) => ({ as: spec.as, registry: ctx.registry, actor: ctx.actor, hooks: deps.hooks() })

  /** The next number of the posting, counted by the record's date field (today without one). */
  const takeNumber = (trx: Trx, registry: Registry, record: Row) => {
    const { prefix, reset } = numberingOf(registry, entity)
    return nextNumber(trx, prefix, numberDayOf(record, spec.date), reset)
  }

  /**
   * Whether a change moves the record's date field (`posts.date`) into another period of the
   * voucher's numbering: its posting then takes a number of the new period (numbering.ts,
   * `renumberIfMoved`, says why). A record posting `as: 'ledger'` holds its own numbering's
   * number, which the update itself renumbers.
   */
  const hasMoved = (registry: Registry, before: Row, record: Row) => {
    if (!spec.date || spec.as === 'ledger') return false
    const { reset } = numberingOf(registry, entity)
    return periodOf(numberDayOf(before, spec.date), reset) !== periodOf(numberDayOf(record, spec.date), reset)
  }

  /** What the record posts as it stands: null when nothing (not wanted, or nothing to post). */
  const postingFor = async (trx: Trx, ctx: Pick<HookContext, 'registry' | 'actor'>, record: Row): Promise<Posting | null> =>
    isWanted(record) ? await postingOf!({ trx, registry: ctx.registry, hooks: deps.hooks(), actor: ctx.actor, entity, record }) : null

  /** Brings what stands under the record's number to what the record posts now (`posting`: already worked out). */
  async function sync(trx: Trx, ctx: Pick<HookContext, 'registry' | 'actor'>, record: Row, known?: Posting | null): Promise<void> {
    const number = record[spec.number]
    if (typeof number !== 'string' || number === '') return
    const standing = await ledger!.standing(trx, { as: spec.as, number })
    const posting = known !== undefined ? known : await postingFor(trx, ctx, record)
    if (!posting) {
      if (standing) await ledger!.reverse(trx, { ...base(ctx), number })
      return
    }
    if (standing && isSamePosting(standing, posting)) return
    if (standing) await ledger!.reverse(trx, { ...base(ctx), number })
    await ledger!.post(trx, { ...base(ctx), kind: entity.name, number, posting })
  }

  async function reverse(trx: Trx, ctx: Pick<HookContext, 'registry' | 'actor'>, record: Row | null): Promise<void> {
    const number = record?.[spec.number]
    if (typeof number !== 'string' || number === '') return
    if (await ledger!.standing(trx, { as: spec.as, number })) await ledger!.reverse(trx, { ...base(ctx), number })
  }

  /** A record renumbered (moved to another period): what its old number posted is reversed under that number, then it posts under the new one. */
  async function resync(trx: Trx, ctx: Pick<HookContext, 'registry' | 'actor'>, before: Row | null, after: Row): Promise<void> {
    if (before && before[spec.number] !== after[spec.number]) await reverse(trx, ctx, before)
    await sync(trx, ctx, after)
  }

  /**
   * What the `on` transition posts, as the record now is: nothing, when it posts nothing
   * (then no number is taken, and what stood is reversed); else under its number — taken now,
   * the first time it posts something — written back to the row.
   */
  async function postNow(trx: Trx, ctx: Pick<HookContext, 'registry' | 'actor'>, rowId: number, after: Row): Promise<void> {
    const record = { ...after }
    // Worked out before a number is taken: a posting of nothing takes none (numbers stay gapless).
    const posting = await postingFor(trx, ctx, record)
    if (!posting) return sync(trx, ctx, record, null)
    if (!record[spec.number]) {
      record[spec.number] = await takeNumber(trx, ctx.registry, record)
      // The answer and the audit read the row again: they show the number.
      await sql`update ${sql.id(storageOf(entity, spec.number).name)} set ${sql.ref(spec.number)} = ${record[spec.number]} where id = ${rowId}`.execute(trx)
    }
    await sync(trx, ctx, record, posting)
  }

  /** The states in which what `on` posted stands (until a `reverseOn` transition undoes it). */
  const postedIn = spec.on === 'create' ? new Set<string>() : statesAfter(entity, spec.on, spec.reverseOn)

  /** A record changed in a state where its transition's posting stands (a confirmed order's items): posted again as it now is. */
  async function repostInState(trx: Trx, ctx: Pick<HookContext, 'registry' | 'actor'>, rowId: number, record: Row): Promise<void> {
    if (!entity.workflow || !postedIn.has(String(record[entity.workflow.field]))) return
    await postNow(trx, ctx, rowId, record)
  }

  return { isWanted, postingFor, takeNumber, hasMoved, sync, resync, postNow, repostInState, reverse, postsOnCreate: spec.on === 'create' }
}

/**
 * The engine hooks of every entity that posts: a number taken before the row is written (so
 * that it holds it), the posting after; a change reposts, a delete reverses; a workflow's
 * transition posts (`on`) or reverses (`reverseOn`).
 */
export function postingHooks(registry: Registry, deps: Deps): Array<readonly [string, EntityHooks]> {
  return registry
    .filter((e) => e.posts)
    .map((entity) => {
      const spec = entity.posts!
      const p = poster(entity, deps)
      // A document kept one row per line posts once for the whole document (its key is its number).
      if (entity.rowsPerLine) {
        const documentHooks: EntityHooks = {
          async afterDocumentWrite(ctx) {
            if (ctx.action === 'delete') await p.reverse(ctx.trx, ctx, ctx.before)
            else if (ctx.after) await p.resync(ctx.trx, ctx, ctx.before, ctx.after)
          },
        }
        return [entity.name, documentHooks] as const
      }
      const hooks: EntityHooks = {
        async beforeWrite({ trx, registry: reg, before, values }) {
          if (!values || !p.postsOnCreate) return
          const record = { ...before, ...values }
          if (!p.isWanted(record)) return
          if (!record[spec.number] || (before && p.hasMoved(reg, before, record))) values[spec.number] = await p.takeNumber(trx, reg, record)
        },
        async afterWrite(ctx) {
          if (ctx.action === 'delete') await p.reverse(ctx.trx, ctx, ctx.before)
          else if (p.postsOnCreate && ctx.after) await p.resync(ctx.trx, ctx, ctx.before, ctx.after)
          else if (ctx.action === 'update' && ctx.after) await p.repostInState(ctx.trx, ctx, ctx.rowId, ctx.after)
        },
        async afterTransition(ctx) {
          const { trx, transition, rowId } = ctx
          if (spec.reverseOn.includes(transition)) await p.reverse(trx, ctx, ctx.after)
          if (transition === spec.on) await p.postNow(trx, ctx, rowId, ctx.after)
        },
      }
      return [entity.name, hooks] as const
    })
}
