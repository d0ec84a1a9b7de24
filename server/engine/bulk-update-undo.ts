import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import type { Principal } from '../auth/principal'
import type { Row, Trx } from '../db/types'
import type { EngineCtx } from './access'
import type { Changes } from './audit'
import { inAuditBatch } from './audit-scope'
import { lockRows, readsInBatches, recordLabel } from './bulk-update-batch'
import { BATCH_SIZE, changeEach, type RowChange } from './bulk-update-rows'
import { ConflictError, ForbiddenError, NotFoundError } from './errors'
import { lockRow } from './operations/read'
import { inTransaction } from './operations/transaction'
import type { Values } from './validate'

/**
 * Undoing a bulk update: every record of the batch back to the values its audit entries say
 * it had before, through the engine's update (audited too, as a batch of its own), in one
 * transaction — only while each still holds what the batch wrote, so an undo never throws
 * away a change made since. Deletes are the Trash's to restore.
 */

/** How many records a refusal names before it says "and N more". */
const NAMED_RECORDS = 20

/**
 * The batch an undo of `batch` writes under: derived from it (a name-based UUID), so that
 * whether a batch was undone is a look-up of the audit log, and undoing the undo (a redo)
 * works the same way.
 */
export function undoBatchOf(batch: string): string {
  const h = createHash('sha256').update(`undo:${batch.toLowerCase()}`).digest()
  h[6] = (h[6]! & 0x0f) | 0x50
  h[8] = (h[8]! & 0x3f) | 0x80
  const hex = h.subarray(0, 16).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

type Entry = { entity_id: number | string; action: string; actor: number | string | null; changes: Changes | string }

/** One record's part of the batch: each field's value before its first entry and after its last. */
type Span = { id: number; before: Record<string, unknown>; after: Record<string, unknown> }

function spansOf(entries: readonly Entry[]): Span[] {
  const spans = new Map<number, Span>()
  for (const entry of entries) {
    const id = Number(entry.entity_id)
    const span = spans.get(id) ?? { id, before: {}, after: {} }
    const changes = (typeof entry.changes === 'string' ? JSON.parse(entry.changes) : entry.changes) as Changes
    for (const [field, [was, is]] of Object.entries(changes)) {
      if (!Object.hasOwn(span.before, field)) span.before[field] = was
      span.after[field] = is
    }
    spans.set(id, span)
  }
  return [...spans.values()].sort((a, b) => a.id - b.id)
}

/** Values compared as the audit log holds them (JSON: an instant as its ISO text). */
const asStored = (v: unknown) => JSON.stringify(v instanceof Date ? v.toISOString() : (v ?? null))

/** The records a message names (the first few; its count says how many there are). */
const named = (labels: readonly string[]) => labels.slice(0, NAMED_RECORDS).join(', ') + (labels.length > NAMED_RECORDS ? ', …' : '')

/**
 * The batch's records as they are now, each locked to change and read as `lockRow` does one —
 * a batch at a time where the entity allows; one gone, or out of the caller's reach, is missing.
 */
async function currentRows(ctx: EngineCtx, trx: Trx, ids: readonly number[]): Promise<Map<number, Row>> {
  const found = new Map<number, Row>()
  if (!readsInBatches(ctx.entity)) {
    for (const id of ids) {
      const row = await lockRow(ctx, trx, id).catch((e: unknown) => {
        if (e instanceof NotFoundError) return undefined
        throw e
      })
      if (row) found.set(id, row)
    }
    return found
  }
  for (let i = 0; i < ids.length; i += BATCH_SIZE) {
    const { rows, writable } = await lockRows(ctx, trx, ids.slice(i, i + BATCH_SIZE))
    for (const [id, row] of rows) if (writable.has(id)) found.set(id, row)
  }
  return found
}

export async function undoBulkUpdate(ctx: EngineCtx, caller: Principal, batch: string): Promise<{ restored: number; batch: string }> {
  const { entity } = ctx
  const batchEntries = (await sql<Entry & { entity: string }>`select entity, entity_id, action, actor, changes from audit_log where batch = ${batch}::uuid order by id`.execute(ctx.db)).rows
  // A delete's batch (the references it cleared included) is the Trash's to restore, whichever list asks.
  if (batchEntries.some((e) => e.action === 'delete')) throw new ConflictError({ key: 'detail.bulk_undo_deletes' })
  const entries = batchEntries.filter((e) => e.entity === entity.name)
  if (entries.length === 0) throw new NotFoundError({ key: 'detail.bulk_unknown', params: { batch } })
  if (entries.some((e) => e.action !== 'update')) throw new ConflictError({ key: 'detail.bulk_undo_other' })
  if (!caller.isAdmin && entries.some((e) => Number(e.actor) !== caller.id)) throw new ForbiddenError({ key: 'detail.bulk_not_yours' })

  const field = (name: string) => entity.fields[name]
  // What the batch's after-values are checked on: every value the audit compares (not lines, not secrets).
  const isChecked = (name: string) => field(name) !== undefined && field(name)!.kind !== 'lines' && !field(name)!.isWriteOnly
  // What is set back: what a client may write; computed values follow, what hooks keep is theirs to redo.
  const isRestored = (name: string) => isChecked(name) && !field(name)!.isReadOnly && field(name)!.compute === undefined

  const undo = undoBatchOf(batch)
  return inAuditBatch(undo, () =>
    inTransaction(ctx, async (trx: Trx) => {
      // Two undos of one batch at once: the second waits, then finds it undone.
      await sql`select pg_advisory_xact_lock(hashtextextended(${`bulk-undo:${batch}`}, 0))`.execute(trx)
      const undone = await sql`select 1 from audit_log where batch = ${undo}::uuid limit 1`.execute(trx)
      if (undone.rows.length > 0) throw new ConflictError({ key: 'detail.bulk_undone' })

      const at = { ...ctx, db: trx }
      const changedSince: string[] = []
      const changes: RowChange[] = []
      const spans = spansOf(entries)
      const stored = await currentRows(at, trx, spans.map((s) => s.id))
      for (const span of spans) {
        const current = stored.get(span.id)
        const checked = Object.keys(span.after).filter(isChecked)
        if (!current || checked.some((name) => asStored(current[name]) !== asStored(span.after[name]))) {
          changedSince.push(current ? await recordLabel(at, trx, span.id, current) : `#${span.id}`)
          continue
        }
        const values: Values = Object.fromEntries(Object.keys(span.before).filter(isRestored).map((name) => [name, span.before[name]]))
        if (Object.keys(values).length > 0) changes.push({ id: span.id, values })
      }
      if (changedSince.length > 0) throw new ConflictError({ key: 'detail.bulk_changed_since', params: { count: changedSince.length, records: named(changedSince) } })
      return { restored: await changeEach(at, changes), batch: undo }
    }),
  )
}
