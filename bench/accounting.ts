/**
 * `npm run bench:accounting` (issue 10): on a throwaway PostgreSQL cluster (BENCH_DB=pglite for
 * the embedded database), starts the real server, posts BENCH_VOUCHERS vouchers (default
 * 100,000) through HTTP `create/` at BENCH_POST_CONCURRENCY (default 8), brings the general
 * ledger to BENCH_LEDGER_ROWS rows (default 1,000,000) with balanced rows inserted directly
 * by SQL, then measures the ledger report of Cash over a month and over the year and the
 * trial balance of the year through HTTP (BENCH_REQUESTS at BENCH_CONCURRENCY, after a
 * warm-up), each next to its SQL floor: the same queries run directly on the connection.
 * Writes the "Accounting" section of bench/RESULTS.md (bench/accounting-results.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, totalmem, tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { entities, reportRegistry } from '../schema'
import { connect, type Connection } from '../server/db/connect'
import { migrate } from '../server/db/sync'
import { seedChart } from '../server/domain/accounting/chart-seed'
import type { Report } from '../schema/kit'
import { reportCase, reportFloor } from './report-floor'
import { postgresBinDir, startPostgres, type Cluster } from '../tests/support/postgres-cluster'
import { startServer, type RunningServer } from '../tests/support/server-process'
import { createLedgers, fillLedger, voucherOf, YEAR, type BenchLedgers } from './accounting-data'
import { writeAccountingSection } from './accounting-results'
import { signIn } from './load'
import { measure, type Figures } from './stats'

type Kind = 'postgres' | 'pglite'
const KIND = (process.env.BENCH_DB ?? (postgresBinDir() ? 'postgres' : 'pglite')) as Kind
const VOUCHERS = Number(process.env.BENCH_VOUCHERS ?? 100_000)
const POST_CONCURRENCY = Number(process.env.BENCH_POST_CONCURRENCY ?? 8)
const LEDGER_ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 1_000_000)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10)
/** The issue's target for each report's p95. */
const TARGET_MS = 300

const { ledger_report: ledgerReport, trial_balance: trialBalance } = reportRegistry

/** The database: a throwaway cluster or a PGlite directory, and the bench's own connection to it (PGlite: closed while a server holds it). */
type BenchDatabase = { serverEnv: Record<string, string>; open: () => Promise<Connection>; dispose: () => void }

async function database(kind: Kind): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-accounting-'))
  if (kind === 'postgres') {
    const cluster: Cluster = await startPostgres({ settings: { shared_buffers: '256MB' } })
    const url = `postgresql://${cluster.user}@${cluster.host}:${cluster.port}/postgres`
    return {
      serverEnv: { DATABASE_URL: url, DATA_DIR: dataDir },
      open: () => connect({ kind: 'postgres', url }),
      dispose: () => {
        cluster.stop()
        rmSync(dataDir, { recursive: true, force: true })
      },
    }
  }
  return {
    serverEnv: { DATA_DIR: dataDir },
    open: () => connect({ kind: 'pglite', dataDir: join(dataDir, 'pglite') }),
    dispose: () => rmSync(dataDir, { recursive: true, force: true }),
  }
}

type Case = { name: string; path: string; floor: (db: Connection['db']) => Promise<void> }

const PAGE_SIZE = 30

