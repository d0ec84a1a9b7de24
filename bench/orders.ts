/**
 * `npm run bench:orders` (issue 22's bench): on a throwaway PostgreSQL cluster, the server on a
 * port and the bench its HTTP client (fetch, keep-alive), ORDERS orders (default 100,000; 1–3
 * lines each) are created through `POST /order/api/v1/order/create/` and then confirmed through
 * `POST /order/api/v1/order/confirm/{id}` — every third paying all it owes into Cash with the
 * confirmation, every third half, the rest nothing — CONCURRENCY callers at once (default 8).
 * The products (PRODUCTS, default 200, in CATEGORIES categories, default 10), their stock
 * (stock adjustments, enough for every order: what the orders will take is known before the
 * first is sent) and the customers (CUSTOMERS, default 1,000) are made through the API too.
 * While orders are created and confirmed, what the server's database connections wait on is
 * sampled (pg_stat_activity): where concurrent requests queue behind each other.
 *
 * Then each dashboard route (every widget's contract route, the widgets without one by their
 * SQL alone, and the `project` and `analytics` dashboards in one request each) is asked
 * ROUTE_REQUESTS times (default 50, one after the other, after a few untimed), next to its SQL
 * floor: the widget's own query (server/domain/orders/widgets.ts) run as often on the bench's
 * own connection — no HTTP, no JSON, no permissions. What is over the issue's 200 ms p95 has
 * its queries' EXPLAIN (ANALYZE, BUFFERS) printed (EXPLAIN=all: every widget's).
 * DASHBOARD_ORDERS=n (above ORDERS) measures the dashboard again after copying the HTTP orders
 * by SQL to n — its read side at a size the HTTP run had no time for, and said so in the report.
 *
 * The bench reports; it asserts nothing about time. It prints its tables; BENCH_RESULTS=1 also
 * writes them as the "orders" section of bench/RESULTS.md.
 *
 *   ORDERS=2000 npm run bench:orders                              a quick try
 *   ORDERS=20000 DASHBOARD_ORDERS=100000 npm run bench:orders     what fits in ~15 minutes on 2 cores
 */
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { entities, reportRegistry, widgets } from '../schema'
import { reportCase } from './report-floor'
import { todayIso } from '../schema/kit/dates'
import type { Widget } from '../schema/kit/widget'
import { connect } from '../server/db/connect'
import type { Db } from '../server/db/types'
import { defaultModules } from '../server/app'
import type { WidgetParams, WidgetRun } from '../server/engine/widgets'
import type { Actor } from '../server/engine/hooks'
import { startPostgres, type Cluster } from '../tests/support/postgres-cluster'
import { startServer, type RunningServer } from '../tests/support/server-process'
import { writeSection } from './accounting-results'
import { signIn } from './load'

