import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type RawBuilder } from 'kysely'
import { PGlite } from '@electric-sql/pglite'
import { describe, expect, inject, it } from 'vitest'
import { money } from '../../schema/kit'
import { connect, pgliteExtensions, type Connection } from '../../server/db/connect'
import type { Reply } from './helpers/app'
import { postgresInfo, type DatabaseKind } from './helpers/databases'
import { startKillableServer, type KillableServer } from './helpers/killable-server'

/**
 * Crash consistency (issue 21, "kill -9 during a confirm loop loses no acknowledged confirm and
 * leaves stock and ledger consistent"): the real server confirms draft purchases one after
 * another (pay bill & confirm: goods in, the payable bill, a payment, in one transaction) and
 * is killed with SIGKILL while a confirm is in flight. Restarted on the same database, every
 * confirm it answered 200 is there whole, and every other purchase is untouched: no stock row,
 * no bill, no payment, no posting of a half-done confirm. On PGlite the database lives in the
 * killed process, so this is also its crash recovery; on PostgreSQL the server's transaction
 * dies with its connection.
 */
const PURCHASES = 40
const KILL_AFTER = 10
const PRODUCTS = 4
const ADMIN = { email: 'admin@example.com', password: 'admin-pass-123' }
const JWT_SECRET = 'crash-consistency-secret-of-at-least-32-chars'
const finals = '/purchase_final/api/v1/purchase_final'

type Target = {
  env: Record<string, string>
  /** The database itself, opened as the app opens it (PGlite: only once no server holds it). */
  open: () => Promise<Connection>
  cleanup: () => Promise<void>
}

/** A data directory of its own, unpacked from global-setup's migrated template (no initdb, no migrations to run). */
async function pgliteTarget(): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crash-pglite-'))
  try {
    const unpacked = await PGlite.create({ dataDir: join(dataDir, 'pglite'), loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]), extensions: pgliteExtensions })
    await unpacked.close()
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true })
    throw e
  }
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    open: () => connect({ kind: 'pglite', dataDir: join(dataDir, 'pglite') }),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  }
}

/** A database of its own on global-setup's throwaway cluster, copied from the migrated template. */
async function postgresTarget(): Promise<Target> {
  const info = postgresInfo()!
  const name = `crash_${process.pid}_${Date.now()}`
  const server = { host: info.host, port: info.port, user: info.user }
  const admin = () => connect({ kind: 'postgres', poolConfig: { ...server, database: 'postgres', max: 1 } })
  const creator = await admin()
  try {
    await sql`create database ${sql.id(name)} template ${sql.id(info.template)}`.execute(creator.db)
  } finally {
    await creator.close()
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'crash-pg-'))
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: `postgresql://${info.user}@${info.host}:${info.port}/${name}` },
    open: () => connect({ kind: 'postgres', poolConfig: { ...server, database: name, max: 2 } }),
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true })
      const dropper = await admin()
      try {
        // A killed server's backends end as soon as PostgreSQL sees its sockets close; force what lingers.
        await sql`drop database if exists ${sql.id(name)} with (force)`.execute(dropper.db)
      } finally {
        await dropper.close()
      }
    },
  }
}

// The body is whatever JSON the route answered; each use asserts its shape, as for the in-process calls.
type Answer = Pick<Reply, 'status' | 'body'>

function apiOf(url: string) {
  let token = ''
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(url + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text === '' ? undefined : JSON.parse(text)
    } catch {
      /* not JSON: kept as text */
    }
    return { status: res.status, body: parsed }
  }
  const ok = async (method: string, path: string, body?: unknown, status = 200) => {
    const r = await call(method, path, body)
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status)
    return r.body
  }
  return {
    call,
    ok,
    signIn: async () => {
      token = (await ok('POST', '/user/api/v1/user/login/', ADMIN)).access
    },
  }
}

type Purchase = { id: number; total: string; items: Array<{ product: number; quantity: number; unit_price: string }> }

/** What the loop saw: the confirms answered 200 (with their bill numbers) and the one the kill cut off. */
type LoopOutcome = { acknowledged: Map<number, string>; cutOff: number | undefined; latencyMs: number }

