import { sql } from 'kysely'
import { renderMessage, type Entity, type Fields, type Message } from '../../schema/kit'
import type { Row, Trx } from '../db/types'
import { translator, languageOf } from '../i18n'
import type { EngineCtx } from './access'
import { HttpError, NotFoundError, ValidationError } from './errors'
import { LABELS } from './list-query'
import { read } from './operations/read'
import { inTransaction } from './operations/transaction'
import { updateRow } from './operations/update'
import type { Values } from './validate'

/**
 * Several records changed through the engine's update — the same validation, rules, workflow
 * locks, hooks, row scope and audit as `update/` — in one transaction: all of them or none.
 * A record that refuses does not stop the look at the others, so the answer names every
 * record that would refuse (up to MAX_NAMED_REFUSALS) and why, and nothing is written.
 */
export const MAX_NAMED_REFUSALS = 50

export type RowChange = { id: number; values: Values }

/** Why one record refused: a field map, `detail` for what is about the record as a whole. */
export type Refusal = { label: string; fields: Record<string, Array<Message | string>> }

/** Nothing was written: the records that refused, by id. */
export class BulkRefusedError extends HttpError {
  readonly status = 400
  readonly detail: Message
  constructor(readonly rows: ReadonlyMap<number, Refusal>) {
    super(`bulk change refused by ${[...rows.keys()].join(', ')}`)
    this.detail = { key: 'detail.bulk_refused', params: { count: rows.size } }
  }
}

/** The answer to a refused bulk change: `{detail, rows: {"<id>": {field: [msg]}}, labels: {"<id>": name}}`, in the caller's language. */
export function refusalBody(acceptLanguage: string | undefined, error: BulkRefusedError) {
  const t = translator(languageOf(acceptLanguage))
  const say = (m: Message | string) => (typeof m === 'string' ? m : renderMessage(t, m))
  const rows = [...error.rows]
  return {
    detail: say(error.detail),
    rows: Object.fromEntries(rows.map(([id, r]) => [String(id), Object.fromEntries(Object.entries(r.fields).map(([field, messages]) => [field, messages.map(say)]))])),
    labels: Object.fromEntries(rows.map(([id, r]) => [String(id), r.label])),
  }
}

/** A record as a person knows it: its label field's value (a reference's name), else its id. */
export function rowLabel(entity: Entity<string, Fields>, id: number, row: Row | undefined): string {
  const value = row?.[entity.labelField]
  if (typeof value === 'string' && value.trim() !== '') return value
  if (typeof value === 'number' && entity.fields[entity.labelField]?.kind !== 'ref') return String(value)
  const named = (row?.[LABELS] as Record<string, unknown> | undefined)?.[entity.labelField]
  return typeof named === 'string' ? named : `#${id}`
}

/**
 * What a record's refusal says, or undefined for an error that is no record's (a lost
 * connection, a timeout, a missing sign-in): that one stops the whole change as it would one update.
 */
function refusalOf(e: unknown): Refusal['fields'] | undefined {
  if (e instanceof ValidationError) return e.fields
  if (e instanceof HttpError && [400, 403, 404, 409].includes(e.status) && 'detail' in e) return { detail: [(e as HttpError & { detail: Message | string }).detail] }
  return undefined
}

/**
 * Applies each change through `updateRow`, in one transaction (the caller's, when `ctx.db` is
 * one). Until a record refuses nothing else is paid; after one, what was written is rolled
 * back to the start and each remaining record is tried alone and rolled back, so that the
 * others are judged against the stored rows and the refusals named are all real ones.
 */
export async function changeEach(ctx: EngineCtx, changes: readonly RowChange[]): Promise<number> {
  return inTransaction(ctx, async (trx: Trx) => {
    const refused = new Map<number, Refusal>()
    const at = { ...ctx, db: trx }
    await sql`savepoint bulk_start`.execute(trx)
    for (const change of changes) {
      const isChecking = refused.size > 0
      if (isChecking) await sql`savepoint bulk_row`.execute(trx)
      try {
        await updateRow(at, change.id, { ...change.values })
        if (isChecking) await sql`rollback to savepoint bulk_row`.execute(trx)
      } catch (e) {
        const fields = refusalOf(e)
        if (!fields) throw e
        await sql`rollback to savepoint ${sql.raw(isChecking ? 'bulk_row' : 'bulk_start')}`.execute(trx)
        // A record out of the caller's reach is named by its id alone: its name is not theirs to read.
        const label = e instanceof NotFoundError ? `#${change.id}` : rowLabel(ctx.entity, change.id, await read(ctx, trx, change.id))
        refused.set(change.id, { label, fields })
        if (refused.size >= MAX_NAMED_REFUSALS) break
      }
      if (isChecking) await sql`release savepoint bulk_row`.execute(trx)
    }
    if (refused.size > 0) throw new BulkRefusedError(refused)
    await sql`release savepoint bulk_start`.execute(trx)
    return changes.length
  })
}