const int = (name: string, fallback: number) => {
  const v = process.env[name] ?? process.env[`BENCH_${name}`]
  const n = v === undefined || v === '' ? fallback : Number(v.replaceAll('_', ''))
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not ${v}`)
  return n
}
const ORDERS = int('ORDERS', 100_000)
const CONCURRENCY = int('CONCURRENCY', 8)
const PRODUCTS = int('PRODUCTS', 200)
const CATEGORIES = int('CATEGORIES', 10)
const CUSTOMERS = int('CUSTOMERS', 1_000)
const ROUTE_REQUESTS = int('ROUTE_REQUESTS', 50)
/** When above ORDERS: the dashboard measured again once the orders are copied by SQL to this many (see topUp). */
const DASHBOARD_ORDERS = int('DASHBOARD_ORDERS', 1)
const WARMUP = 5
/** The issue's target for each dashboard route's p95. */
const TARGET_MS = 200
/** Orders are dated over this many days up to today (the dashboard's "last 30 days" sees about a twelfth of them). */
const DAYS = 365
/** Lines per stock adjustment. */
const ADJUSTMENT_LINES = 25
const EXPLAIN_ALL = process.env.EXPLAIN === 'all'
const RESULTS = join(import.meta.dirname, 'RESULTS.md')
const NO_PERIOD: WidgetParams = { date_after: null, date_before: null }
/** Whom the floors ask as: the admin the first start seeds (the first user), who sees every row as the HTTP client does. */
const ADMIN: Actor = { id: 1, isAdmin: true, permissions: new Set<string>() }

// ---------------------------------------------------------------- figures

type Figures = { n: number; p50: number; p95: number; p99: number; mean: number; rps: number }

/** As bench/stats.ts's `figures`, with the p99. */
function figuresOf(samples: number[], wallMs: number): Figures {
  const sorted = Float64Array.from(samples).sort()
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), mean, rps: (sorted.length / wallMs) * 1000 }
}

/** `tasks` run by `concurrency` callers, each task timed; progress every 10 %. */
async function timedPool<T>(label: string, count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<{ figures: Figures; results: T[] }> {
  const samples = new Array<number>(count)
  const results = new Array<T>(count)
  let next = 0
  let done = 0
  const start = performance.now()
  const step = Math.max(1, Math.floor(count / 10))
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++
        const t0 = performance.now()
        results[i] = await task(i)
        samples[i] = performance.now() - t0
        if (++done % step === 0 && count >= 1000) {
          const s = (performance.now() - start) / 1000
          console.log(`  ${label}: ${done.toLocaleString('en')} / ${count.toLocaleString('en')} in ${s.toFixed(0)} s (${(done / s).toFixed(0)}/s)`)
        }
      }
    }),
  )
  return { figures: figuresOf(samples, performance.now() - start), results }
}

/** `task` run `total` times one after the other, after WARMUP untimed runs. */
async function sequential(total: number, task: () => Promise<unknown>): Promise<Figures> {
  for (let i = 0; i < WARMUP; i++) await task()
  const samples: number[] = []
  const start = performance.now()
  for (let i = 0; i < total; i++) {
    const t0 = performance.now()
    await task()
    samples.push(performance.now() - t0)
  }
  return figuresOf(samples, performance.now() - start)
}

// ---------------------------------------------------------------- the API

type Api = <T = Record<string, unknown>>(path: string, body?: unknown, expected?: number) => Promise<T>

function apiOf(url: string, token: string): Api {
  return async <T>(path: string, body?: unknown, expected?: number): Promise<T> => {
    const r = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await r.text()
    if (expected !== undefined ? r.status !== expected : !r.ok) throw new Error(`${body === undefined ? 'GET' : 'POST'} ${path}: ${r.status} ${text.slice(0, 500)}`)
    return JSON.parse(text) as T
  }
}

/** A deterministic pseudo-random sequence in [0, 1) (mulberry32): the same orders on every run. */
function randomOf(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Planned = { customer: number; date: string; lines: Array<{ product: number; quantity: number }> }

const isoDay = (d: Date) => d.toISOString().slice(0, 10)

/**
 * The orders, decided before any is sent: a customer, a day in the last DAYS days, 1–3 distinct
 * products (skewed: the first products sell most, as best sellers do), 1–3 units each. Indexes
 * into the products and customers made.
 */
function plan(count: number): Planned[] {
  const random = randomOf(22)
  const today = new Date()
  const out: Planned[] = []
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(random() * 3)
    const chosen = new Set<number>()
    while (chosen.size < n) chosen.add(Math.floor(random() * random() * PRODUCTS))
    const day = new Date(today.getTime() - Math.floor(random() * DAYS) * 86_400_000)
    out.push({
      customer: Math.floor(random() * CUSTOMERS),
      date: isoDay(day),
      lines: [...chosen].map((product) => ({ product, quantity: 1 + Math.floor(random() * 3) })),
    })
  }
  return out
}

// ---------------------------------------------------------------- seeding

type Seeded = { products: number[]; customers: number[]; cash: number; seconds: { catalogue: number; stock: number; customers: number }; units: number }

async function seed(api: Api, orders: Planned[]): Promise<Seeded> {
  let t0 = performance.now()
  const categories: number[] = []
  for (let c = 0; c < CATEGORIES; c++) categories.push((await api<{ id: number }>('/category/api/v1/category/create/', { name: `Bench category ${c + 1}` }, 201)).id)
  const { results: products } = await timedPool('products', PRODUCTS, CONCURRENCY, async (p) =>
    (await api<{ id: number }>('/product/api/v1/product/create/', { name: `Bench product ${p + 1}`, unit_price: `${5 + ((p * 7919) % 200)}.${String((p * 31) % 100).padStart(2, '0')}`, category: categories[p % CATEGORIES] }, 201)).id,
  )
  const catalogue = (performance.now() - t0) / 1000

  // What the orders will take of each product, and a little more (0–39 units: some end at or under their alert of 5).
  t0 = performance.now()
  const demand = new Array<number>(PRODUCTS).fill(0)
  for (const o of orders) for (const l of o.lines) demand[l.product]! += l.quantity
  const stock = demand.map((d, p) => d + ((p * 37) % 40) + 1)
  const batches: number[][] = []
  for (let p = 0; p < PRODUCTS; p += ADJUSTMENT_LINES) batches.push(Array.from({ length: Math.min(ADJUSTMENT_LINES, PRODUCTS - p) }, (_, k) => p + k))
  await timedPool('stock adjustments', batches.length, Math.min(CONCURRENCY, 4), async (b) => {
    const items = batches[b]!.map((p) => ({ product: products[p], quantity: stock[p], unit_cost: `${2 + ((p * 13) % 100)}.50` }))
    const made = await api<{ id: number }>('/stock_adjustment/api/v1/stock_adjustment/create/', { reason: 'Bench opening stock', items }, 201)
    await api(`/stock_adjustment/api/v1/stock_adjustment/confirm/${made.id}`, {})
  })
  const stockSeconds = (performance.now() - t0) / 1000

  t0 = performance.now()
  const { results: customers } = await timedPool('customers', CUSTOMERS, CONCURRENCY, async (c) => {
    const password = `bench-pass-${c}-x`
    return (
      await api<{ id: number }>(
        '/customer/api/v1/customer/create/',
        { username: `bench${c + 1}`, email: `bench${c + 1}@shop.example`, first_name: 'Bench', last_name: `Customer ${c + 1}`, password, confirm_password: password },
        201,
      )
    ).id
  })
  const customerSeconds = (performance.now() - t0) / 1000

  const ledgers = await api<{ ledger_accounts: Array<{ id: number; name: string }> }>('/ledger_account/api/v1/ledger_account/search/?name=Cash')
  const cash = ledgers.ledger_accounts.find((l) => l.name === 'Cash')!.id
  return { products, customers, cash, seconds: { catalogue, stock: stockSeconds, customers: customerSeconds }, units: stock.reduce((a, b) => a + b, 0) }
}

/** Half of an amount, to the cent below. */
const halfOf = (amount: string) => {
  const cents = BigInt(Math.round(Number(amount) * 100)) / 2n
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`
}

