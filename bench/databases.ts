import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { entities } from '../schema'
import { connect, type Connection } from '../server/db/connect'
import { buildApp } from '../server/app'
import { seed } from '../server/demo/seed'
import { migrate } from '../server/db/sync'
import { startPostgres, type Cluster } from '../tests/support/postgres-cluster'
import { fillThanas } from './dataset'

export type Kind = 'postgres' | 'pglite'

/** A bench database, migrated, seeded and filled: its open connection and the server's environment. */
export type BenchDb = {
  kind: Kind
  conn: Connection
  serverEnv: Record<string, string>
  /** Seconds spent migrating, seeding and filling. */
  seconds: number
  /** The memory settings given on the command line (PGlite: connect()'s startParams), as `name=value`. */
  memorySettings: string[]
  /** shared_memory_size: PostgreSQL's whole shared memory (buffers, WAL buffers, locks, …). */
  sharedMemory: string
  /** Closes the bench's own connection (PGlite: before a server may open the directory). */
  closeConn: () => Promise<void>
  dispose: () => Promise<void>
}

export async function prepareDb(kind: Kind, rows: number): Promise<BenchDb> {
  let cluster: Cluster | undefined
  let dataDir: string | undefined
  let conn: Connection
  let serverEnv: Record<string, string>
  if (kind === 'postgres') {
    cluster = await startPostgres({ settings: { shared_buffers: '256MB' } })
    const url = `postgresql://${cluster.user}@${cluster.host}:${cluster.port}/postgres`
    conn = await connect({ kind: 'postgres', url })
    serverEnv = { DATABASE_URL: url, DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-pg-')) }
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'bench-'))
    conn = await connect({ kind: 'pglite', dataDir: join(dataDir, 'pglite') })
    serverEnv = { DATA_DIR: dataDir }
  }
  const t0 = performance.now()
  await migrate(conn.db, entities)
  // As the server starts: the app's start-up first (permissions, roles, the chart of accounts the demo posts to), then the demo data.
  const app = await buildApp({ db: conn.db, jwtSecret: 'bench-secret-of-at-least-thirty-two-characters', mediaDir: join(serverEnv.DATA_DIR!, 'media'), isDemo: true })
  await seed(conn.db, { isDemo: true, hooks: app.engine.hooks })
  await app.close()
  await fillThanas(conn, rows)
  const seconds = (performance.now() - t0) / 1000
  const memorySettings = (
    await sql<{ name: string; value: string }>`select name, current_setting(name) as value from pg_settings
      where name in ('shared_buffers', 'work_mem', 'maintenance_work_mem', 'temp_buffers', 'wal_buffers', 'max_connections')
        and source = 'command line' order by name`.execute(conn.db)
  ).rows.map((r) => `${r.name}=${r.value}`)
  const sharedMemory = (await sql<{ v: string }>`select current_setting('shared_memory_size') as v`.execute(conn.db)).rows[0]!.v
  let closed = false
  const closeConn = async () => {
    if (closed) return
    closed = true
    await conn.close()
  }
  return {
    kind,
    conn,
    serverEnv,
    seconds,
    memorySettings,
    sharedMemory,
    closeConn,
    dispose: async () => {
      await closeConn().catch(() => {})
      cluster?.stop()
      rmSync(serverEnv.DATA_DIR!, { recursive: true, force: true })
    },
  }
}
