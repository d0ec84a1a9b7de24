import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { sql } from 'kysely'
import { entities } from '../schema'
import { buildApp } from '../server/app'
import { connect, type Connection } from '../server/db/connect'
import { migrate } from '../server/db/sync'
import { seed } from '../server/demo/seed'
import { freePort, postgresBinDir } from '../tests/support/postgres-cluster'
import { fillThanas } from './dataset'
import type { Kind } from './databases'

/**
 * The search bench's databases, kept between runs under bench/.data (git-ignored): a million
 * police stations take minutes to seed and index on two shared cores, so they are seeded once.
 * PostgreSQL: one cluster (bench/.data/search-pg) with a database per size; PGlite: a data
 * directory per size. Removing bench/.data starts over.
 */
const ROOT = resolve(import.meta.dirname, '.data')

export type SearchDb = { kind: Kind; rows: number; conn: Connection; seededSeconds?: number; close: () => Promise<void> }

let cluster: { port: number; stop: () => void; refs: number } | undefined

function asPostgres(bin: string, cmd: string, args: string[]): Buffer {
  const asRoot = process.getuid?.() === 0
  return asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' }) : execFileSync(join(bin, cmd), args, { stdio: 'pipe' })
}

/** The kept cluster, started (initialised the first time) on a free port. */
async function startCluster(): Promise<{ port: number }> {
  if (cluster) {
    cluster.refs++
    return cluster
  }
  const bin = postgresBinDir()
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql/*/bin')
  const root = join(ROOT, 'search-pg')
  const data = join(root, 'data')
  const sock = join(root, 'sock')
  const owner = process.getuid?.() === 0 ? { uid: Number(execFileSync('id', ['-u', 'postgres'])), gid: Number(execFileSync('id', ['-g', 'postgres'])) } : undefined
  if (!existsSync(data)) {
    mkdirSync(sock, { recursive: true })
    if (owner) for (const dir of [root, sock]) chownSync(dir, owner.uid, owner.gid)
    asPostgres(bin, 'initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'])
  }
  const port = await freePort()
  // As bench/databases.ts runs its cluster: 256 MB of shared buffers, no fsync (a bench, not a store).
  const opts = [`-c listen_addresses='127.0.0.1'`, `-k ${sock}`, `-p ${port}`, '-c shared_buffers=256MB', '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'].join(' ')
  asPostgres(bin, 'pg_ctl', ['-D', data, '-l', join(root, 'log'), '-w', '-o', opts, 'start'])
  cluster = { port, refs: 1, stop: () => asPostgres(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']) }
  return cluster
}

function releaseCluster(): void {
  if (!cluster || --cluster.refs > 0) return
  cluster.stop()
  cluster = undefined
}

/** Migrates, seeds the demo (its districts and admin), tops the police stations up to `rows`, then VACUUM ANALYZE. */
async function fill(conn: Connection, rows: number, mediaDir: string): Promise<void> {
  await migrate(conn.db, entities)
  const app = await buildApp({ db: conn.db, jwtSecret: 'bench-secret-of-at-least-thirty-two-characters', mediaDir, isDemo: true })
  await seed(conn.db, { isDemo: true, hooks: app.engine.hooks })
  await app.close()
  await fillThanas(conn, rows)
  // As autovacuum leaves a table at rest: the visibility map set (index-only scans), statistics fresh.
  await sql`vacuum analyze thana`.execute(conn.db)
}

const isSeeded = async (conn: Connection, rows: number) => {
  try {
    const r = await sql<{ n: number }>`select n from row_count where table_name = 'thana'`.execute(conn.db)
    return Number(r.rows[0]?.n ?? 0) >= rows
  } catch {
    return false
  }
}

/** The bench database of `rows` police stations on `kind`, seeded the first time. */
export async function searchDb(kind: Kind, rows: number): Promise<SearchDb> {
  mkdirSync(ROOT, { recursive: true })
  const media = join(ROOT, 'search-media')
  const t0 = performance.now()
  if (kind === 'pglite') {
    const dir = join(ROOT, `search-pglite-${rows}`)
    const conn = await connect({ kind: 'pglite', dataDir: dir })
    let seededSeconds: number | undefined
    if (!(await isSeeded(conn, rows))) {
      await fill(conn, rows, media)
      seededSeconds = (performance.now() - t0) / 1000
      writeFileSync(join(ROOT, `search-pglite-${rows}.seeded`), `${new Date().toISOString()} ${seededSeconds.toFixed(0)} s\n`)
    }
    return { kind, rows, conn, seededSeconds, close: () => conn.close() }
  }
  const { port } = await startCluster()
  const name = `thana_${rows}`
  const admin = await connect({ kind: 'postgres', poolConfig: { host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 1 } })
  try {
    const exists = await sql`select 1 from pg_database where datname = ${name}`.execute(admin.db)
    if (exists.rows.length === 0) await sql`create database ${sql.id(name)}`.execute(admin.db)
  } finally {
    await admin.close()
  }
  const conn = await connect({ kind: 'postgres', poolConfig: { host: '127.0.0.1', port, user: 'postgres', database: name, max: 4 } })
  let seededSeconds: number | undefined
  if (!(await isSeeded(conn, rows))) {
    await fill(conn, rows, media)
    seededSeconds = (performance.now() - t0) / 1000
  }
  return {
    kind,
    rows,
    conn,
    seededSeconds,
    close: async () => {
      await conn.close()
      releaseCluster()
    },
  }
}