// ---------------------------------------------------------------- the dashboard

type RouteCase = { name: string; path: string | null; floor: (db: Db) => Promise<unknown>; widgets: Widget[] }

/** Every module's widget queries, by widget name (the orders', the tickets', the stock's…). */
const widgetRuns: Readonly<Record<string, WidgetRun>> = Object.assign({}, ...defaultModules().map((m) => m.widgets ?? {}))

/**
 * Every widget's contract route; the widgets a dashboard shows without a route of their own
 * (their SQL alone); then the two dashboards in one request each, whose floor is their widgets'
 * queries one after the other, as the server runs them.
 */
function routeCases(): RouteCase[] {
  // `shared`: what one request's widgets share (a dashboard's floor shares as its request does).
  const run = (w: Widget, params = NO_PERIOD) => {
    const f = widgetRuns[w.name]
    if (!f) throw new Error(`no query for the widget ${w.name}`)
    return (db: Db, shared = new Map<string, Promise<unknown>>()) => f({ db, params, actor: ADMIN, registry: entities, shared })
  }
  const cases: RouteCase[] = widgets.filter((w) => w.route).map((w) => ({ name: w.route!, path: `/dashboard/api/v1/${w.route}/`, floor: run(w), widgets: [w] }))
  cases.push(...widgets.filter((w) => !w.route).map((w) => ({ name: `(${w.dashboard}: ${w.name}, no route)`, path: null, floor: run(w), widgets: [w] })))
  // The dashboards as the brief names them, and the analytics as its screen asks: the last 30 days (its default) and the last 365 (its widest).
  const today = todayIso()
  const daysBack = (n: number) => todayIso(new Date(Date.now() - n * 86_400_000))
  const asked: Array<[Widget['dashboard'], WidgetParams]> = [
    ['project', NO_PERIOD],
    ['analytics', NO_PERIOD],
    ['analytics', { date_after: daysBack(29), date_before: today }],
    ['analytics', { date_after: daysBack(364), date_before: today }],
  ]
  for (const [dashboard, params] of asked) {
    const shown = widgets.filter((w) => w.dashboard === dashboard).sort((a, b) => a.order - b.order)
    const runs = shown.map((w) => run(w, params))
    const query = `dashboard=${dashboard}${params.date_after ? `&date_after=${params.date_after}&date_before=${params.date_before}` : ''}`
    cases.push({
      name: `widgets/?${query}`,
      path: `/dashboard/api/v1/widgets/?${query}`,
      floor: async (db) => {
        const shared = new Map<string, Promise<unknown>>()
        for (const r of runs) await r(db, shared)
      },
      widgets: shown,
    })
  }
  // The reports over the orders, the stock and the purchases (issue 24): their first page, or every row of a summary.
  const year = { date_after: daysBack(364), date_before: today }
  for (const [name, report, params] of [
    ['order report with profit, last 365 days', reportRegistry.order_report, year],
    ['order summary by month, last 365 days', reportRegistry.order_summary_report, { ...year, group_by: 'month' }],
    ['stock report, last 365 days', reportRegistry.stock_report, year],
    ['purchase report, last 365 days', reportRegistry.purchase_final_report, year],
  ] as const) {
    const c = reportCase(name, report, params)
    cases.push({ ...c, widgets: [] })
  }
  return cases
}

