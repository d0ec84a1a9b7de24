/**
 * `npm run bench:servers`: the same requests against 1, 2 and 3 real server processes on one
 * PostgreSQL, driven round-robin (request i goes to server i mod n) — a list page, a new
 * search (a term no server has counted yet), a deep page (pages walked one after another) and
 * a report (the trial balance) — then the list and the report at 1,000,000 police stations on
 * one server. The databases are the search bench's, kept under bench/.data (search-data.ts
 * seeds them the first time). The servers share one JWT_SECRET: one sign-in's token is
 * accepted by every server. Writes the "Several servers" section of bench/RESULTS.md.
 *
 * SERVERS_ROWS (100000), SERVERS_COUNTS (1,2,3,3,2,1), SERVERS_REQUESTS (per case, 400),
 * SERVERS_CONCURRENCY (8), SERVERS_BIG_ROWS (1000000; 0 skips the one-server run at scale).
 */
import { cpus, loadavg, totalmem } from 'node:os'
import { sql } from 'kysely'
import { registry, reportRegistry } from '../schema'
import { startServer, type RunningServer } from '../tests/support/server-process'
import { writeSection } from './accounting-results'
import { PREFIXES } from './dataset'
import { signIn } from './load'
import { searchDb, type SearchDb } from './search-data'
import { measure, type Figures } from './stats'

const thana = registry.thana
const ROWS = Number(process.env.SERVERS_ROWS ?? 100_000)
/** Twice, in mirrored order (1, 2, 3, 3, 2, 1): a machine getting busier or quieter during the run weighs on every count alike. */
const COUNTS = (process.env.SERVERS_COUNTS ?? '1,2,3,3,2,1').split(',').map(Number)
const REQUESTS = Number(process.env.SERVERS_REQUESTS ?? 400)
const CONCURRENCY = Number(process.env.SERVERS_CONCURRENCY ?? 8)
const BIG_ROWS = Number(process.env.SERVERS_BIG_ROWS ?? 1_000_000)
const JWT_SECRET = 'bench-secret-of-at-least-thirty-two-characters'
const SIZE = 30

/** One case: the path of its i-th request (a case may ask something new each time). */
type Case = { name: string; path: (i: number) => string }

/**
 * A term no server has counted before: the last two letters of a prefix, a space and a
 * number ("an 417"), a different one for every request of a run (the count of a search is
 * remembered per process, so a repeated term would measure that memory).
 */
function newTerm(i: number, run: number): string {
  const tails = [...new Set(PREFIXES.map(([en]) => en.slice(-2).toLowerCase()))]
  const n = 100 + ((run * 997 + i) % 900)
  return `${tails[i % tails.length]} ${n}`
}

function cases(rows: number, run: number): Case[] {
  const deep = Math.floor(rows / SIZE / 2)
  const year = new Date().getUTCFullYear()
  return [
    { name: '`all/` page 1', path: () => `${thana.api.base}/all/?page=1&size=${SIZE}` },
    { name: '`search/?name=<new term>` page 1', path: (i) => `${thana.api.base}/search/?name=${encodeURIComponent(newTerm(i, run))}&size=${SIZE}` },
    { name: `\`all/\` pages ${deep.toLocaleString('en')}…, walked one after another`, path: (i) => `${thana.api.base}/all/?page=${deep + i}&size=${SIZE}` },
    {
      name: `trial balance, ${year - 1}–${year}`,
      path: () => `${reportRegistry.trial_balance.api.base}/?date_after=${year - 1}-01-01&date_before=${year}-12-31`,
    },
  ]
}

type Row = { rows: number; servers: number; run: number; name: string; figures: Figures }

/** Every case at `servers.length` servers, request i to server i mod n, one token for all. */
async function drive(servers: RunningServer[], token: string, rows: number, run: number, out: Row[]): Promise<void> {
  const headers = { authorization: `Bearer ${token}` }
  for (const c of cases(rows, run)) {
    let i = 0
    const task = async () => {
      const k = i++
      const url = servers[k % servers.length]!.url
      const r = await fetch(`${url}${c.path(k)}`, { headers })
      if (!r.ok) throw new Error(`${c.name} on ${url}: ${r.status} ${(await r.text()).slice(0, 200)}`)
      await r.arrayBuffer()
    }
    // Warm-up: each server answers the case a few times (its plans, its pool's connections).
    const figures = await measure(task, { total: REQUESTS, concurrency: CONCURRENCY, warmup: 6 * servers.length })
    out.push({ rows, servers: servers.length, run, name: c.name, figures })
    console.log(`${rows} rows, ${servers.length} server(s), ${c.name}: ${figures.rps.toFixed(0)} req/s, p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms`)
  }
}

async function urlOf(s: SearchDb): Promise<string> {
  const r = await sql<{ port: number; db: string }>`select inet_server_port() as port, current_database() as db`.execute(s.conn.db)
  return `postgresql://postgres@127.0.0.1:${r.rows[0]!.port}/${r.rows[0]!.db}`
}

async function startServers(n: number, databaseUrl: string, running: RunningServer[]): Promise<RunningServer[]> {
  // One after another: each start takes the migration lock in turn, and a start is not what is measured.
  const started: RunningServer[] = []
  for (let k = 0; k < n; k++) {
    const server = await startServer({ DATABASE_URL: databaseUrl, JWT_SECRET })
    running.push(server)
    started.push(server)
  }
  return started
}

