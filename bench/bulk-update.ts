import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { entities } from '../schema'
import { buildApp } from '../server/app'
import { hashPassword } from '../server/auth/passwords'
import { signToken } from '../server/auth/tokens'
import { connect, type Connection } from '../server/db/connect'
import { migrate } from '../server/db/sync'
import { startPostgres, type Cluster } from '../tests/support/postgres-cluster'

/**
 * Bulk update (issue 25) of many records and its undo, timed through the app (Fastify's
 * inject: the route, its auth, validation, transaction and audit, without the network).
 * The records are Police Stations (`thana`: a name unique within its district, a Bangla name,
 * a website, the district it is in), seeded directly with SQL; the route reaches all of them
 * by the list's search. Each case is one request; its undo another.
 *
 *   npx tsx bench/bulk-update.ts                       # 10,000 rows, PGlite then PostgreSQL
 *   BULK_ROWS=2000 BULK_DBS=pglite npx tsx bench/bulk-update.ts
 *   BULK_CASES=url,city npx tsx bench/bulk-update.ts   # also move every record to another district
 */
const ROWS = Number(process.env.BULK_ROWS ?? 10_000)
const DBS = (process.env.BULK_DBS ?? 'pglite,postgres').split(',').filter((x): x is 'pglite' | 'postgres' => x === 'pglite' || x === 'postgres')
const CASES = (process.env.BULK_CASES ?? 'url').split(',')
const SECRET = 'bench-secret-of-at-least-thirty-two-characters'
const CITIES = 10

type Row = { db: string; label: string; seconds: number; answer: string }

async function open(kind: 'pglite' | 'postgres'): Promise<{ conn: Connection; dispose: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bulk-'))
  let cluster: Cluster | undefined
  let conn: Connection
  if (kind === 'postgres') {
    cluster = await startPostgres({ settings: { shared_buffers: '256MB' } })
    conn = await connect({ kind: 'postgres', url: `postgresql://${cluster.user}@${cluster.host}:${cluster.port}/postgres` })
  } else {
    conn = await connect({ kind: 'pglite', dataDir: join(dir, 'pglite') })
  }
  return {
    conn,
    dispose: async () => {
      await conn.close().catch(() => {})
      cluster?.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** One country, its districts, and ROWS police stations spread over them, named "Bench <n>". */
async function seed(conn: Connection): Promise<{ adminId: number; cities: number[] }> {
  const password = await hashPassword('admin123')
  const admin = await sql<{ id: number }>`insert into "user" (first_name, last_name, username, email, password, is_admin, is_active)
    values ('Bench', 'Admin', 'bench', 'bench@example.com', ${password}, true, true) returning id`.execute(conn.db)
  const adminId = Number(admin.rows[0]!.id)
  const country = await sql<{ id: number }>`insert into country (name) values ('Benchland') returning id`.execute(conn.db)
  const cities = await sql<{ id: number }>`insert into city (name, country, created_by, updated_by)
    select 'Bench district ' || g, ${country.rows[0]!.id}, ${adminId}, ${adminId} from generate_series(1, ${CITIES}::int) g returning id`.execute(conn.db)
  const ids = cities.rows.map((r) => Number(r.id)).sort((a, b) => a - b)
  // Districts 1..CITIES-1 hold the stations; the last stays empty, for the move.
  await sql`insert into thana (name, bn_name, city, created_by, updated_by)
    select 'Bench ' || g, 'বেঞ্চ ' || g, (${ids.slice(0, -1)}::bigint[])[1 + (g % ${CITIES - 1}::int)], ${adminId}, ${adminId}
    from generate_series(1, ${ROWS}::int) g`.execute(conn.db)
  await sql`analyze`.execute(conn.db)
  return { adminId, cities: ids }
}

async function runOn(kind: 'pglite' | 'postgres'): Promise<Row[]> {
  const { conn, dispose } = await open(kind)
  const out: Row[] = []
  try {
    await migrate(conn.db, entities)
    const mediaDir = mkdtempSync(join(tmpdir(), 'bench-bulk-media-'))
    const app = await buildApp({ db: conn.db, jwtSecret: SECRET, mediaDir })
    await app.ready()
    try {
      const { adminId, cities } = await seed(conn)
      const token = await signToken(SECRET, adminId)
      const base = '/thana/api/v1/thana'
      const post = async (url: string, payload: unknown) => {
        const t0 = performance.now()
        const res = await app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: { authorization: `Bearer ${token}` } })
        const seconds = (performance.now() - t0) / 1000
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`)
        return { seconds, body: JSON.parse(res.body) as Record<string, unknown> }
      }
      const audited = async (batch: unknown) => Number((await sql<{ n: string }>`select count(*) as n from audit_log where batch = ${String(batch)}::uuid`.execute(conn.db)).rows[0]!.n)
      const cases: Record<string, Record<string, unknown>> = { url: { url: 'https://example.org/bench' }, city: { city: cities.at(-1) } }
      for (const name of CASES) {
        const values = cases[name]
        if (!values) throw new Error(`unknown case ${name}: url or city`)
        const done = await post(`${base}/bulk_update/`, { filter: { q: 'Bench' }, values })
        if (done.body.updated !== ROWS) throw new Error(`updated ${String(done.body.updated)}, not ${ROWS}`)
        out.push({ db: kind, label: `bulk_update ${Object.keys(values).join(', ')}`, seconds: done.seconds, answer: `${ROWS} updated, ${await audited(done.body.batch)} audit rows` })
        const undone = await post(`${base}/undo/${String(done.body.batch)}`, {})
        if (undone.body.restored !== ROWS) throw new Error(`restored ${String(undone.body.restored)}, not ${ROWS}`)
        out.push({ db: kind, label: `undo of it`, seconds: undone.seconds, answer: `${ROWS} restored, ${await audited(undone.body.batch)} audit rows` })
        console.log(`${kind}: ${name} ${done.seconds.toFixed(1)} s, undo ${undone.seconds.toFixed(1)} s`)
      }
    } finally {
      await app.close()
      rmSync(mediaDir, { recursive: true, force: true })
    }
  } finally {
    await dispose()
  }
  return out
}

const rows: Row[] = []
for (const kind of DBS) rows.push(...(await runOn(kind)))
console.log(`\nBulk update of ${ROWS.toLocaleString('en')} Police Stations, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}\n`)
console.log('| database | request | seconds | ms per record | answer |')
console.log('|---|---|---:|---:|---|')
for (const r of rows) console.log(`| ${r.db === 'pglite' ? 'PGlite' : 'PostgreSQL'} | ${r.label} | ${r.seconds.toFixed(2)} | ${((r.seconds * 1000) / ROWS).toFixed(2)} | ${r.answer} |`)