type Measured = { c: RouteCase; http: Figures | null; sql: Figures; bytes: number }

async function measureRoutes(url: string, token: string, db: Db): Promise<Measured[]> {
  const headers = { authorization: `Bearer ${token}` }
  const out: Measured[] = []
  for (const c of routeCases()) {
    let bytes = 0
    const path = c.path
    const http = path
      ? await sequential(ROUTE_REQUESTS, async () => {
          const r = await fetch(`${url}${path}`, { headers })
          const body = await r.arrayBuffer()
          if (!r.ok) throw new Error(`${path}: ${r.status} ${Buffer.from(body).toString().slice(0, 300)}`)
          bytes = body.byteLength
        })
      : null
    const floor = await sequential(ROUTE_REQUESTS, () => c.floor(db))
    out.push({ c, http, sql: floor, bytes })
    console.log(`  ${c.name}: ${http ? `HTTP p50 ${ms(http.p50)} p95 ${ms(http.p95)} · ` : ''}SQL p50 ${ms(floor.p50)} p95 ${ms(floor.p95)}`)
  }
  return out
}

/**
 * The dashboard measured over what the database holds now (after VACUUM ANALYZE, as autovacuum
 * would have done by then): its table, and the plans of what is over the target — a route over
 * it, or, of a dashboard over it, each widget that takes a tenth of the target or more.
 */
