import { sql } from 'kysely'
import { isEmbedded } from './connect'
import { START_UP_LOCK } from './locks'
import type { Db } from './types'

/**
 * Runs every write of a server's start-up (migrations, the registry sync, permissions and
 * roles, the modules' seeds, the first admin and the demo data) while holding a
 * session-level advisory lock on a connection of its own: servers started at once on one
 * PostgreSQL take turns, the first does the work, the others find it done. Each step's own
 * transaction-level lock is a different id, so the holder never waits on itself. The lock
 * goes with its session: unlocked when the work ends or fails, and by the database if the
 * process dies. PGlite's data directory belongs to one process (data-dir.ts), and its single
 * connection would be taken by the lock: there the work runs as it is.
 */
export async function withStartUpLock<T>(db: Db, work: () => Promise<T>, log: (message: string) => void = console.log): Promise<T> {
  if (isEmbedded(db)) return work()
  return db.connection().execute(async (session) => {
    const tried = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${START_UP_LOCK}::bigint) as locked`.execute(session)
    if (!tried.rows[0]?.locked) {
      log('start-up: another server is starting on this database; waiting for it to finish')
      const since = Date.now()
      await sql`select pg_advisory_lock(${START_UP_LOCK}::bigint)`.execute(session)
      log(`start-up: waited ${((Date.now() - since) / 1000).toFixed(1)} s`)
    }
    const unlock = () => sql`select pg_advisory_unlock(${START_UP_LOCK}::bigint)`.execute(session)
    const began = Date.now()
    let result: T
    try {
      result = await work()
      // How long the others waited on this one: seconds on a new database, a fraction of one when nothing changed.
      log(`start-up: database work done under the lock in ${((Date.now() - began) / 1000).toFixed(1)} s`)
    } catch (e) {
      // The work's failure is what the operator must read, not the unlock's (the caller closes the pool either way).
      await unlock().catch(() => {})
      throw e
    }
    await unlock()
    return result
  })
}
