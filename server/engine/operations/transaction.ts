import { sql } from 'kysely'
import type { Entity, Fields, Message } from '../../../schema/kit'
import { isEmbedded } from '../../db/connect'
import type { Db, Trx } from '../../db/types'
import type { EngineCtx } from '../access'
import { ValidationError } from '../errors'

/**
 * The transaction every write runs in. Given a transaction as `db`, a write joins it, so a
 * domain service can make several writes atomic; otherwise it gets its own, run again when
 * PostgreSQL picks it as a deadlock's victim. What the database refuses is said in the
 * registry's words (a unique value, a missing reference, a delete something refers to).
 */
export type PgError = { code?: string; constraint?: string; detail?: string; table?: string }
export const pgError = (e: unknown): PgError => (typeof e === 'object' && e !== null ? (e as PgError) : {})

/** Maps a constraint the database refused to the field map the client understands. */
function constraintError(entity: Entity<string, Fields>, e: unknown): Error | undefined {
  const err = pgError(e)
  const tables = [entity.name, ...(entity.parent ? [entity.parent.name] : [])]
  const table = tables.find((t) => err.constraint?.startsWith(`${t}_`))
  const field = table ? err.constraint!.slice(table.length + 1).replace(/_(key|fkey)$/, '') : undefined
  if (err.code === '23505' && field && entity.fields[field]) {
    return new ValidationError({ [field]: [{ key: 'validation.unique', params: { label: entity.fieldLabelKey(field), entity: entity.labelKey } }] })
  }
  if (err.code === '23503' && field && entity.fields[field]) {
    return new ValidationError({ [field]: [{ key: 'validation.ref', params: { label: entity.fieldLabelKey(field) } }] })
  }
  return undefined
}

/** Deadlocks and serialization failures: the transaction may simply be run again. */
const isRetryable = (e: unknown) => pgError(e).code === '40P01' || pgError(e).code === '40001'

export type TransactionOptions = {
  /** Says a database refusal in the operation's own words first (a delete that rows refer to). */
  mapError?: (e: unknown) => Error | undefined
}

/**
 * The longest one statement of a write may run (or wait for a lock) on PostgreSQL before the
 * database stops it and the write is rolled back (57014, answered 503 by server/http/errors.ts):
 * a write that holds rows for minutes holds every other write to them. Generous — a voucher's
 * statements take milliseconds, and a hundred parallel postings queue on one number counter
 * for seconds — because a write stopped halfway is refused whole.
 */
export const WRITE_STATEMENT_TIMEOUT_MS = 30_000
const statementTimeouts = new WeakMap<object, number>()

/** Another limit for the writes on this database (tests force a timeout with a short one). */
export function setWriteStatementTimeout(db: Db, ms: number): void {
  statementTimeouts.set(db, ms)
}

/**
 * A new write transaction, with its statement timeout set for it alone (`set_config(…, true)`
 * is `set local`). Not on the embedded database: PGlite runs PostgreSQL in WebAssembly, where
 * no timer signal interrupts a running statement (it accepts the setting and never acts on
 * it), and it has one connection, so no other request's lock can keep a statement waiting.
 * There, what keeps a write short is the bound on everything a request may send (lines,
 * members, ids, the body's size).
 */
async function openTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  if (isEmbedded(db)) return db.transaction().execute(work)
  const timeout = statementTimeouts.get(db) ?? WRITE_STATEMENT_TIMEOUT_MS
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('statement_timeout', ${String(timeout)}, true)`.execute(trx)
    return work(trx)
  })
}

/** Runs `work` in the caller's transaction when `db` is one, else in a new one (tried again on a deadlock); maps constraint errors. */
export async function inTransaction<T>(ctx: Pick<EngineCtx, 'db' | 'entity'>, work: (trx: Trx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  try {
    if (ctx.db.isTransaction) return await work(ctx.db as Trx)
    for (let attempt = 1; ; attempt++) {
      try {
        return await openTransaction(ctx.db as Db, work)
      } catch (e) {
        if (attempt >= 3 || !isRetryable(e)) throw e
      }
    }
  } catch (e) {
    throw options.mapError?.(e) ?? constraintError(ctx.entity, e) ?? e
  }
}

export type { Message }