async function dashboardSection(title: string, intro: string, server: RunningServer, token: string, db: Db, dbUrl: string): Promise<{ lines: string[]; plans: string[] }> {
  await sql`checkpoint`.execute(db)
  await sql`vacuum analyze`.execute(db)
  console.log(`${title}: the dashboard's routes, ${ROUTE_REQUESTS} requests each…`)
  const measured = await measureRoutes(server.url, token, db)
  const p95 = (m: Measured) => (m.http ?? m.sql).p95
  const explained = new Set<string>()
  const plans: string[] = []
  const explain = async (w: Widget) => {
    if (explained.has(w.name)) return
    explained.add(w.name)
    plans.push(...(await explainWidget(dbUrl, w)))
  }
  for (const m of measured) if (EXPLAIN_ALL || (m.c.widgets.length === 1 && p95(m) >= TARGET_MS)) for (const w of m.c.widgets) await explain(w)
  const overDashboards = measured.filter((m) => m.c.widgets.length > 1 && p95(m) >= TARGET_MS)
  for (const d of overDashboards) for (const w of d.c.widgets) if ((measured.find((m) => m.c.widgets.length === 1 && m.c.widgets[0] === w)?.sql.p95 ?? 0) >= TARGET_MS / 10) await explain(w)
  const lines = [
    `### ${title}`,
    '',
    intro,
    '',
    `| Route | HTTP p50 ms | HTTP p95 ms | SQL p50 ms | SQL p95 ms | answer bytes | p95 < ${TARGET_MS} ms? |`,
    '|---|---:|---:|---:|---:|---:|---|',
    ...measured.map((m) =>
      m.http
        ? `| \`${m.c.name}\` | ${ms(m.http.p50)} | ${ms(m.http.p95)} | ${ms(m.sql.p50)} | ${ms(m.sql.p95)} | ${count(m.bytes)} | ${m.http.p95 < TARGET_MS ? 'yes' : '**no**'} |`
        : `| ${m.c.name} | — | — | ${ms(m.sql.p50)} | ${ms(m.sql.p95)} | | ${m.sql.p95 < TARGET_MS ? '(SQL) yes' : '(SQL) **no**'} |`,
    ),
    '',
  ]
  if (overDashboards.length > 0) lines.push(`Over ${TARGET_MS} ms as a whole: ${overDashboards.map((m) => `\`${m.c.name}\``).join(', ')} — the sum of its widgets' queries, run one after the other.`, '')
  if (plans.length > 0) lines.push(`The plans of ${explained.size} widget${explained.size === 1 ? '' : 's'} (${[...explained].join(', ')}) are printed after the tables.`, '')
  return { lines, plans: plans.map((p) => `[${title}]\n${p}`) }
}

/**
 * The orders made through HTTP copied by SQL, with their lines, until there are `target`: the
 * dashboard's read side at a size the HTTP run had no time for. The copies are the HTTP
 * orders as they are (same customers, days, statuses, amounts; their comment names the
 * order copied); no stock, payment or posting goes with them — the dashboard reads none.
 */
async function topUp(db: Db, ids: number[], target: number): Promise<number> {
  const have = Number((await sql<{ n: string }>`select count(*) as n from "order"`.execute(db)).rows[0]!.n)
  if (target <= have) return 0
  const columnsOf = async (table: string, without: string[]) =>
    (await sql<{ c: string }>`select column_name as c from information_schema.columns where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER' order by ordinal_position`.execute(db)).rows
      .map((r) => r.c)
      .filter((c) => !without.includes(c))
  const orderColumns = await columnsOf('order', ['id', 'comment'])
  const itemColumns = await columnsOf('orderitem', ['id', 'order'])
  const copies = Math.ceil((target - have) / ids.length)
  await sql`
    insert into "order" (${sql.join(orderColumns.map((c) => sql.ref(c)))}, comment)
    select ${sql.join(orderColumns.map((c) => sql.ref(`o.${c}`)))}, 'bench copy of ' || o.id
    from "order" o cross join generate_series(1, ${copies}::int) g(n)
    where o.id = any(${ids}::bigint[])
    order by g.n, o.id limit ${target - have}`.execute(db)
  await sql`
    insert into orderitem (${sql.join(itemColumns.map((c) => sql.ref(c)))}, "order")
    select ${sql.join(itemColumns.map((c) => sql.ref(`i.${c}`)))}, c.id
    from "order" c join orderitem i on i."order" = substring(c.comment from 15)::bigint
    where c.comment like 'bench copy of %'
    order by c.id, i.id`.execute(db)
  return target - have
}