async function confirmUntilKilled({ api, server, purchases, cash }: { api: ReturnType<typeof apiOf>; server: KillableServer; purchases: Purchase[]; cash: number }): Promise<LoopOutcome> {
  const acknowledged = new Map<number, string>()
  let cutOff: number | undefined
  let killing: Promise<void> | undefined
  const started = Date.now()
  let elapsed = 0
  for (const p of purchases) {
    const sent = Date.now()
    let answer: Answer
    try {
      answer = await api.call('POST', `${finals}/paybill_and_confirm/${p.id}`, { paid_amount: '1', ledger: cash })
    } catch {
      cutOff = p.id // no answer: the server died with this one in flight (or before it arrived)
      break
    }
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.body).toMatchObject({ id: p.id, status: 'confirmed', bill_no: expect.stringMatching(/^PU\d+$/) })
    acknowledged.set(p.id, answer.body.bill_no as string)
    elapsed += Date.now() - sent
    if (acknowledged.size === KILL_AFTER && !killing) {
      // While the next confirm is in flight: inside its transaction most often, now and then
      // between its commit and its answer (both must come back consistent).
      const mean = elapsed / acknowledged.size
      const delay = Math.round(mean * (0.25 + 0.85 * Math.random()))
      killing = new Promise((resolve, reject) => setTimeout(() => server.kill().then(resolve, reject), delay))
    }
  }
  if (!killing) throw new Error('the loop ended before the kill was scheduled')
  await killing
  return { acknowledged, cutOff, latencyMs: (Date.now() - started) / Math.max(1, acknowledged.size) }
}