/** The issue's three cases, and the year's last page of the ledger report (`cashRowsInYear`: Cash's rows in the year). */
function cases(l: BenchLedgers, cashRowsInYear: number): Case[] {
  const size = PAGE_SIZE
  const ledgerCase = (name: string, after: string, before: string, page = 1): Case => ({
    name,
    path: `${ledgerReport.api.base}/?ledger=${l.cash}&date_after=${after}&date_before=${before}&page=${page}&size=${size}`,
    floor: (db) => reportFloor(db, ledgerReport, { ledger: l.cash, date_after: after, date_before: before }, { page, size }),
  })
  // The opening and closing rows come with the period's.
  const lastPage = Math.ceil((cashRowsInYear + 2) / size)
  const june = { date_after: `${YEAR}-06-01`, date_before: `${YEAR}-06-30` }
  const year = { date_after: `${YEAR}-01-01`, date_before: `${YEAR}-12-31` }
  return [
    ...[
      ['payment report', reportRegistry.payment_report, year],
      ['payment summary', reportRegistry.payment_summary_report, year],
      ['receipt report', reportRegistry.receipt_report, year],
      ['receipt summary', reportRegistry.receipt_summary_report, year],
      ['contra report', reportRegistry.contra_report, year],
      ['account statement, Bank, June', reportRegistry.account_statement, { account_type: 'Bank', ...june }],
      ['account statement, Cash, year', reportRegistry.account_statement, { account_type: 'Cash', ...year }],
      ['account statement summary, June', reportRegistry.account_statement_summary, { start_date: june.date_after, end_date: june.date_before }],
      ['profit and loss', reportRegistry.profit_loss, year],
      ['balance sheet, year end', reportRegistry.balance_sheet, { date_before: year.date_before }],
    ].map(([name, report, params]) => reportCase(`${name as string}, ${YEAR}`, report as Report, params as Record<string, string>, size)),
    ledgerCase(`ledger report, Cash, June ${YEAR}`, `${YEAR}-06-01`, `${YEAR}-06-30`),
    ledgerCase(`ledger report, Cash, ${YEAR}`, `${YEAR}-01-01`, `${YEAR}-12-31`),
    ledgerCase(`ledger report, Cash, ${YEAR}, last page (${lastPage})`, `${YEAR}-01-01`, `${YEAR}-12-31`, lastPage),
    {
      name: `trial balance, ${YEAR}`,
      path: `${trialBalance.api.base}/?date_after=${YEAR}-01-01&date_before=${YEAR}-12-31`,
      floor: (db) => reportFloor(db, trialBalance, { date_after: `${YEAR}-01-01`, date_before: `${YEAR}-12-31` }),
    },
  ]
}

async function httpFigures(server: RunningServer, token: string, c: Case): Promise<Figures> {
  const headers = { authorization: `Bearer ${token}` }
  return measure(
    async () => {
      const r = await fetch(`${server.url}${c.path}`, { headers })
      if (!r.ok) throw new Error(`${c.path}: ${r.status} ${(await r.text()).slice(0, 300)}`)
      await r.arrayBuffer()
    },
    { total: REQUESTS, concurrency: CONCURRENCY, warmup: WARMUP },
  )
}

/** Posts VOUCHERS vouchers through HTTP at POST_CONCURRENCY: the latency of each and the posts per second. */
async function postVouchers(server: RunningServer, token: string, l: BenchLedgers): Promise<Figures> {
  let next = 0
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  return measure(
    async () => {
      const v = voucherOf(next++, l)
      const r = await fetch(`${server.url}${v.path}`, { method: 'POST', headers, body: JSON.stringify(v.body) })
      if (r.status !== 201) throw new Error(`${v.kind} ${JSON.stringify(v.body)}: ${r.status} ${(await r.text()).slice(0, 300)}`)
      await r.arrayBuffer()
    },
    { total: VOUCHERS, concurrency: POST_CONCURRENCY, warmup: 0 },
  )
}

/**
 * What this bench measured before the general ledger had its day totals and its index (the
 * same bench on the same machine, 2026-11-23 00:23 UTC, on PostgreSQL 15): kept in the
 * report as the reason for them.
 */
