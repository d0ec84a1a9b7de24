import { sql } from 'kysely'
import type { Trx } from '../db/types'
import type { EngineCtx } from './access'
import { isBatchable, judgeBatch, writeBatch, type Change } from './bulk-update-batch'
import { BulkRefusedError, MAX_NAMED_REFUSALS, refusalOf, rowLabel, type Refusal } from './bulk-update-refusals'
import { NotFoundError } from './errors'
import { read } from './operations/read'
import { inTransaction, pgError } from './operations/transaction'
import { updateRow } from './operations/update'

export { BulkRefusedError, MAX_NAMED_REFUSALS, refusalBody, rowLabel, type Refusal } from './bulk-update-refusals'

/**
 * Several records changed as the engine's update changes one — the same validation, rules,
 * workflow locks, hooks, row scope and audit as `update/` — in one transaction: all of them or
 * none. A record that refuses does not stop the look at the others, so the answer names every
 * record that would refuse (up to MAX_NAMED_REFUSALS) and why, and nothing is written.
 *
 * Where the entity allows (bulk-update-batch.ts `isBatchable`: no write hooks, one table) the
 * records go BATCH_SIZE at a time — read, judged and written with a few statements a batch —
 * to the same outcome as one update after another: what a batch cannot tell alone (a value the
 * database refuses, a unique one) sends that batch through the one-by-one update.
 */
export type RowChange = Change

/** Records judged and written together: a few statements each; a batch the database refuses is redone one by one. */
export const BATCH_SIZE = 500

/** A bulk change under way in its transaction: the refusals so far. After the first, nothing is kept: the rest is only checked. */
class BulkRun {
  readonly refused = new Map<number, Refusal>()
  readonly at: EngineCtx
  constructor(
    ctx: EngineCtx,
    readonly trx: Trx,
  ) {
    this.at = { ...ctx, db: trx }
  }

  get isChecking(): boolean {
    return this.refused.size > 0
  }

  get isFull(): boolean {
    return this.refused.size >= MAX_NAMED_REFUSALS
  }

  private async exec(statement: string): Promise<void> {
    await sql.raw(statement).execute(this.trx)
  }

  /**
   * Each change through `updateRow`. Until a record refuses nothing else is paid; after one,
   * what was written is rolled back to the start and each remaining record is tried alone and
   * rolled back, so that the others are judged against the stored rows and the refusals named are all real ones.
   * `untilRefused`: stops at the first refusal (the rest is left to `check`). Answers the index it stopped at.
   */
  async oneByOne(changes: readonly RowChange[], options: { untilRefused?: boolean } = {}): Promise<number> {
    for (const [index, change] of changes.entries()) {
      if (this.isFull) return index
      const isChecking = this.isChecking
      if (isChecking) await this.exec('savepoint bulk_row')
      try {
        await updateRow(this.at, change.id, { ...change.values })
        if (isChecking) await this.exec('rollback to savepoint bulk_row')
      } catch (e) {
        const fields = refusalOf(e)
        if (!fields) throw e
        await this.exec(`rollback to savepoint ${isChecking ? 'bulk_row' : 'bulk_start'}`)
        // A record out of the caller's reach is named by its id alone: its name is not theirs to read.
        const label = e instanceof NotFoundError ? `#${change.id}` : rowLabel(this.at.entity, change.id, await read(this.at, this.trx, change.id))
        this.refused.set(change.id, { label, fields })
        if (options.untilRefused) return index
      }
      if (isChecking) await this.exec('release savepoint bulk_row')
    }
    return changes.length
  }

  /**
   * Writes a batch (in a savepoint); false, with nothing of it kept, when the database refuses
   * it — a constraint, or anything else it says no to: the one-by-one update then finds the
   * record and the words for it, or fails as it would.
   */
  private async written(changes: readonly RowChange[], write: () => Promise<void>): Promise<boolean> {
    if (changes.length === 0) return true
    await this.exec('savepoint bulk_batch')
    try {
      await write()
      await this.exec('release savepoint bulk_batch')
      return true
    } catch (e) {
      if (pgError(e).code === undefined) throw e
      await this.exec('rollback to savepoint bulk_batch')
      await this.exec('release savepoint bulk_batch')
      return false
    }
  }

  /** A batch while nothing refused yet: written at once, up to its first refusal; then the rest is only checked. */
  async batch(changes: readonly RowChange[]): Promise<void> {
    await this.exec('savepoint bulk_batch_read')
    const { prepared, refusals } = await judgeBatch(this.at, this.trx, changes)
    const first = refusals[0]
    const head = first ? prepared.filter((p) => p.index < first.index) : prepared
    const headChanges = first ? changes.slice(0, first.index) : changes
    if (!(await this.written(headChanges, () => writeBatch(this.at, this.trx, head)))) {
      // The database refused what the batch wrote: one by one from before the batch, to learn who and why; after the first, only checks.
      await this.exec('rollback to savepoint bulk_batch_read')
      await this.exec('release savepoint bulk_batch_read')
      const stopped = await this.oneByOne(changes, { untilRefused: true })
      return this.check(changes.slice(stopped + 1))
    }
    await this.exec('release savepoint bulk_batch_read')
    if (!first) return
    await this.exec('rollback to savepoint bulk_start')
    this.refused.set(first.id, first.refusal)
    await this.check(changes.slice(first.index + 1))
  }

  /** After a refusal: the batch judged against the stored rows, written and rolled back to hear the database too; its refusals named. */
  async check(changes: readonly RowChange[]): Promise<void> {
    if (changes.length === 0 || this.isFull) return
    await this.exec('savepoint bulk_check')
    const { prepared, refusals } = await judgeBatch(this.at, this.trx, changes)
    const ready = new Set(prepared.map((p) => p.id))
    if (!(await this.written(prepared, () => writeBatch(this.at, this.trx, prepared)))) {
      // Which of them the database refuses, each tried alone: their refusals in the batch's order with the others'.
      await this.exec('rollback to savepoint bulk_check')
      for (const change of changes) {
        if (this.isFull) break
        const judged = refusals.find((r) => r.id === change.id)
        if (judged) this.refused.set(judged.id, judged.refusal)
        else if (ready.has(change.id)) await this.oneByOne([change])
      }
    } else {
      for (const r of refusals) if (!this.isFull) this.refused.set(r.id, r.refusal)
    }
    await this.exec('rollback to savepoint bulk_check')
    await this.exec('release savepoint bulk_check')
  }
}

/**
 * Applies each change as `updateRow` would, in one transaction (the caller's, when `ctx.db` is
 * one). `oneByOne`: through `updateRow` itself, whatever the entity (what the batches are held to).
 */
export async function changeEach(ctx: EngineCtx, changes: readonly RowChange[], options: { oneByOne?: boolean } = {}): Promise<number> {
  return inTransaction(ctx, async (trx: Trx) => {
    const run = new BulkRun(ctx, trx)
    await sql`savepoint bulk_start`.execute(trx)
    if (options.oneByOne || !isBatchable(run.at)) await run.oneByOne(changes)
    else {
      for (let i = 0; i < changes.length && !run.isFull; i += BATCH_SIZE) {
        const batch = changes.slice(i, i + BATCH_SIZE)
        if (run.isChecking) await run.check(batch)
        else await run.batch(batch)
      }
    }
    if (run.refused.size > 0) throw new BulkRefusedError(run.refused)
    await sql`release savepoint bulk_start`.execute(trx)
    return changes.length
  })
}
