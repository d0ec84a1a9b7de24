import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { createPgConfig } from '@electric-sql/pglite/node-postgres'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { Db } from './types'

// ids (bigint) fit in a JS number; dates stay 'YYYY-MM-DD' strings (no time-zone shift);
// numeric stays a string, as money must.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v))
// bigint[] (oid 1016, not in `builtins`): many-to-many id arrays come back as numbers too.
const INT8_ARRAY = 1016 as Parameters<typeof pg.types.getTypeParser>[0]
const parseInt8Array = pg.types.getTypeParser(INT8_ARRAY) as (v: string) => Array<string | null>
pg.types.setTypeParser(INT8_ARRAY, (v: string) => parseInt8Array(v).map((x) => (x === null ? null : Number(x))))
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v)

/** Contrib extensions the embedded database loads: trigram indexes and accent-insensitive search. */
export const pgliteExtensions = { pg_trgm, unaccent }

/**
 * The embedded databases (PGlite) this process opened. What the engine does differently there
 * (no statement timeout: operations/transaction.ts) asks `isEmbedded` of the database it was given.
 */
const embedded = new WeakSet<object>()
export const isEmbedded = (db: object): boolean => embedded.has(db)

/** Each database's connection pool: what it reports of its use (server/http/metrics.ts). */
const pools = new WeakMap<object, pg.Pool>()
export const poolOf = (db: object): pg.Pool | undefined => pools.get(db)

export type Connection = {
  db: Db
  kind: 'pglite' | 'postgres'
  close: () => Promise<void>
  /** The embedded database's data directory as a tar, taken between transactions (a backup: server/db/backup.ts). */
  dump?: () => Promise<Blob>
}

export type ConnectOptions =
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob }
  | { kind: 'postgres'; url?: string; poolConfig?: pg.PoolConfig }

export async function connect(options: ConnectOptions): Promise<Connection> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: 10, ...options.poolConfig })
    // An idle connection dropped by the server (restart, failover) must not crash the process.
    pool.on('error', (err) => console.error(`database connection lost (the pool reconnects): ${err.message}`))
    const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) })
    pools.set(db, pool)
    return { db, kind: 'postgres', close: () => db.destroy() }
  }
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: pgliteExtensions,
    // Memory (issue 7; bench/pglite-sweep.md and bench/RESULTS.md, 100,000 police stations,
    // 2 cores). PGlite zero-fills its shared memory at start, so all of shared_buffers is
    // resident at once and, WebAssembly memory never shrinking, for good. With PGlite's
    // 128 MB the server sat at 445–485 MB RSS at rest, 475–550 MB peak under load; with
    // 8 MB at 310–340 MB, 325–360 MB peak, and no req/s lost (4 MB cost the deep page
    // 40 %, 1 MB the search 50 %). maintenance_work_mem 16 MB instead of 64 MB: a trigram
    // index built at start-up on 1M rows left +121 MB resident, now none (build 18.6 →
    // 20.1 s). Lowering work_mem, temp_buffers, wal_buffers or max_connections saved
    // nothing measurable and work_mem=1MB slowed the search; initialMemory cannot go below
    // the module's 128 MB (untouched pages cost nothing). What PGlite still adds over the
    // PostgreSQL mode (~190 MB at rest), 120–140 MB, is its compiled code, file bundle and
    // heap: no PGlite setting reaches the 200 MB aim. startParams, not postgresqlconf,
    // which rewrites the data directory's postgresql.conf.
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB', '-c', 'maintenance_work_mem=16MB'],
  })
  // PGlite is single-connection: a pool of one serialises queries, as the engine expects.
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 })
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) })
  embedded.add(db)
  pools.set(db, pool)
  return {
    db,
    kind: 'pglite',
    // Holding the pool's one connection, no transaction is open while the files are read;
    // the checkpoint writes what is only in memory, so the copy needs no recovery.
    dump: () =>
      db.connection().execute(async (held) => {
        await sql`checkpoint`.execute(held)
        return pglite.dumpDataDir('none')
      }),
    close: async () => {
      await db.destroy()
      await pglite.close()
    },
  }
}

/** Creates an embedded database's data directory from a dump (a restore: server/db/backup.ts). */
export async function loadPglite(dataDir: string, tarball: Blob): Promise<void> {
  const pglite = await PGlite.create({ dataDir, loadDataDir: tarball, extensions: pgliteExtensions })
  await pglite.query('select 1')
  await pglite.close()
}

/** Dumps an embedded database (for test templates). */
export async function dumpPglite(dataDir: string | undefined, setup: (db: Db) => Promise<void>): Promise<Blob> {
  const pglite = await PGlite.create({ dataDir, extensions: pgliteExtensions })
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 })
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) })
  await setup(db)
  await db.destroy()
  const blob = await pglite.dumpDataDir('none')
  await pglite.close()
  return blob
}
