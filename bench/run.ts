/**
 * `npm run bench`: seeds BENCH_ROWS police stations (default 100,000, up to 1,000,000;
 * names from 12 prefixes, one of which matches `gul`), measures the list, deep-page,
 * many-match search, `q` search and read endpoints through HTTP next to the same engine
 * queries run directly on the database (the floor), the gzip size of the JS the login
 * route and a list route load in Chromium, and the server's memory (RSS at rest and peak
 * under the same requests) on both databases. Writes bench/RESULTS.md.
 *
 * BENCH_DB=postgres|pglite (the database of the main table; default: postgres when its
 * binaries exist), BENCH_REQUESTS, BENCH_CONCURRENCY. Figures vary run to run; compare
 * within one run.
 */
import { existsSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { pathToFileURL } from 'node:url'
import { registry } from '../schema'
import { findRow, listRows } from '../server/engine/list-query'
import { postgresBinDir } from '../tests/support/postgres-cluster'
import { benchCases, countMatches, SEARCH_TERM, type Case } from './dataset'
import { prepareDb, type BenchDb, type Kind } from './databases'
import { mixRps, runHttpCases, signIn, underLoad, type Memory, type Outcome } from './load'
import { startServer } from '../tests/support/server-process'
import { measure, type Figures } from './stats'
import { writeMainResults } from './accounting-results'

const ROWS = Math.min(1_000_000, Math.max(1_000, Number(process.env.BENCH_ROWS ?? 100_000)))
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)
const HAS_POSTGRES = postgresBinDir() !== undefined
const KIND = (process.env.BENCH_DB ?? (HAS_POSTGRES ? 'postgres' : 'pglite')) as Kind
/** The issue's memory aim for the PGlite server process (MB of RSS). */
const MEMORY_AIM_MB = 200
/** Runs of each PGlite configuration in the memory section (BENCH_PGLITE_ROUNDS). */
const PGLITE_ROUNDS = Math.max(1, Number(process.env.BENCH_PGLITE_ROUNDS ?? 2))
const thana = registry.thana

type Loaded = { bytes: number; wire: number; files: number }

/** The JS a route loads on a phone-sized screen: its gzip size, and the bytes the server actually sent for it (brotli). */
async function bundleSizes(url: string, token: string): Promise<{ login: Loaded; list: Loaded } | undefined> {
  if (!existsSync('/usr/bin/chromium') || !existsSync('dist/index.html')) return undefined
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  const jsLoaded = async (path: string, storage?: Record<string, string>) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    if (storage) await context.addInitScript((s) => Object.entries(s).forEach(([k, v]) => localStorage.setItem(k, v)), storage)
    const page = await context.newPage()
    const bodies: Promise<Buffer>[] = []
    const sent: Promise<number>[] = []
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return
      sent.push(request.sizes().then((sizes) => sizes.responseBodySize))
      bodies.push(request.response().then((r) => r!.body()))
    })
    await page.goto(`${url}${path}`, { waitUntil: 'networkidle' })
    const [buffers, wire] = await Promise.all([Promise.all(bodies), Promise.all(sent)])
    await context.close()
    return { bytes: buffers.reduce((a, b) => a + gzipSync(b).length, 0), wire: wire.reduce((a, b) => a + b, 0), files: buffers.length }
  }
  const login = await jsLoaded('/login')
  const list = await jsLoaded(thana.ui.listPath, { jwt_access_token: `Bearer ${token}`, user_id: '1' })
  await browser.close()
  return { login, list }
}

const ms = (x: number) => x.toFixed(2)
const mb = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–')
const runOpts = { total: REQUESTS, concurrency: CONCURRENCY, warmup: 50 }
const dbLabel = (kind: Kind) => (kind === 'postgres' ? 'PostgreSQL (throwaway cluster)' : 'PGlite')

/** The floor of each case, or why it could not run (the engine refused the query). */
async function floors(db: BenchDb, cases: Case[]): Promise<Map<string, Outcome>> {
  const out = new Map<string, Outcome>()
  for (const c of cases) {
    const task = async () => {
      const q = c.query()
      if (typeof q === 'number') await findRow(db.conn.db, thana, q)
      else await listRows(db.conn.db, thana, q)
    }
    try {
      await task()
    } catch (e) {
      out.set(c.name, { refused: `listRows refused the query: ${e instanceof Error ? e.message : String(e)}` })
      continue
    }
    out.set(c.name, { figures: await measure(task, runOpts) })
  }
  return out
}

