/**
 * `npm run bench`: seeds BENCH_ROWS police stations (default 100,000, up to 1,000,000),
 * measures the list, deep-page, search and read endpoints through HTTP next to the same
 * engine queries run directly on the database (the floor), and the gzip size of the JS
 * the login route and a list route load in Chromium. Writes bench/RESULTS.md.
 *
 * BENCH_DB=postgres|pglite (default: postgres when its binaries exist), BENCH_REQUESTS,
 * BENCH_CONCURRENCY. Figures vary run to run; compare within one run.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir, cpus } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { sql } from 'kysely'
import { registry } from '../schema'
import { connect, type Connection } from '../server/db/connect'
import { seed } from '../server/db/demo/seed'
import { districts } from '../server/db/demo/data/bangladesh'
import { migrate } from '../server/db/sync'
import { findRow, listRows, type ListQuery } from '../server/engine/list-query'
import { entities } from '../schema'
import { postgresBinDir, startPostgres, type Cluster } from '../tests/support/postgres-cluster'
import { startServer } from '../tests/support/server-process'
import { measure, type Figures } from './stats'

const ROWS = Math.min(1_000_000, Math.max(1_000, Number(process.env.BENCH_ROWS ?? 100_000)))
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)
const KIND = (process.env.BENCH_DB ?? (postgresBinDir() ? 'postgres' : 'pglite')) as 'postgres' | 'pglite'
const thana = registry.thana

type Case = { name: string; path: string; query: () => ListQuery | number }

async function fillThanas(conn: Connection): Promise<number> {
  const names = districts.flatMap((d) => d.thanas.map((t) => t.name))
  const existing = Number((await sql<{ n: number }>`select count(*) as n from thana`.execute(conn.db)).rows[0]!.n)
  const cityIds = (await sql<{ id: number }>`select id from city order by id`.execute(conn.db)).rows.map((r) => r.id)
  const missing = ROWS - existing
  const batch = 100_000
  for (let done = 0; done < missing; done += batch) {
    const n = Math.min(batch, missing - done)
    await sql`insert into thana (name, city, created_by, updated_by)
      select (${names}::text[])[1 + (g % ${names.length}::int)] || ' ' || g, (${cityIds}::bigint[])[1 + (g % ${cityIds.length}::int)], 1, 1
      from generate_series(${done + 1}::int, ${done + n}::int) g`.execute(conn.db)
  }
  await sql`analyze`.execute(conn.db)
  return missing
}

async function bundleSizes(url: string, token: string): Promise<{ login: number; list: number; loginFiles: number; listFiles: number } | undefined> {
  if (!existsSync('/usr/bin/chromium') || !existsSync('dist/index.html')) return undefined
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  const jsLoaded = async (path: string, storage?: Record<string, string>) => {
    const context = await browser.newContext()
    if (storage) await context.addInitScript((s) => Object.entries(s).forEach(([k, v]) => localStorage.setItem(k, v)), storage)
    const page = await context.newPage()
    const bodies: Promise<Buffer>[] = []
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') bodies.push(r.body())
    })
    await page.goto(`${url}${path}`, { waitUntil: 'networkidle' })
    const buffers = await Promise.all(bodies)
    await context.close()
    return { bytes: buffers.reduce((a, b) => a + gzipSync(b).length, 0), files: buffers.length }
  }
  const login = await jsLoaded('/login')
  const list = await jsLoaded(thana.ui.listPath, { jwt_access_token: `Bearer ${token}`, user_id: '1' })
  await browser.close()
  return { login: login.bytes, list: list.bytes, loginFiles: login.files, listFiles: list.files }
}

const ms = (x: number) => x.toFixed(2)

async function main(): Promise<void> {
  console.log(`bench: ${ROWS.toLocaleString('en')} police stations on ${KIND}, ${REQUESTS} requests per case, concurrency ${CONCURRENCY}`)
  let cluster: Cluster | undefined
  let dataDir: string | undefined
  let conn: Connection
  let serverEnv: Record<string, string>
  if (KIND === 'postgres') {
    cluster = await startPostgres({ settings: { shared_buffers: '256MB' } })
    const url = `postgresql://${cluster.user}@${cluster.host}:${cluster.port}/postgres`
    conn = await connect({ kind: 'postgres', url })
    serverEnv = { DATABASE_URL: url }
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'bench-'))
    conn = await connect({ kind: 'pglite', dataDir: join(dataDir, 'pglite') })
    serverEnv = { DATA_DIR: dataDir }
  }
  const t0 = performance.now()
  await migrate(conn.db, entities)
  await seed(conn.db, { isDemo: true })
  const added = await fillThanas(conn)
  console.log(`seeded ${added.toLocaleString('en')} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

  const searchTerm = 'gul'
  const matches = Number((await sql<{ n: number }>`select count(*) as n from thana where name ilike ${`%${searchTerm}%`}`.execute(conn.db)).rows[0]!.n)
  const deepPage = Math.floor(ROWS / 30 / 2)
  const cases: Case[] = [
    { name: 'all/ page 1', path: `${thana.api.base}/all/?page=1&size=30`, query: () => ({ filters: [], ordering: thana.ordering, page: { page: 1, size: 30 } }) },
    { name: `all/ page ${deepPage}`, path: `${thana.api.base}/all/?page=${deepPage}&size=30`, query: () => ({ filters: [], ordering: thana.ordering, page: { page: deepPage, size: 30 } }) },
    { name: `search/ name=${searchTerm}`, path: `${thana.api.base}/search/?name=${searchTerm}&size=30`, query: () => ({ filters: [{ field: 'name', op: 'contains', value: searchTerm }], ordering: thana.ordering, page: { page: 1, size: 30 } }) },
    { name: '{id}', path: `${thana.api.base}/12345`, query: () => 12345 },
  ]
  const runOpts = { total: REQUESTS, concurrency: CONCURRENCY, warmup: 50 }

  const floor = new Map<string, Figures>()
  for (const c of cases) {
    floor.set(c.name, await measure(async () => {
      const q = c.query()
      if (typeof q === 'number') await findRow(conn.db, thana, q)
      else await listRows(conn.db, thana, q)
    }, runOpts))
  }
  if (KIND === 'pglite') await conn.close()

  const server = await startServer(serverEnv)
  const http = new Map<string, Figures>()
  let token = ''
  let bundles: Awaited<ReturnType<typeof bundleSizes>>
  let health: Figures = { n: 0, p50: 0, p95: 0, mean: 0, rps: 0 }
  try {
    const login = await fetch(`${server.url}/user/api/v1/user/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'admin123' }) })
    token = ((await login.json()) as { access: string }).access
    const headers = { authorization: `Bearer ${token}` }
    for (const c of cases) {
      http.set(c.name, await measure(async () => {
        const r = await fetch(`${server.url}${c.path}`, { headers })
        if (!r.ok) throw new Error(`${c.path}: ${r.status}`)
        await r.arrayBuffer()
      }, runOpts))
    }
    health = await measure(async () => {
      const r = await fetch(`${server.url}/api/health`)
      await r.arrayBuffer()
    }, runOpts)
    bundles = await bundleSizes(server.url, token)
  } finally {
    await server.stop()
    if (KIND === 'postgres') await conn.close()
    cluster?.stop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }

  const lines: string[] = []
  lines.push('# Benchmark results', '')
  lines.push(`Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores, Node ${process.version}: \`npm run bench\` with ${ROWS.toLocaleString('en')} police stations on ${KIND === 'postgres' ? 'PostgreSQL (throwaway cluster)' : 'PGlite'}, ${REQUESTS} requests per case at concurrency ${CONCURRENCY} (client and server share the machine).`)
  lines.push(`Search \`name=${searchTerm}\` matches ${matches.toLocaleString('en')} rows. Figures are noisy (±25%): compare within one run.`, '')
  lines.push('## API through HTTP next to the SQL floor', '')
  lines.push('The floor is the same engine query (count + page, or the row read) run directly on the database connection, without HTTP, auth or JSON.', '')
  lines.push('| case | HTTP p50 ms | HTTP p95 ms | HTTP req/s | floor p50 ms | floor p95 ms | p95 ratio (target ≤ 1.3) |')
  lines.push('|---|---:|---:|---:|---:|---:|---:|')
  for (const c of cases) {
    const h = http.get(c.name)!
    const f = floor.get(c.name)!
    lines.push(`| \`${c.name}\` | ${ms(h.p50)} | ${ms(h.p95)} | ${h.rps.toFixed(0)} | ${ms(f.p50)} | ${ms(f.p95)} | ${(h.p95 / f.p95).toFixed(2)} |`)
  }
  lines.push(`| \`/api/health\` (HTTP alone: no database, no token) | ${ms(health.p50)} | ${ms(health.p95)} | ${health.rps.toFixed(0)} | – | – | – |`)
  lines.push('', 'The last row is the cost of HTTP itself on this machine (client and server share its two cores): it bounds how close a page can come to its floor.')
  lines.push('', 'Original stack (performance-anchors.md, PostgreSQL 15, 100,000 rows, wrk with 8 connections): `all/` page 1 23 req/s, deep page 22 req/s, search 11 req/s, `{id}` 680 req/s.', '')
  lines.push('## JavaScript loaded (gzip)', '')
  if (bundles) {
    lines.push('| route | JS files | gzip kB | target |', '|---|---:|---:|---:|')
    lines.push(`| \`/login\` | ${bundles.loginFiles} | ${(bundles.login / 1024).toFixed(1)} | ≤ 120 |`)
    lines.push(`| \`${thana.ui.listPath}\` | ${bundles.listFiles} | ${(bundles.list / 1024).toFixed(1)} | ≤ 150 |`)
  } else {
    lines.push('Not measured: needs `/usr/bin/chromium` and a built `dist/` (`npm run build`).')
  }
  // Against the targets of performance-anchors.md, computed from this run.
  const original: Record<string, number> = { 'all/ page 1': 23, [`all/ page ${deepPage}`]: 22, [`search/ name=${searchTerm}`]: 11, '{id}': 680 }
  const wanted: Record<string, number> = { 'all/ page 1': 10, [`all/ page ${deepPage}`]: 10, [`search/ name=${searchTerm}`]: 20, '{id}': 3 }
  lines.push('', '## Against the targets', '')
  for (const c of cases) {
    const h = http.get(c.name)!
    const times = h.rps / original[c.name]!
    lines.push(`- \`${c.name}\`: ${times.toFixed(0)}× the original stack's req/s (target ≥ ${wanted[c.name]}×) — ${times >= wanted[c.name]! ? 'met' : 'not met'}.`)
  }
  if (bundles) {
    lines.push(`- \`/login\` JS ${(bundles.login / 1024).toFixed(1)} kB gzip (≤ 120) — ${bundles.login / 1024 <= 120 ? 'met' : 'not met'}; list route ${(bundles.list / 1024).toFixed(1)} kB (≤ 150) — ${bundles.list / 1024 <= 150 ? 'met' : 'not met'}: React DOM, TanStack Router and i18next alone weigh about 100 kB of it.`)
  }
  const report = lines.join('\n') + '\n'
  writeFileSync('bench/RESULTS.md', report)
  console.log(report)
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