const BEFORE = [
  '### Before the day totals and the index',
  '',
  'The first run of this bench, on the code before them (the reports summed and numbered `account_log` itself, through the single-column index on `ledger`; the ledger report read every row of the period, and for each row the other rows of its voucher, before it could take a page): 20,000 vouchers posted at 254 posts/s (p50 26.7 ms, p95 67.5 ms), the ledger brought to the same 1,000,000 rows, 40 requests per case at concurrency 4, load average 3.6.',
  '',
  '| case | HTTP p50 ms | HTTP p95 ms | HTTP req/s | floor p50 ms | floor p95 ms | target p95 < 300 ms |',
  '|---|---:|---:|---:|---:|---:|---|',
  '| ledger report, Cash, June 2025 | 1353.4 | 1609.6 | 3.0 | 1886.4 | 2085.5 | not met |',
  '| ledger report, Cash, 2025 | 14137.3 | 15047.4 | 0.3 | 13005.8 | 16863.8 | not met |',
  '| trial balance, 2025 | 1369.8 | 1943.9 | 2.8 | 1117.7 | 1768.0 | not met |',
  '',
  'What changed (migration 6, server/domain/accounting/ledger-report.ts, trial-balance.ts):',
  '',
  '- `ledger_day_total`: per ledger, day and sub-ledger, the sums of debits and credits and the number of rows, kept by a statement-level trigger on every insert into the general ledger (upserts in key order, so parallel postings do not deadlock) and filled by the migration from the rows already there. The trial balance reads it (3,650 rows here instead of 1,000,000); the ledger report takes from it the balance brought forward, the closing balance, its count and its totals.',
  "- An index on `account_log (ledger, log_date, id)` that carries the sub-ledger, branch and amounts: a ledger's rows in the statement's order, read from the index alone.",
  "- The ledger report gives the engine its count and totals (from the day totals) and the rows of the page asked for alone (server/engine/reports.ts lets a report do so): it finds the day of the page's first line in the day totals, numbers the rows from there up to the page's last line, and reads a row's reference, details, other ledgers and running balance (opening + earlier days' totals + the rows of its day up to it) for the page's rows only. The contract's `account_log_report/…/general/` reads the same way.",
  '',
  "Two steps measured on the way, on the same data: with the totals and the index but still numbering every row of the period, the year's page 1 took about 170 ms on its own connection with nobody else asking (40 ms count and totals, 130 ms for the page); with the numbering bounded by the page's last line but the engine still paging by OFFSET, page 1 took 2 ms but the year's last page (7,630) 1.9 s at p50 under load (the database numbered and fetched every earlier row, and the plan's cost, estimated for every row, made PostgreSQL compile it with JIT: 530 of its 790 ms alone).",
  '',
]