/**
 * A server on `db`, RSS 3 s after 'ready', then the cases through HTTP with the peak RSS;
 * `more` runs on the same server after. A run whose server something else on the machine
 * stopped (a SIGTERM it did not get from us) is made again, up to twice.
 */
async function serve<T>(db: BenchDb, cases: Case[], options: { preload?: string; env?: Record<string, string> } = {}, more?: (url: string, token: string) => Promise<T>) {
  if (db.kind === 'pglite') await db.closeConn()
  for (let attempt = 1; ; attempt++) {
    const server = await startServer({ ...db.serverEnv, ...options.env }, { preload: options.preload })
    try {
      const token = await signIn(server.url)
      const { memory, result: http } = await underLoad(server, () => runHttpCases(server.url, token, cases, runOpts))
      const extra = more ? await more(server.url, token) : undefined
      if (server.interrupted()) throw new Error('the server was stopped from outside during the run')
      return { memory, http, extra }
    } catch (e) {
      if (server.interrupted() && attempt < 3) {
        console.warn(`bench on ${db.kind}: the server was stopped by something else (attempt ${attempt}); running it again`)
        continue
      }
      throw new Error(`bench on ${db.kind} failed (${e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ''}` : String(e)}); the server is ${server.state()}`, { cause: e })
    } finally {
      await server.stop()
    }
  }
}

type MemoryRow = { label: string; memory?: Memory; http?: Map<string, Outcome>; note?: string }
type Run = { memory: Memory; http: Map<string, Outcome> }

/** Several runs of one configuration: the highest RSS (memory is what we bound) and each case's best req/s (other work on the machine only ever slows a run down). */
function combine(runs: Run[]): Run {
  const http = new Map<string, Outcome>()
  for (const run of runs) {
    for (const [name, o] of run.http) {
      const best = http.get(name)
      if (!best || (!('figures' in best) && 'figures' in o) || ('figures' in best && 'figures' in o && o.figures.rps > best.figures.rps)) http.set(name, o)
    }
  }
  return {
    memory: { restMb: Math.max(...runs.map((r) => r.memory.restMb)), peakMb: Math.max(...runs.map((r) => r.memory.peakMb)) },
    http,
  }
}

/**
 * PGlite as configured and as shipped (its defaults, not server/db/connect.ts's settings),
 * alternating, PGLITE_ROUNDS times each: what the settings save and cost. `first` is a run
 * as configured already made (the main table's).
 */
async function pgliteComparison(db: BenchDb, cases: Case[], preload: string, first?: Run): Promise<{ configured: Run; shipped: Run }> {
  const configured: Run[] = first ? [first] : []
  const shipped: Run[] = []
  for (let round = 0; round < PGLITE_ROUNDS; round++) {
    if (configured.length <= round) configured.push(await serve(db, cases))
    shipped.push(await serve(db, cases, { preload, env: { BENCH_PGLITE_OPTIONS: JSON.stringify({ settings: [] }) } }))
  }
  return { configured: combine(configured), shipped: combine(shipped) }
}

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0]!
  console.log(`bench: ${ROWS.toLocaleString('en')} police stations on ${KIND}, ${REQUESTS} requests per case, concurrency ${CONCURRENCY}`)
  const cases = benchCases(ROWS)
  const preload = pathToFileURL(join(import.meta.dirname, 'pglite-options.ts')).href

  // The main table: the floor and HTTP on the chosen database, its memory on the way.
  const primary = await prepareDb(KIND, ROWS)
  console.log(`seeded ${ROWS.toLocaleString('en')} rows on ${KIND} in ${primary.seconds.toFixed(1)} s`)
  const matches = await countMatches(primary.conn, SEARCH_TERM)
  const memoryRows = new Map<string, MemoryRow>()
  let pgliteSettings: string[] = []
  let postgresSettings: string[] = []
  let pgliteShared = ''
  const noteSettings = (db: BenchDb) => {
    if (db.kind === 'postgres') postgresSettings = db.memorySettings
    else [pgliteSettings, pgliteShared] = [db.memorySettings, db.sharedMemory]
  }
  noteSettings(primary)
  let floor: Map<string, Outcome>
  let http: Map<string, Outcome>
  let health: Figures
  let bundles: Awaited<ReturnType<typeof bundleSizes>>
  try {
    floor = await floors(primary, cases)
    const run = await serve(primary, cases, {}, async (url, token) => {
      const h = await measure(async () => {
        const r = await fetch(`${url}/api/health`)
        await r.arrayBuffer()
      }, runOpts)
      return { health: h, bundles: await bundleSizes(url, token) }
    })
    http = run.http
    health = run.extra!.health
    bundles = run.extra!.bundles
    if (KIND === 'pglite') {
      const { configured, shipped } = await pgliteComparison(primary, cases, preload, run)
      memoryRows.set('pglite', { label: dbLabel('pglite'), ...configured })
      memoryRows.set('pglite-shipped', { label: 'PGlite as shipped (for comparison)', ...shipped })
    } else {
      memoryRows.set(KIND, { label: dbLabel(KIND), memory: run.memory, http: run.http })
    }
  } finally {
    await primary.dispose()
  }

  // Memory on the other database, under the same requests.
  const other: Kind = KIND === 'postgres' ? 'pglite' : 'postgres'
  if (other === 'postgres' && !HAS_POSTGRES) {
    memoryRows.set(other, { label: dbLabel(other), note: 'not measured: no PostgreSQL binaries under /usr/lib/postgresql/*/bin' })
  } else {
    const second = await prepareDb(other, ROWS)
    console.log(`seeded ${ROWS.toLocaleString('en')} rows on ${other} in ${second.seconds.toFixed(1)} s`)
    noteSettings(second)
    try {
      if (other === 'pglite') {
        const { configured, shipped } = await pgliteComparison(second, cases, preload)
        memoryRows.set('pglite', { label: dbLabel('pglite'), ...configured })
        memoryRows.set('pglite-shipped', { label: 'PGlite as shipped (for comparison)', ...shipped })
      } else {
        const run = await serve(second, cases)
        memoryRows.set(other, { label: dbLabel(other), memory: run.memory, http: run.http })
      }
    } finally {
      await second.dispose()
    }
  }

  const lines: string[] = []
  const rps = (o: Outcome | undefined) => (o && 'figures' in o ? o.figures.rps.toFixed(0) : '–')
  lines.push('# Benchmark results', '')
  lines.push(`Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores, Node ${process.version}: \`npm run bench\` with ${ROWS.toLocaleString('en')} police stations on ${dbLabel(KIND)}, ${REQUESTS} requests per case at concurrency ${CONCURRENCY} (client and server share the machine; 1-minute load average at the start ${loadAtStart.toFixed(1)}${loadAtStart > cpus().length ? ': the machine was busy with other work, the req/s are low' : ''}).`)
  lines.push(`Station names are "<prefix> <n>" over 12 prefixes, one of which (Gulshan) contains \`${SEARCH_TERM}\`: \`name=${SEARCH_TERM}\` matches ${matches.name.toLocaleString('en')} rows, \`q=${SEARCH_TERM}\` (name or Bengali name) ${matches.any.toLocaleString('en')}. Figures are noisy (±25%): compare within one run.`, '')
  lines.push('## API through HTTP next to the SQL floor', '')
  lines.push('The floor is the same engine query (count + page, or the row read) run directly on the database connection, without HTTP, auth or JSON.', '')
  lines.push('| case | HTTP p50 ms | HTTP p95 ms | HTTP req/s | floor p50 ms | floor p95 ms | p95 ratio (target ≤ 1.3) |')
  lines.push('|---|---:|---:|---:|---:|---:|---:|')
  for (const c of cases) {
    const h = http.get(c.name)!
    const f = floor.get(c.name)!
    if (!('figures' in h)) {
      lines.push(`| \`${c.name}\` | not measured (the server refused: ${h.refused.replace(/\|/g, '\\|')}) | | | | | |`)
      continue
    }
    const fl = 'figures' in f ? f.figures : undefined
    lines.push(`| \`${c.name}\` | ${ms(h.figures.p50)} | ${ms(h.figures.p95)} | ${h.figures.rps.toFixed(0)} | ${fl ? ms(fl.p50) : '–'} | ${fl ? ms(fl.p95) : '–'} | ${fl ? (h.figures.p95 / fl.p95).toFixed(2) : '–'} |`)
  }
  lines.push(`| \`/api/health\` (HTTP alone: no database, no token) | ${ms(health.p50)} | ${ms(health.p95)} | ${health.rps.toFixed(0)} | – | – | – |`)
  for (const c of cases) {
    const f = floor.get(c.name)!
    if (!('figures' in f)) lines.push('', `Floor of \`${c.name}\` not measured (${f.refused}).`)
  }
  lines.push('', 'The last row is the cost of HTTP itself on this machine (client and server share its two cores): it bounds how close a page can come to its floor.')
  lines.push('', 'Original stack (performance-anchors.md, PostgreSQL 15, 100,000 rows, wrk with 8 connections): `all/` page 1 23 req/s, deep page 22 req/s, the many-match search (8,333 matches) 17.9 req/s, `{id}` 680 req/s. It has no `q`: that case is held to the name search\'s figure.', '')

  lines.push('## Server memory', '')
  lines.push(`RSS of the server process (VmRSS): at rest 3 s after 'ready' (signed in once), and the peak sampled every 100 ms while the cases above run through HTTP (${REQUESTS} requests each at concurrency ${CONCURRENCY}), on a fresh server per run; the PGlite rows take ${PGLITE_ROUNDS} alternating runs of each configuration, with the highest RSS and each case's best req/s (other work on the machine only slows a run down). PGlite runs on a data directory (DATA_DIR), PostgreSQL through DATABASE_URL on the throwaway cluster (its own processes are not counted). WebAssembly memory never shrinks, so PGlite's peak is what it keeps.`, '')
  lines.push(`| database | RSS at rest MB | RSS peak MB | ${cases.map((c) => `\`${c.name}\` req/s`).join(' | ')} | mix req/s |`)
  lines.push(`|---|---:|---:|${cases.map(() => '---:').join('|')}|---:|`)
  for (const key of ['pglite', 'pglite-shipped', 'postgres']) {
    const row = memoryRows.get(key)
    if (!row) continue
    if (!row.memory || !row.http) {
      lines.push(`| ${row.label} | ${row.note ?? 'not measured'} | | ${cases.map(() => '').join(' | ')} | |`)
      continue
    }
    lines.push(`| ${row.label} | ${mb(row.memory.restMb)} | ${mb(row.memory.peakMb)} | ${cases.map((c) => rps(row.http!.get(c.name))).join(' | ')} | ${mixRps(row.http).toFixed(0)} |`)
  }
  const pg = memoryRows.get('pglite')
  const shipped = memoryRows.get('pglite-shipped')
  const pgBase = memoryRows.get('postgres')?.memory
  lines.push('')
  lines.push(
    `PGlite's settings (server/db/connect.ts): ${pgliteSettings.map((x) => `\`${x}\``).join(', ') || 'none'} (PGlite ships shared_buffers=128MB, maintenance_work_mem=64MB); the PostgreSQL cluster runs with ${postgresSettings.map((x) => `\`${x}\``).join(', ') || 'its defaults'}. ` +
      "PGlite zero-fills its shared memory when it starts, so all of shared_buffers is resident from the first second and stays so; maintenance_work_mem bounds what an index build at start-up adds for good (WebAssembly memory never shrinks)." +
      (pg?.memory && pgBase
        ? ` The PGlite server stays ${mb(pg.memory.peakMb - pgBase.peakMb)} MB above the PostgreSQL mode at peak: ${pgliteShared.replace(/(\d)([kMG]B)$/, '$1 $2')} of it is its shared memory now, the rest its compiled WebAssembly code (baseline, then optimised for hot functions), its file-system bundle and its heap, which no PGlite setting changes.`
        : '') +
      ' `npx tsx bench/pglite-sweep.ts` measures other settings (bench/pglite-sweep.md).',
  )
  if (pg?.memory && shipped?.memory && pg.http && shipped.http) {
    const costs = cases
      .filter((c) => 'figures' in (pg.http!.get(c.name) ?? {}) && 'figures' in (shipped.http!.get(c.name) ?? {}))
      .map((c) => {
        const a = (pg.http!.get(c.name) as { figures: Figures }).figures.rps
        const b = (shipped.http!.get(c.name) as { figures: Figures }).figures.rps
        const d = (a / b - 1) * 100
        return `\`${c.name}\` ${d >= 0 ? '+' : ''}${d.toFixed(0)} %`
      })
    lines.push(
      '',
      `What they cost, in this run: against PGlite as shipped they save ${mb(shipped.memory.restMb - pg.memory.restMb)} MB at rest and ${mb(shipped.memory.peakMb - pg.memory.peakMb)} MB of peak (${mb(shipped.memory.peakMb)} → ${mb(pg.memory.peakMb)} MB), and change req/s by ${costs.join(', ')}, mix ${mixRps(pg.http) >= mixRps(shipped.http) ? '+' : ''}${((mixRps(pg.http) / mixRps(shipped.http) - 1) * 100).toFixed(0)} % (run-to-run noise is ±25 %).`,
    )
  }
  lines.push('')

  lines.push('## JavaScript loaded (390 px screen)', '')
  if (bundles) {
    lines.push('| route | JS files | gzip kB | sent kB (brotli, as served) | target (gzip) |', '|---|---:|---:|---:|---:|')
    lines.push(`| \`/login\` | ${bundles.login.files} | ${(bundles.login.bytes / 1024).toFixed(1)} | ${(bundles.login.wire / 1024).toFixed(1)} | ≤ 120 |`)
    lines.push(`| \`${thana.ui.listPath}\` | ${bundles.list.files} | ${(bundles.list.bytes / 1024).toFixed(1)} | ${(bundles.list.wire / 1024).toFixed(1)} | ≤ 150 |`)
  } else {
    lines.push('Not measured: needs `/usr/bin/chromium` and a built `dist/` (`npm run build`).')
  }

  // Against the targets of performance-anchors.md and the issue's memory aim, computed from this run.
  lines.push('', '## Against the targets', '')
  for (const c of cases) {
    const h = http.get(c.name)!
    if (!('figures' in h)) {
      lines.push(`- \`${c.name}\`: not measured (the server refused: ${h.refused}) — target ≥ ${c.target}× the original's ${c.original} req/s.`)
      continue
    }
    const times = h.figures.rps / c.original!
    lines.push(`- \`${c.name}\`: ${times.toFixed(1)}× the original stack's ${c.original} req/s (target ≥ ${c.target}×) — ${times >= c.target! ? 'met' : 'not met'}.`)
  }
  if (pg?.memory) {
    const worst = Math.max(pg.memory.restMb, pg.memory.peakMb)
    const base = memoryRows.get('postgres')?.memory
    lines.push(
      `- PGlite server RSS ${mb(pg.memory.restMb)} MB at rest, ${mb(pg.memory.peakMb)} MB peak (aim ≤ ${MEMORY_AIM_MB} MB) — ${worst <= MEMORY_AIM_MB ? 'met' : 'not met'}` +
        (!base
          ? '.'
          : base.peakMb >= MEMORY_AIM_MB
            ? `: the same server on PostgreSQL already takes ${mb(base.restMb)} MB at rest and ${mb(base.peakMb)} MB at peak without any database in its process, so no PGlite setting can meet it.`
            : `: the same server on PostgreSQL takes ${mb(base.restMb)} MB at rest, ${mb(base.peakMb)} MB at peak, which leaves PGlite ${mb(MEMORY_AIM_MB - base.peakMb)} MB.`),
    )
  }
  if (bundles) {
    lines.push(`- \`/login\` JS ${(bundles.login.bytes / 1024).toFixed(1)} kB gzip (≤ 120) — ${bundles.login.bytes / 1024 <= 120 ? 'met' : 'not met'}, ${(bundles.login.wire / 1024).toFixed(1)} kB as sent; list route ${(bundles.list.bytes / 1024).toFixed(1)} kB (≤ 150) — ${bundles.list.bytes / 1024 <= 150 ? 'met' : 'not met'}, ${(bundles.list.wire / 1024).toFixed(1)} kB as sent: React DOM, TanStack Router and i18next alone weigh about 100 kB of it.`)
  }
  const report = lines.join('\n') + '\n'
  writeMainResults('bench/RESULTS.md', report)
  console.log(report)
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