async function stopAll(running: RunningServer[]): Promise<void> {
  await Promise.all(running.splice(0).map((s) => s.stop()))
}

const when = () => new Date().toISOString().slice(0, 16).replace('T', ' ')

async function main(): Promise<void> {
  const out: Row[] = []
  const loads: string[] = []
  const running: RunningServer[] = []
  const began = when()
  const sizes = [ROWS, ...(BIG_ROWS > 0 ? [BIG_ROWS] : [])]
  try {
    for (const rows of sizes) {
      const s = await searchDb('postgres', rows)
      if (s.seededSeconds !== undefined) console.log(`seeded ${rows.toLocaleString('en')} rows in ${s.seededSeconds.toFixed(0)} s`)
      try {
        const url = await urlOf(s)
        const counts = rows === ROWS ? COUNTS : [1]
        for (const [run, n] of counts.entries()) {
          const servers = await startServers(n, url, running)
          const token = await signIn(servers[0]!.url)
          const l0 = loadavg()[0]!
          await drive(servers, token, rows, run + (rows === ROWS ? 0 : 10), out)
          loads.push(`${rows.toLocaleString('en')} rows × ${n}: ${l0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`)
          const interrupted = servers.filter((x) => x.interrupted())
          if (interrupted.length > 0) throw new Error(`a server stopped during the run:\n${interrupted[0]!.state()}`)
          await stopAll(running)
        }
      } finally {
        await stopAll(running)
        await s.close()
      }
    }
  } finally {
    await stopAll(running)
  }
  writeResults(out, loads, began)
}

const ms = (x: number) => x.toFixed(1)

function writeResults(out: Row[], loads: string[], began: string): void {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU'
  const lines: string[] = ['## Several servers', '']
  lines.push(
    `Run ${began} UTC: \`npm run bench:servers\` (bench/multi-server.ts) on ${cpus().length} cores (${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GB), Node ${process.version}, shared with other work — 1-minute load average at the start → end of each run: ${loads.join('; ')}. ` +
      `One PostgreSQL 15 (the search bench's cluster under bench/.data, shared_buffers=256MB, fsync off) with ${ROWS.toLocaleString('en')} police stations; 1, 2, then 3 server processes (\`server/main.ts\`, one \`JWT_SECRET\`, a pool of 10 connections each) started on it, and the same requests sent round-robin — request i to server i mod n — ${REQUESTS} per case at concurrency ${CONCURRENCY}, by one client on the same machine. One sign-in on the first server; its token is accepted by every server. ` +
      `A new search asks a term no server has counted (its count is remembered per process): the end of a prefix, a space and a number (\`an 417\`), a few to a few hundred matches; the deep pages are walked one after another — rows a page is sought from are remembered per process, so with n servers each server seeks from its own last page, n pages back (list-positions.ts: the nearest remembered row before the page), and only its first deep page is cut by OFFSET; the trial balance sums the demo's ledger (a few dozen rows: the report's machinery — parameters, permission, the count and totals, JSON — not a large sum; the ledger report and the trial balance over 1,000,000 ledger rows are in the Accounting section above).`,
    '',
  )
  lines.push('| rows | servers | run | case | req/s | p50 ms | p95 ms |', '|---:|---:|---:|---|---:|---:|---:|')
  for (const r of out) lines.push(`| ${r.rows.toLocaleString('en')} | ${r.servers} | ${r.rows === ROWS ? r.run + 1 : 1} | ${r.name} | ${r.figures.rps.toFixed(0)} | ${ms(r.figures.p50)} | ${ms(r.figures.p95)} |`)
  lines.push('')
  lines.push(...summary(out))
  writeSection('bench/RESULTS.md', 'several servers', lines.join('\n'))
  console.log(lines.join('\n'))
}

/** Each case's mean req/s over its runs at n servers, against one server's. */
function summary(out: Row[]): string[] {
  const at = ROWS
  const mean = (name: string, n: number) => {
    const xs = out.filter((r) => r.rows === at && r.servers === n && r.name === name).map((r) => r.figures.rps)
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN
  }
  const names = [...new Set(out.filter((r) => r.rows === at).map((r) => r.name))]
  const counts = [...new Set(COUNTS)].filter((n) => n !== 1).sort()
  const lines = ['| case | 1 server req/s (mean) | ' + counts.map((n) => `${n} servers req/s (mean) | ÷ 1 server`).join(' | ') + ' |', '|---|---:|' + counts.map(() => '---:|---:').join('|') + '|']
  for (const name of names) {
    const one = mean(name, 1)
    lines.push(`| ${name} | ${one.toFixed(0)} | ` + counts.map((n) => `${mean(name, n).toFixed(0)} | ${(mean(name, n) / one).toFixed(2)}`).join(' | ') + ' |')
  }
  return [
    `What the cores allow: ${cpus().length} cores run the client, every server and PostgreSQL together, so a second or third server adds no CPU — each takes time from the others; what more servers can give here is only the overlap of one server's database waits with another's work. At ${at.toLocaleString('en')} rows:`,
    '',
    ...lines,
  ]
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