const ms = (x: number) => x.toFixed(1)
const count = (n: number) => n.toLocaleString('en')

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0]!
  const startedAt = new Date()
  const db = await database(KIND)
  let conn: Connection | undefined = await db.open()
  const t0 = performance.now()
  await migrate(conn.db, entities)
  // The server seeds the chart at its start, and the demo (with the app's hooks) at its first; the bench's ledgers need the chart before.
  await conn.db.transaction().execute(seedChart)
  const ledgers = await createLedgers(conn.db)
  const version = (await sql<{ v: string }>`select version() as v`.execute(conn.db)).rows[0]!.v.split(' on ')[0]!
  console.log(`${KIND} (${version}) migrated and seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  if (KIND === 'pglite') {
    await conn.close()
    conn = undefined
  }
  const serve = async () => {
    const server = await startServer(db.serverEnv)
    return { server, token: await signIn(server.url) }
  }

  try {
    // 1. Postings through HTTP.
    let { server, token } = await serve()
    let posting: Figures
    try {
      posting = await postVouchers(server, token, ledgers)
    } finally {
      if (KIND === 'pglite') await server.stop()
    }
    console.log(`posted ${count(posting.n)} vouchers: ${posting.rps.toFixed(0)} posts/s, p50 ${ms(posting.p50)} ms, p95 ${ms(posting.p95)} ms`)

    // 2. The general ledger brought to its size by SQL.
    conn ??= await db.open()
    const posted = Number((await sql<{ n: string }>`select count(*) as n from account_log`.execute(conn.db)).rows[0]!.n)
    const t1 = performance.now()
    const added = await fillLedger(conn.db, ledgers, LEDGER_ROWS)
    const fillSeconds = (performance.now() - t1) / 1000
    const facts = (
      await sql<{ rows: string; cash_rows: string; cash_june: string; debit: string; credit: string }>`
        select count(*) as rows, count(*) filter (where ledger = ${ledgers.cash}) as cash_rows,
          count(*) filter (where ledger = ${ledgers.cash} and log_date between ${`${YEAR}-06-01`}::date and ${`${YEAR}-06-30`}::date) as cash_june,
          sum(debit_amount)::text as debit, sum(credit_amount)::text as credit
        from account_log`.execute(conn.db)
    ).rows[0]!
    console.log(`general ledger: ${count(posted)} rows posted + ${count(added)} added by SQL in ${fillSeconds.toFixed(1)} s = ${count(Number(facts.rows))} rows (Cash ${count(Number(facts.cash_rows))})`)
    if (facts.debit !== facts.credit) throw new Error(`the general ledger does not balance: ${facts.debit} ≠ ${facts.credit}`)

    // 3. The reports through HTTP, then their floors.
    if (KIND === 'pglite') {
      await conn.close()
      conn = undefined
      ;({ server, token } = await serve())
    }
    const all = cases(ledgers, Number(facts.cash_rows))
    const http = new Map<string, Figures>()
    const loadAtReports = loadavg()[0]!
    try {
      for (const c of all) {
        const f = await httpFigures(server, token, c)
        http.set(c.name, f)
        console.log(`HTTP  ${c.name}: p50 ${ms(f.p50)} ms, p95 ${ms(f.p95)} ms, ${f.rps.toFixed(1)} req/s`)
      }
    } finally {
      await server.stop()
    }
    conn ??= await db.open()
    const floor = new Map<string, Figures>()
    for (const c of all) {
      const f = await measure(() => c.floor(conn!.db), { total: REQUESTS, concurrency: CONCURRENCY, warmup: WARMUP })
      floor.set(c.name, f)
      console.log(`floor ${c.name}: p50 ${ms(f.p50)} ms, p95 ${ms(f.p95)} ms`)
    }
    await conn.close()
    conn = undefined

    const dbLabel = KIND === 'postgres' ? `PostgreSQL (throwaway cluster, ${version.replace('PostgreSQL ', '')}, shared_buffers=256MB)` : `PGlite (${version})`
    const lines: string[] = []
    lines.push(`## Accounting${KIND === 'pglite' ? ' (PGlite)' : ''}`, '')
    lines.push(
      `Run ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(1)} GB, Node ${process.version}: \`npm run bench:accounting\` on ${dbLabel}; client, server and database share the machine. ` +
        `1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadAtReports.toFixed(1)} when the reports were measured${Math.max(loadAtStart, loadAtReports) > cpus().length ? ' (the machine was busy with other work: figures are slower than on an idle one)' : ''}.`,
      '',
    )
    lines.push('### Posting through HTTP', '')
    lines.push(
      `${count(posting.n)} vouchers posted through \`create/\` (JSON) at concurrency ${POST_CONCURRENCY}: in every ten, 4 payments (two expense debits and a Cash or Bank credit), 3 receipts, 2 journals and 1 contra, dated over ${YEAR}; each takes its invoice number, writes its lines, its ledger rows and their audit in one transaction. ` +
        `**${posting.rps.toFixed(0)} posts/s**, latency p50 ${ms(posting.p50)} ms, p95 ${ms(posting.p95)} ms; ${count(posted)} general-ledger rows.`,
      '',
    )
    lines.push('### Reports over the general ledger', '')
    lines.push(
      `The general ledger was then brought to ${count(Number(facts.rows))} rows by inserting ${count(added)} balanced rows directly with SQL (\`generate_series\`, in statements of 100,000 rows, ${fillSeconds.toFixed(0)} s: the append-only triggers allow inserts), with the vouchers' mix of ledgers over the same year; then \`VACUUM\` and \`ANALYZE\`. ` +
        `Cash, the busy ledger, has ${count(Number(facts.cash_rows))} rows, ${count(Number(facts.cash_june))} of them in June. Debits and credits are equal (${facts.debit}).`,
      '',
    )
    lines.push(
      `Each case: ${REQUESTS} requests at concurrency ${CONCURRENCY} after ${WARMUP} untimed ones, through HTTP (the registry report route \`/api/reports/<name>/\`: page 1 of ${PAGE_SIZE} rows unless said, or every row of the trial balance), and its floor: the same queries as the route runs them (the report's own, the count and totals when the report does not give them, the page) directly on the bench's connection, without HTTP, auth or JSON, at the same concurrency. ` +
        'The ledger report takes its balances, count and totals from the day totals and reads a page\'s rows from the day of its first line, so a page costs about the same however long the period and however deep the page (the last page of the year is measured too).',
      '',
    )
    lines.push(`| case | HTTP p50 ms | HTTP p95 ms | HTTP req/s | floor p50 ms | floor p95 ms | target p95 < ${TARGET_MS} ms |`, '|---|---:|---:|---:|---:|---:|---|')
    for (const c of all) {
      const h = http.get(c.name)!
      const f = floor.get(c.name)!
      lines.push(`| ${c.name} | ${ms(h.p50)} | ${ms(h.p95)} | ${h.rps.toFixed(1)} | ${ms(f.p50)} | ${ms(f.p95)} | ${h.p95 < TARGET_MS ? 'met' : 'not met'} |`)
    }
    lines.push('')
    if (KIND === 'postgres') lines.push(...BEFORE)
    const body = lines.join('\n')
    writeAccountingSection('bench/RESULTS.md', KIND, body)
    console.log(body)
  } finally {
    await conn?.close().catch(() => {})
    db.dispose()
  }
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