async function crashAndCheck(kind: DatabaseKind): Promise<void> {
  const phases: string[] = []
  let mark = Date.now()
  const phase = (name: string) => {
    phases.push(`${name} ${((Date.now() - mark) / 1000).toFixed(1)} s`)
    mark = Date.now()
  }
  const target = kind === 'pglite' ? await pgliteTarget() : await postgresTarget()
  phase('database')
  const env = { ...target.env, JWT_SECRET, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }
  let server: KillableServer | undefined
  let connection: Connection | undefined
  try {
    server = await startKillableServer(env)
    phase('start')
    let api = apiOf(server.url)
    await api.signIn()

    const products: number[] = []
    for (let i = 0; i < PRODUCTS; i++) products.push((await api.ok('POST', '/product/api/v1/product/create/', { name: `Crash product ${i}` }, 201)).id)
    const vendor = (await api.ok('POST', '/vendor/api/v1/vendor/create/', { username: 'crash-vendor', email: 'crash-vendor@example.com', first_name: 'Crash', last_name: 'Vendor', password: 'vendor-pass-123', confirm_password: 'vendor-pass-123' }, 201)).id as number
    const ledgers = (await api.ok('GET', '/ledger_account/api/v1/ledger_account/search/?name=Cash')).ledger_accounts as Array<{ id: number; name: string; is_deletable: boolean }>
    const cash = ledgers.find((l) => l.name === 'Cash' && !l.is_deletable)!.id

    const purchases: Purchase[] = []
    for (let i = 0; i < PURCHASES; i++) {
      const items = [
        { product: products[i % PRODUCTS]!, quantity: (i % 5) + 1, unit_price: `${(i % 7) + 1}.25` },
        { product: products[(i + 1) % PRODUCTS]!, quantity: (i % 3) + 2, unit_price: `${(i % 4) + 10}.10` },
      ]
      const made = await api.ok('POST', `${finals}/create_directly_from_admin_panel/`, { vendor, items }, 201)
      purchases.push({ id: made.id, total: made.total_price, items })
    }

    phase('setup')
    const loop = await confirmUntilKilled({ api, server, purchases, cash })
    phase('loop and kill')
    expect(server.isRunning()).toBe(false)
    // The production logger writes "incoming request" as a request arrives: did the cut-off one reach the server?
    const reached = loop.cutOff !== undefined && server.output().includes(`"url":"${finals}/paybill_and_confirm/${loop.cutOff}"`)
    console.info(
      `[crash-consistency ${kind}] killed after ${loop.acknowledged.size} acknowledged confirms ` +
        `(~${Math.round(loop.latencyMs)} ms each); in flight at the kill: ${loop.cutOff === undefined ? 'none' : `purchase ${loop.cutOff} (${reached ? 'being handled' : 'not logged as received'})`}`,
    )
    expect(loop.acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER)

    // The same database, a new server: it recovers, and answers every acknowledged confirm as made.
    server = await startKillableServer(env)
    phase('restart')
    api = apiOf(server.url)
    await api.signIn()
    for (const [id, billNo] of loop.acknowledged) {
      expect(await api.ok('GET', `${finals}/${id}`), `purchase ${id} was acknowledged`).toMatchObject({ status: 'confirmed', bill_no: billNo, paid_amount: '1.00' })
    }
    const cutOffStatus = loop.cutOff === undefined ? undefined : ((await api.ok('GET', `${finals}/${loop.cutOff}`)).status as string)
    // And it goes on confirming: nothing left locked or half-numbered by the crash.
    const drafts = (await api.ok('GET', `${finals}/search/?status=draft&size=100`)).purchase_finals as Array<{ id: number }>
    const after = drafts.map((d) => d.id).sort((a, b) => b - a)[0]
    expect(after, 'a draft left to confirm after the restart').toBeDefined()
    const confirmedAfter = await api.ok('POST', `${finals}/paybill_and_confirm/${after}`, { paid_amount: '1', ledger: cash })
    expect(confirmedAfter).toMatchObject({ status: 'confirmed' })
    await server.stop()
    phase('reads and stop')

    connection = await target.open()
    const db = connection.db
    const rows = async <T,>(query: RawBuilder<T>) => (await query.execute(db)).rows
    const [stockInHand] = await rows(sql<{ id: number }>`select id from ledger_account where name = 'Stock In Hand' and is_deletable = false`)
    const [vendorLedger] = await rows(sql<{ id: number }>`select id from ledger_account where ledger_type = 'vendor_ledger' and reference_id = ${String(vendor)}`)
    const stored = await rows(sql<{ id: number; status: string; bill_no: string | null; paid_amount: string; payment_status: string; total_price: string }>`
      select id, status, bill_no, paid_amount::text, payment_status, total_price::text from purchase_final order by id`)
    const stock = await rows(sql<{ reference_type: string; reference_id: number; product: number; quantity: number; unit_cost: string; value_change: string; reverses: number | null }>`
      select reference_type, reference_id, product, quantity, unit_cost::text, value_change::text, reverses from stock_ledger order by id`)
    const payments = await rows(sql<{ purchase_final: number; amount: string; ledger: number; voucher_no: string | null }>`
      select purchase_final, amount::text, ledger, voucher_no from purchase_payment order by id`)
    const postings = await rows(sql<{ reference_no: string; ledger: number; debit_amount: string; credit_amount: string }>`
      select reference_no, ledger, debit_amount::text, credit_amount::text from account_log order by id`)
    const postedUnder = (number: string | null) => postings.filter((r) => r.reference_no === number).map((r) => [r.ledger, r.debit_amount, r.credit_amount])

    expect(stored.map((p) => p.id)).toEqual(purchases.map((p) => p.id))
    const confirmed = new Set(stored.filter((p) => p.status === 'confirmed').map((p) => p.id))
    for (const [id, billNo] of loop.acknowledged) {
      expect(stored.find((p) => p.id === id), `acknowledged purchase ${id}`).toMatchObject({ status: 'confirmed', bill_no: billNo })
    }
    // Confirmed and not acknowledged: only the one in flight at the kill (if it committed) and the one after the restart.
    const unacknowledged = [...confirmed].filter((id) => !loop.acknowledged.has(id))
    expect(unacknowledged.filter((id) => id !== loop.cutOff && id !== after)).toEqual([])

    for (const p of purchases) {
      const row = stored.find((s) => s.id === p.id)!
      const moved = stock.filter((s) => s.reference_type === 'purchase_final' && s.reference_id === p.id)
      const paid = payments.filter((s) => s.purchase_final === p.id)
      if (row.status === 'confirmed') {
        expect(row, `purchase ${p.id}`).toMatchObject({ bill_no: expect.stringMatching(/^PU\d+$/), paid_amount: '1.00', payment_status: 'partial', total_price: p.total })
        // The kernel moves a document's lines in product order (its lock order).
        const byProduct = <T extends { product: number }>(list: T[]) => [...list].sort((a, b) => a.product - b.product)
        expect(
          byProduct(moved).map((m) => ({ product: m.product, quantity: m.quantity, unit_cost: Number(m.unit_cost), value_change: m.value_change, reverses: m.reverses })),
          `stock rows of purchase ${p.id}`,
        ).toEqual(byProduct(p.items).map((l) => ({ product: l.product, quantity: l.quantity, unit_cost: Number(l.unit_price), value_change: money.multiply(l.unit_price, l.quantity), reverses: null })))
        expect(postedUnder(row.bill_no), `bill of purchase ${p.id}`).toEqual([
          [stockInHand!.id, p.total, '0.00'],
          [vendorLedger!.id, '0.00', p.total],
        ])
        expect(paid.map((m) => ({ amount: m.amount, ledger: m.ledger })), `payment of purchase ${p.id}`).toEqual([{ amount: '1.00', ledger: cash }])
        expect(postedUnder(paid[0]!.voucher_no), `payment voucher of purchase ${p.id}`).toEqual([
          [vendorLedger!.id, '1.00', '0.00'],
          [cash, '0.00', '1.00'],
        ])
      } else {
        expect(row, `purchase ${p.id}`).toMatchObject({ status: 'draft', bill_no: null, paid_amount: '0.00', payment_status: 'unpaid' })
        expect(moved, `stock rows of draft ${p.id}`).toEqual([])
        expect(paid, `payments of draft ${p.id}`).toEqual([])
      }
    }
    // Nothing beyond the confirmed purchases' own rows: no orphan of a rolled-back confirm.
    const confirmedPurchases = purchases.filter((p) => confirmed.has(p.id))
    expect(stock).toHaveLength(confirmedPurchases.reduce((n, p) => n + p.items.length, 0))
    expect(payments).toHaveLength(confirmed.size)
    expect(postings).toHaveLength(4 * confirmed.size)

    // Bill numbers: one each, gapless within their day's series.
    const bills = stored.flatMap((p) => (p.bill_no ? [p.bill_no] : [])).sort()
    expect(new Set(bills).size).toBe(bills.length)
    const byDay = new Map<string, number[]>()
    for (const b of bills) {
      const [, day, n] = /^(PU\d{8})(\d+)$/.exec(b)!
      byDay.set(day!, [...(byDay.get(day!) ?? []), Number(n)])
    }
    for (const [day, ns] of byDay) expect(ns.sort((a, b) => a - b), `bill numbers of ${day}`).toEqual(ns.map((_, i) => i + 1))

    // Each product's stock is the sum of its movements; the general ledger balances and its
    // Stock In Hand is what the stock is worth; the per-day ledger totals tie to the rows.
    const mismatched = await rows(sql<{ product: number }>`
      select i.product, i.quantity, i.stock_value::text, s.quantity as moved, s.value::text as moved_value from inventory i
      left join (select product, sum(quantity) as quantity, sum(value_change) as value from stock_ledger group by product) s on s.product = i.product
      where i.quantity <> coalesce(s.quantity, 0) or i.stock_value <> coalesce(s.value, 0)`)
    expect(mismatched).toEqual([])
    const expected = new Map<number, number>()
    for (const p of confirmedPurchases) for (const l of p.items) expected.set(l.product, (expected.get(l.product) ?? 0) + l.quantity)
    const onHand = await rows(sql<{ product: number; quantity: number }>`select product, quantity from inventory where product = any(${products}::bigint[]) order by product`)
    expect(onHand).toEqual(products.map((product) => ({ product, quantity: expected.get(product) ?? 0 })))
    const [balance] = await rows(sql<{ debit: string; credit: string; stock_in_hand: string; stock_value: string }>`
      select (select coalesce(sum(debit_amount), 0)::text from account_log) as debit,
             (select coalesce(sum(credit_amount), 0)::text from account_log) as credit,
             (select coalesce(sum(debit_amount - credit_amount), 0)::text from account_log where ledger = ${stockInHand!.id}) as stock_in_hand,
             (select coalesce(sum(stock_value), 0)::text from inventory) as stock_value`)
    expect(money.compare(balance!.debit, balance!.credit), `Σ debit ${balance!.debit}, Σ credit ${balance!.credit}`).toBe(0)
    expect(money.compare(balance!.stock_in_hand, balance!.stock_value), `Stock In Hand ${balance!.stock_in_hand}, stock worth ${balance!.stock_value}`).toBe(0)
    const untied = await rows(sql<{ ledger: number }>`
      select coalesce(a.ledger, t.ledger) as ledger from
        (select ledger, sum(debit_amount) as debit, sum(credit_amount) as credit, count(*) as n from account_log group by ledger) a
        full join (select ledger, sum(debit_amount) as debit, sum(credit_amount) as credit, sum(row_count) as n from ledger_day_total group by ledger) t on t.ledger = a.ledger
      where a.debit is distinct from t.debit or a.credit is distinct from t.credit or a.n is distinct from t.n`)
    expect(untied).toEqual([])
    phase('checks')
    const inFlight = loop.cutOff === undefined ? 'none' : `purchase ${loop.cutOff} (${reached ? 'being handled' : 'not logged as received'}), ${cutOffStatus === 'confirmed' ? 'committed whole' : 'rolled back whole'}`
    console.info(`[crash-consistency ${kind}] consistent after the restart; in flight at the kill: ${inFlight}; ${phases.join(', ')}`)
  } catch (e) {
    if (server) console.error(`[crash-consistency ${kind}] server output:\n${server.output().slice(-4000)}`)
    throw e
  } finally {
    await connection?.close()
    if (server?.isRunning()) await server.kill()
    await target.cleanup()
  }
}

describe('kill -9 during a confirm loop', () => {
  it('[pglite] loses no acknowledged confirm and leaves stock and ledger consistent', () => crashAndCheck('pglite'), 120_000)

  const hasPostgres = postgresInfo() !== null
  if (!hasPostgres) console.warn('[crash-consistency] PostgreSQL binaries not found (/usr/lib/postgresql/*/bin): the PostgreSQL case is SKIPPED.')
  it.skipIf(!hasPostgres)('[postgres] loses no acknowledged confirm and leaves stock and ledger consistent', () => crashAndCheck('postgres'), 120_000)
})
