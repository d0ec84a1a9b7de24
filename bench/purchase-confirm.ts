/**
 * Pay Bill & Confirm through HTTP (issue 21's bench): how many final purchases a server
 * confirms a second — each one moving its lines into stock, posting its bill and its payment
 * in one transaction — on PGlite (the embedded default) and on PostgreSQL (a throwaway
 * cluster), one caller at a time and four at once (each purchase its own products, then all
 * on the same products, where confirms queue on the stock rows' locks). Writes the
 * "Purchase confirm" section of bench/RESULTS.md. `npm run bench:confirm`.
 */
import { join } from 'node:path'
import { postgresBinDir, startPostgres } from '../tests/support/postgres-cluster'
import { startServer, type RunningServer } from '../tests/support/server-process'
import { writeSection } from './accounting-results'
import { signIn } from './load'
import { figures, type Figures } from './stats'

const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 300)
const LINES = 3
const RESULTS = join(import.meta.dirname, 'RESULTS.md')

type Api = <T>(path: string, body?: unknown) => Promise<T>

function apiOf(url: string, token: string): Api {
  return async <T>(path: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`)
    return (await r.json()) as T
  }
}

/** `count` drafts, each of LINES products: its own (`shared` false) or the same few for all. */
async function drafts(api: Api, vendor: number, count: number, shared: boolean, tag: string): Promise<number[]> {
  const products: number[] = []
  const needed = shared ? LINES : count * LINES
  for (let i = 0; i < needed; i++) products.push((await api<{ id: number }>('/product/api/v1/product/create/', { name: `Bench ${tag} ${i}` })).id)
  const ids: number[] = []
  for (let i = 0; i < count; i++) {
    const lines = Array.from({ length: LINES }, (_, l) => ({ product: shared ? products[l] : products[i * LINES + l], quantity: 1 + (i % 7), unit_price: `${10 + l}.25` }))
    ids.push((await api<{ id: number }>('/purchase_final/api/v1/purchase_final/create_directly_from_admin_panel/', { vendor, items: lines })).id)
  }
  return ids
}

async function confirmAll(api: Api, ids: number[], cash: number, concurrency: number): Promise<Figures> {
  const samples: number[] = []
  let next = 0
  const start = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const id = ids[next++]!
        const t0 = performance.now()
        await api(`/purchase_final/api/v1/purchase_final/paybill_and_confirm/${id}`, { paid_amount: '5', ledger: cash })
        samples.push(performance.now() - t0)
      }
    }),
  )
  return figures(samples, performance.now() - start)
}

type Row = { db: string; case: string; f: Figures }

async function run(label: string, env: Record<string, string>): Promise<Row[]> {
  const server: RunningServer = await startServer(env)
  try {
    const api = apiOf(server.url, await signIn(server.url))
    const vendors = await api<{ vendors: Array<{ id: number }> }>('/vendor/api/v1/vendor/all/?size=1')
    const vendor = vendors.vendors[0]!.id
    const ledgers = await api<{ ledger_accounts: Array<{ id: number; name: string }> }>('/ledger_account/api/v1/ledger_account/search/?name=Cash')
    const cash = ledgers.ledger_accounts.find((l) => l.name === 'Cash')!.id
    const rows: Row[] = []
    for (const [name, concurrency, shared] of [
      ['one at a time, own products', 1, false],
      ['4 at once, own products', 4, false],
      ['4 at once, the same 3 products', 4, true],
    ] as const) {
      const ids = await drafts(api, vendor, PURCHASES, shared, `${concurrency}${shared ? 's' : 'o'}`)
      rows.push({ db: label, case: name, f: await confirmAll(api, ids, cash, concurrency) })
      console.log(label, name, rows.at(-1)!.f)
    }
    return rows
  } finally {
    await server.stop()
  }
}

const rows: Row[] = [...(await run('PGlite', {}))]
if (postgresBinDir()) {
  const cluster = await startPostgres()
  try {
    rows.push(...(await run('PostgreSQL', { DATABASE_URL: `postgres://${cluster.user}@${cluster.host}:${cluster.port}/postgres` })))
  } finally {
    cluster.stop()
  }
}
const ms = (x: number) => x.toFixed(1)
writeSection(
  RESULTS,
  'purchase confirm',
  [
    '## Pay Bill & Confirm through HTTP',
    '',
    `\`npm run bench:confirm\` (bench/purchase-confirm.ts): ${PURCHASES} draft final purchases of ${LINES} lines each per case, confirmed with a payment from Cash through \`paybill_and_confirm/{id}\` — each one: the status, ${LINES} stock-ledger rows under the products' locks, the payable bill (a purchase voucher) and the payment (a payment voucher), in one transaction. On this 2-core machine, the server and the callers on it together.`,
    '',
    '| Database | Case | confirms/s | p50 ms | p95 ms |',
    '|---|---|---:|---:|---:|',
    ...rows.map((r) => `| ${r.db} | ${r.case} | ${r.f.rps.toFixed(1)} | ${ms(r.f.p50)} | ${ms(r.f.p95)} |`),
  ].join('\n'),
)
