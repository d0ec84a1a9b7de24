import { sql, type ControlledTransaction, type RawBuilder } from 'kysely'
import type { Database, Db, Row } from '../db/types'
import { authorize, scopeOf, type EngineCtx } from './access'
import { orderClause, source, whereClause, type Filter } from './list-query'
import { countList, readList } from './operations/read'

/**
 * Every row of a list, for an export: the caller's filters within their scope, in the list's
 * order, read in batches inside one read-only REPEATABLE READ transaction — the file is one
 * snapshot, whatever is written meanwhile — so memory holds one batch, never the whole list.
 *
 * The rows come from the read layer (`readList`: the caller's scope, virtual values, the
 * modules' after-read hooks), a batch at a time. Which rows and in what order comes from a
 * cursor over the same filters, scope and ORDER BY (the ordering, then the id): one sort for
 * the whole export, where an offset per batch would sort again for each. A document kept one
 * row per line lists one row per document, which only its own list query knows how to pick:
 * it is read a page at a time (its order ends with a unique key, and the snapshot holds still).
 * A report's run is a query of its own, read through a cursor the same way (`openQuery`).
 */
export const EXPORT_BATCH = 2_000

export type Snapshot = {
  /** How many rows the export holds (its `X-Total-Count`), when known before they are read. */
  readonly total?: number
  /** The rows, a batch at a time; the transaction ends when they end, fail, or are given up. */
  readonly batches: AsyncGenerator<Row[]>
  /** Ends the transaction (idempotent): what gives up an export before or while it is read. */
  readonly close: () => Promise<void>
}

const CURSOR = 'export_rows'

/** A read-only REPEATABLE READ transaction, and what ends it (idempotent). */
async function snapshotOf(db: Db): Promise<{ trx: ControlledTransaction<Database>; close: () => Promise<void> }> {
  const trx = await db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute()
  let isClosed = false
  const close = async () => {
    if (isClosed) return
    isClosed = true
    // Nothing was written: ending it either way releases the connection; a broken one is the pool's to drop.
    await trx.rollback().execute().catch(() => undefined)
  }
  return { trx, close }
}

const fetchNext = (trx: ControlledTransaction<Database>, size: number) => sql<Row>`fetch forward ${sql.raw(String(size))} from ${sql.id(CURSOR)}`.execute(trx).then((r) => r.rows)

/**
 * Every row of a query already ordered (a report's run), a batch at a time through a cursor
 * in its own snapshot. The query's author has checked who may run it.
 */
export async function openQuery(db: Db, ordered: RawBuilder<unknown>, batchSize = EXPORT_BATCH): Promise<Snapshot> {
  const { trx, close } = await snapshotOf(db)
  try {
    await sql`declare ${sql.id(CURSOR)} no scroll cursor for ${ordered}`.execute(trx)
  } catch (e) {
    await close()
    throw e
  }
  async function* batches(): AsyncGenerator<Row[]> {
    try {
      for (;;) {
        const rows = await fetchNext(trx, batchSize)
        if (rows.length > 0) yield rows
        if (rows.length < batchSize) return
      }
    } finally {
      await close()
    }
  }
  return { batches: batches(), close }
}

/** Opens the snapshot: the caller's LIST is checked first (a 403 before anything is opened). */
export async function openSnapshot(ctx: EngineCtx & { db: Db }, query: { filters: Filter[]; ordering: string }, batchSize = EXPORT_BATCH): Promise<Snapshot> {
  authorize(ctx, 'LIST')
  const { trx, close } = await snapshotOf(ctx.db)
  try {
    const inSnapshot: EngineCtx = { ...ctx, db: trx }
    const { entity, registry } = ctx
    const total = await countList(inSnapshot, query.filters)
    const read = (filters: Filter[], page?: { page: number; size: number }) => readList(inSnapshot, { filters, ordering: query.ordering, page }).then((r) => r.rows)

    if (!entity.rowsPerLine) {
      const scoped = [...query.filters, ...scopeOf(inSnapshot)]
      await sql`declare ${sql.id(CURSOR)} no scroll cursor for
        select t.id from ${source(entity)} t ${whereClause(registry, entity, 't', scoped)}
        order by ${orderClause(registry, entity, 't', query.ordering)}`.execute(trx)
    }

    async function* batches(): AsyncGenerator<Row[]> {
      try {
        if (entity.rowsPerLine) {
          const pages = Math.ceil(total / batchSize)
          for (let page = 1; page <= pages; page++) yield await read(query.filters, { page, size: batchSize })
          return
        }
        for (;;) {
          const ids = (await fetchNext(trx, batchSize)).map((r) => Number(r.id))
          if (ids.length === 0) return
          // The batch's rows in the list's order: the same ORDER BY over these ids alone.
          yield await read([{ field: 'id', op: 'in', values: ids }])
          if (ids.length < batchSize) return
        }
      } finally {
        await close()
      }
    }
    return { total, batches: batches(), close }
  } catch (e) {
    await close()
    throw e
  }
}
