import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { createPgConfig } from '@electric-sql/pglite/node-postgres'
import { Kysely, PostgresDialect } from 'kysely'
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

export type Connection = {
  db: Db
  kind: 'pglite' | 'postgres'
  close: () => Promise<void>
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
    return { db, kind: 'postgres', close: () => db.destroy() }
  }
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
  })
  // PGlite is single-connection: a pool of one serialises queries, as the engine expects.
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 })
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) })
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy()
      await pglite.close()
    },
  }
}

/** Dumps an embedded database (for test templates). */
export async function dumpPglite(dataDir: string | undefined, setup: (db: Db) => Promise<void>): Promise<Blob> {
  const pglite = await PGlite.create({ dataDir, extensions: { pg_trgm } })
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 })
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) })
  await setup(db)
  await db.destroy()
  const blob = await pglite.dumpDataDir('none')
  await pglite.close()
  return blob
}