/** The SQL a widget sends, caught on a Kysely that logs, then EXPLAIN (ANALYZE, BUFFERS) of each statement. */
async function explainWidget(url: string, w: Widget): Promise<string[]> {
  const caught: Array<{ sql: string; parameters: readonly unknown[] }> = []
  const pool = new pg.Pool({ connectionString: url, max: 1 })
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool }),
    log: (e) => {
      if (e.level === 'query') caught.push({ sql: e.query.sql, parameters: e.query.parameters })
    },
  }) as unknown as Db
  try {
    await widgetRuns[w.name]!({ db, params: NO_PERIOD, actor: ADMIN, registry: entities, shared: new Map() })
    const plans: string[] = []
    for (const q of [...caught]) {
      const r = await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain (analyze, buffers) ${q.sql}`, [...q.parameters]))
      plans.push(`-- ${w.name}\n${q.sql.replace(/\s+/g, ' ').trim()}\n-- parameters: ${JSON.stringify(q.parameters)}\n${r.rows.map((row) => row['QUERY PLAN']).join('\n')}`)
    }
    return plans
  } finally {
    await db.destroy()
  }
}

/**
 * What the server's connections wait on while `work` runs, sampled every 100 ms from
 * pg_stat_activity: each active one's wait (none: on the CPU) and, for a lock, the statement
 * that waits — where confirmations queue behind each other.
 */
async function waitsDuring<T>(db: Db, work: () => Promise<T>): Promise<{ result: T; samples: number; waits: Array<[string, number]> }> {
  const tally = new Map<string, number>()
  let samples = 0
  let running = true
  const sampler = (async () => {
    while (running) {
      const rows = await sql<{ w: string }>`
        select coalesce(a.wait_event_type || '/' || a.wait_event, 'on CPU') || case when a.wait_event_type = 'Lock' then ': ' || left(regexp_replace(a.query, '\\s+', ' ', 'g'), 80)
          || coalesce(' — behind ' || (select case when b.state = 'active' then 'one waiting too' else 'one ' || b.state end from pg_stat_activity b where b.pid = (pg_blocking_pids(a.pid))[1]), '') else '' end as w
        from pg_stat_activity a where a.state = 'active' and a.backend_type = 'client backend' and a.pid <> pg_backend_pid()`.execute(db)
      samples++
      for (const r of rows.rows) tally.set(r.w, (tally.get(r.w) ?? 0) + 1)
      await new Promise((r) => setTimeout(r, 100))
    }
  })()
  try {
    return { result: await work(), samples, waits: [...tally].sort((a, b) => b[1] - a[1]) }
  } finally {
    running = false
    await sampler
  }
}

const waitLines = (label: string, w: { samples: number; waits: Array<[string, number]> }) => [
  `${label}: the server's active connections over ${count(w.samples)} samples (100 ms apart), on average ${(w.waits.reduce((a, [, n]) => a + n, 0) / Math.max(1, w.samples)).toFixed(1)} at a time:`,
  '',
  ...w.waits.slice(0, 8).map(([what, n]) => `- ${(n / Math.max(1, w.samples)).toFixed(2)} × ${what.replaceAll('|', '\\|')}`),
  '',
]

// ---------------------------------------------------------------- the run

const ms = (x: number) => x.toFixed(1)
const count = (n: number) => n.toLocaleString('en')

async function main(): Promise<void> {
  const startedAt = new Date()
  const loadAtStart = loadavg()[0]!
  console.log(`bench:orders — ${count(ORDERS)} orders, ${CONCURRENCY} callers, ${PRODUCTS} products in ${CATEGORIES} categories, ${count(CUSTOMERS)} customers; load average ${loadAtStart.toFixed(1)} on ${cpus().length} cores`)
  const orders = plan(ORDERS)
  let cluster: Cluster | undefined
  let server: RunningServer | undefined
  let own: Awaited<ReturnType<typeof connect>> | undefined
  // A run stopped half-way (Ctrl-C, a closed pipe) takes its server and cluster with it.
  let abandoned = false
  const abandon = () => {
    abandoned = true
    if (!cluster) return // still starting: stopped as soon as it has
    if (server) process.kill(server.pid, 'SIGTERM')
    cluster.stop()
    process.exit(130)
  }
  process.once('SIGINT', abandon)
  process.once('SIGTERM', abandon)
  process.stdout.on('error', abandon)
  cluster = await startPostgres({ settings: { shared_buffers: '256MB' } })
  if (abandoned) abandon()
  const dbUrl = `postgres://${cluster.user}@${cluster.host}:${cluster.port}/postgres`
  try {
    server = await startServer({ DATABASE_URL: dbUrl })
    own = await connect({ kind: 'postgres', url: dbUrl, poolConfig: { max: 2 } })
    const db = own.db
    const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)).rows[0]!.v
    const token = await signIn(server.url)
    const api = apiOf(server.url, token)

    console.log('seeding through the API…')
    const seeded = await seed(api, orders)
    console.log(`  ${PRODUCTS} products in ${seeded.seconds.catalogue.toFixed(1)} s, ${count(seeded.units)} units of stock in ${seeded.seconds.stock.toFixed(1)} s, ${count(CUSTOMERS)} customers in ${seeded.seconds.customers.toFixed(1)} s`)

    console.log(`creating ${count(ORDERS)} orders…`)
    const createWaits = await waitsDuring(db, () =>
      timedPool('create', ORDERS, CONCURRENCY, async (i) => {
        const o = orders[i]!
        const made = await api<{ id: number; net_amount: string }>(
          '/order/api/v1/order/create/',
          { user: seeded.customers[o.customer], order_date: o.date, order_items: o.lines.map((l) => ({ product: seeded.products[l.product], quantity: l.quantity })) },
          201,
        )
        return { id: made.id, net: made.net_amount }
      }),
    )
    const created = createWaits.result
    console.log(`  ${created.figures.rps.toFixed(1)} creates/s, p50 ${ms(created.figures.p50)} p95 ${ms(created.figures.p95)} p99 ${ms(created.figures.p99)} ms`)

    console.log(`confirming ${count(ORDERS)} orders…`)
    const confirmWaits = await waitsDuring(db, () =>
      timedPool('confirm', ORDERS, CONCURRENCY, async (i) => {
        const { id, net } = created.results[i]!
        const body = i % 3 === 0 ? { pay_amount: net, ledger: seeded.cash } : i % 3 === 1 ? { pay_amount: halfOf(net), ledger: seeded.cash } : {}
        await api(`/order/api/v1/order/confirm/${id}`, body, 200)
      }),
    )
    const confirmed = confirmWaits.result
    console.log(`  ${confirmed.figures.rps.toFixed(1)} confirms/s, p50 ${ms(confirmed.figures.p50)} p95 ${ms(confirmed.figures.p95)} p99 ${ms(confirmed.figures.p99)} ms`)

    // What must hold, or the figures mean nothing: every order made is confirmed, no stock below zero.
    const ids = created.results.map((r) => r.id)
    const facts = (
      await sql<{ orders: number; confirmed: number; paid: number; partial: number; unpaid: number; lines: number; negative: number; ledger_rows: number; stock_rows: number; payments: number }>`
        with ours as (select * from "order" where id = any(${ids}::bigint[]))
        select (select count(*) from "order")::int as orders, (select count(*) from ours where status = 'confirmed')::int as confirmed,
          (select count(*) from ours where payment_status = 'paid')::int as paid, (select count(*) from ours where payment_status = 'partial')::int as partial,
          (select count(*) from ours where payment_status = 'unpaid')::int as unpaid, (select count(*) from orderitem)::int as lines,
          (select count(*) from inventory where quantity < 0)::int as negative, (select count(*) from account_log)::int as ledger_rows,
          (select count(*) from stock_ledger)::int as stock_rows, (select count(*) from order_payment)::int as payments`.execute(db)
    ).rows[0]!
    if (facts.confirmed !== ORDERS || facts.negative > 0) throw new Error(`after the run: ${JSON.stringify(facts)}`)
    console.log(`  ${JSON.stringify(facts)}`)

    const first = await dashboardSection(
      `The dashboard over the ${count(ORDERS)} orders`,
      `No period asked (every order; the analytics' sales over time: its last 30 days) but for the analytics as its screen asks them (the last 30 days, its default, and the last 365, its widest), after \`VACUUM ANALYZE\` as autovacuum would have done: ${ROUTE_REQUESTS} requests each, one after the other, after ${WARMUP} untimed. The SQL floor is the widget's own query (its module's \`widgets\`, e.g. server/domain/orders/widgets.ts) run as often on the bench's own connection — no HTTP, JSON or permission check; a dashboard's floor is its widgets' queries one after the other, as the server runs them.`,
      server,
      token,
      db,
      dbUrl,
    )
    const sections = [first]
    if (DASHBOARD_ORDERS > ORDERS) {
      const t0 = performance.now()
      const copied = await topUp(db, ids, DASHBOARD_ORDERS)
      const lines = Number((await sql<{ n: string }>`select count(*) as n from orderitem`.execute(db)).rows[0]!.n)
      sections.push(
        await dashboardSection(
          `The dashboard over ${count(DASHBOARD_ORDERS)} orders, ${count(copied)} of them copied by SQL`,
          `DASHBOARD_ORDERS=${DASHBOARD_ORDERS}: the ${count(ORDERS)} orders made through HTTP copied by SQL, with their lines, to ${count(DASHBOARD_ORDERS)} orders in all and ${count(lines)} lines (${((performance.now() - t0) / 1000).toFixed(1)} s) — the same customers, days, statuses and amounts; the copies have no stock movements, payments or postings, which no widget reads. Measured as above.`,
          server,
          token,
          db,
          dbUrl,
        ),
      )
    }

    const loadAtEnd = loadavg()[0]!
    const lines = [
      '## Orders and the dashboard through HTTP',
      '',
      `\`npm run bench:orders\` (bench/orders.ts), ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC: PostgreSQL ${version} (throwaway cluster, shared_buffers=256MB, fsync off), the server on a port and the bench its HTTP client (fetch, keep-alive) on the same ${cpus().length} cores; load average ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end${Math.max(loadAtStart, loadAtEnd) > cpus().length ? ' (the machine was busy with other work: figures are slower than on an idle one)' : ''}.`,
      '',
      `Seeded through the API: ${CATEGORIES} categories, ${PRODUCTS} products (${seeded.seconds.catalogue.toFixed(1)} s), ${count(seeded.units)} units of stock in ${Math.ceil(PRODUCTS / ADJUSTMENT_LINES)} stock adjustments — what the orders take and 1–40 more each (${seeded.seconds.stock.toFixed(1)} s) — and ${count(CUSTOMERS)} customers (${seeded.seconds.customers.toFixed(1)} s, ${CONCURRENCY} at once; each hashes a password). ` +
        `Then **${count(ORDERS)} orders** of 1–3 lines (1–3 units each; the first products sell most), dated over the last ${DAYS} days, created and then confirmed through HTTP by ${CONCURRENCY} callers at once; one in three pays all it owes into Cash with the confirmation, one in three half, one in three nothing. ` +
        `Afterwards: ${count(facts.orders)} orders${facts.orders > ORDERS ? ` (${count(facts.orders - ORDERS)} of them the demo seed's)` : ''}, ${count(facts.lines)} lines, ${count(facts.stock_rows)} stock-ledger rows, ${count(facts.ledger_rows)} account-log rows, ${count(facts.payments)} payments; of the bench's, ${count(facts.paid)} paid, ${count(facts.partial)} partly, ${count(facts.unpaid)} unpaid; no stock below zero.`,
      '',
      '| Step | requests | per second | p50 ms | p95 ms | p99 ms |',
      '|---|---:|---:|---:|---:|---:|',
      ...[
        ['create (`order/create/`)', created.figures],
        ['confirm (`order/confirm/{id}`)', confirmed.figures],
      ].map(([name, f]) => {
        const x = f as Figures
        return `| ${name as string} | ${count(x.n)} | ${x.rps.toFixed(1)} | ${ms(x.p50)} | ${ms(x.p95)} | ${ms(x.p99)} |`
      }),
      '',
      ...waitLines('While creating', createWaits),
      ...waitLines('While confirming', confirmWaits),
      ...sections.flatMap((x) => x.lines),
    ]
    const body = lines.join('\n')
    console.log(`\n${body}`)
    const plans = sections.flatMap((x) => x.plans)
    if (plans.length > 0) console.log(`\nEXPLAIN (ANALYZE, BUFFERS)${EXPLAIN_ALL ? '' : ` of what was over ${TARGET_MS} ms`}:\n\n${plans.join('\n\n')}`)
    if (process.env.BENCH_RESULTS === '1') writeSection(RESULTS, 'orders', body)
  } finally {
    await own?.close()
    if (server) {
      if (server.interrupted()) console.error(`the server stopped on its own: ${server.state()}`)
      await server.stop()
    }
    cluster.stop()
  }
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
