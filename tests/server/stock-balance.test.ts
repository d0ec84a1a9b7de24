import fc from 'fast-check'
import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { toMinor } from '../../schema/kit/money'
import type { Db } from '../../server/db/types'
import { migrations } from '../../server/db/migrations'
import { stockBalance, type StockBalanceRow } from '../../server/domain/inventory/stock-balance'
import { moveStock, reverseStock, type StockDocument, type StockMovement } from '../../server/domain/inventory/stock'
import { rateToText, unitRateOf } from '../../server/domain/inventory/valuation'
import { ValidationError } from '../../server/engine/errors'
import { describeEachDatabase } from './helpers/app'

/**
 * The per-product per-day stock totals (`stock_day_total`, migration 8) and the stock balance
 * that reads them (issue 21): the database keeps the totals equal to a GROUP BY over the stock
 * ledger through receipts, issues and cancellations, the migration fills them from the rows
 * already there, and the balance of any period equals the sums of the ledger's rows — opening,
 * in, out, closing, and the rate of what is left.
 */
const DAYS = ['2026-10-01', '2026-10-02', '2026-10-03', '2026-10-05', '2026-10-08'] as const

let serial = 0
const newProduct = async (db: Db) => (await sql<{ id: number }>`insert into product (name) values (${`Balance item ${++serial}`}) returning id`.execute(db)).rows[0]!.id
let documents = 5000
const nextDocument = (date: string): StockDocument => ({ type: 'stock_adjustment', id: ++documents, number: `SB${documents}`, date })

type Totals = {
  product: number
  movement_date: string
  in_quantity: number
  out_quantity: number
  in_value: string
  out_value: string
  row_count: number
  in_quantity_to_date: number
  out_quantity_to_date: number
  in_value_to_date: string
  out_value_to_date: string
  valuation_rate_after: string
}

/** The totals table, and the same figures grouped from the rows (to date: summed over the product's days up to each): they must be equal. */
async function bothSides(db: Db): Promise<{ kept: Totals[]; grouped: Totals[] }> {
  const kept = await sql<Totals>`
    select product, movement_date::text as movement_date, in_quantity, out_quantity, round(in_value, 2)::text as in_value, round(out_value, 2)::text as out_value, row_count,
      in_quantity_to_date, out_quantity_to_date, round(in_value_to_date, 2)::text as in_value_to_date, round(out_value_to_date, 2)::text as out_value_to_date,
      valuation_rate_after::text as valuation_rate_after
    from stock_day_total order by product, movement_date`.execute(db)
  const grouped = await sql<Totals>`
    with day as (
      select product, movement_date,
        coalesce(sum(quantity) filter (where quantity > 0), 0) as in_quantity, coalesce(-sum(quantity) filter (where quantity < 0), 0) as out_quantity,
        coalesce(sum(value_change) filter (where quantity > 0), 0) as in_value, coalesce(-sum(value_change) filter (where quantity < 0), 0) as out_value,
        count(*) as row_count, max(id) as last_id
      from stock_ledger group by product, movement_date
    )
    select d.product, d.movement_date::text as movement_date, d.in_quantity::bigint as in_quantity, d.out_quantity::bigint as out_quantity,
      round(d.in_value, 2)::text as in_value, round(d.out_value, 2)::text as out_value, d.row_count::bigint as row_count,
      (select coalesce(sum(s.quantity) filter (where s.quantity > 0), 0) from stock_ledger s where s.product = d.product and s.movement_date <= d.movement_date)::bigint as in_quantity_to_date,
      (select coalesce(-sum(s.quantity) filter (where s.quantity < 0), 0) from stock_ledger s where s.product = d.product and s.movement_date <= d.movement_date)::bigint as out_quantity_to_date,
      (select round(coalesce(sum(s.value_change) filter (where s.quantity > 0), 0), 2) from stock_ledger s where s.product = d.product and s.movement_date <= d.movement_date)::text as in_value_to_date,
      (select round(coalesce(-sum(s.value_change) filter (where s.quantity < 0), 0), 2) from stock_ledger s where s.product = d.product and s.movement_date <= d.movement_date)::text as out_value_to_date,
      (select s.valuation_rate_after from stock_ledger s where s.id = d.last_id)::text as valuation_rate_after
    from day d order by d.product, d.movement_date`.execute(db)
  return { kept: kept.rows, grouped: grouped.rows }
}

/** What the balance must say, summed from the ledger's rows themselves; the rate worked out here as the kernel works it out. */
async function fromLedger(db: Db, products: readonly number[], from: string, to: string): Promise<StockBalanceRow[]> {
  const sums = await sql<Omit<StockBalanceRow, 'valuation_rate'> & { last_rate: string | null }>`
    select p.id as product,
      coalesce(sum(s.quantity) filter (where s.movement_date < ${from}::date), 0)::bigint as opening_quantity,
      round(coalesce(sum(s.value_change) filter (where s.movement_date < ${from}::date), 0), 2)::text as opening_value,
      coalesce(sum(s.quantity) filter (where s.movement_date >= ${from}::date and s.quantity > 0), 0)::bigint as in_quantity,
      round(coalesce(sum(s.value_change) filter (where s.movement_date >= ${from}::date and s.quantity > 0), 0), 2)::text as in_value,
      coalesce(-sum(s.quantity) filter (where s.movement_date >= ${from}::date and s.quantity < 0), 0)::bigint as out_quantity,
      round(coalesce(-sum(s.value_change) filter (where s.movement_date >= ${from}::date and s.quantity < 0), 0), 2)::text as out_value,
      coalesce(sum(s.quantity), 0)::bigint as closing_quantity,
      round(coalesce(sum(s.value_change), 0), 2)::text as closing_value,
      (select l.valuation_rate_after::text from stock_ledger l where l.product = p.id and l.movement_date <= ${to}::date order by l.id desc limit 1) as last_rate
    from product p left join stock_ledger s on s.product = p.id and s.movement_date <= ${to}::date
    where p.id = any(${[...products]}::bigint[])
    group by p.id order by p.id`.execute(db)
  return sums.rows.map(({ last_rate, ...r }) => ({
    ...r,
    valuation_rate: r.closing_quantity > 0 ? rateToText(unitRateOf(toMinor(r.closing_value), BigInt(r.closing_quantity))) : (last_rate ?? '0.0000'),
  }))
}

describeEachDatabase('the stock balance', (t, kind) => {
  let db: Db
  beforeAll(() => {
    db = t.current.db
  })
  const move = (date: string, movements: StockMovement[]) => {
    const document = nextDocument(date)
    return db.transaction().execute((trx) => moveStock(trx, document, movements)).then(() => document)
  }
  const cancel = (document: StockDocument, date: string) => db.transaction().execute((trx) => reverseStock(trx, document, { date }))

  it('gives each product its opening, ins, outs and closing in units and value, and the rate of what is left', async () => {
    const tea = await newProduct(db)
    const idle = await newProduct(db)
    await move(DAYS[0], [{ product: tea, quantity: 4, unitCost: '100' }])
    await move(DAYS[1], [{ product: tea, quantity: 8, unitCost: '200' }])
    // 9 left at 166.6667: worth 1500.00, so the 3 out took 500.00.
    await move(DAYS[2], [{ product: tea, quantity: -3 }])
    expect(await stockBalance(db, { from: DAYS[1], to: DAYS[2], products: [tea, idle] })).toEqual([
      {
        product: tea,
        opening_quantity: 4, opening_value: '400.00',
        in_quantity: 8, in_value: '1600.00',
        out_quantity: 3, out_value: '500.00',
        closing_quantity: 9, closing_value: '1500.00',
        valuation_rate: '166.6667',
      },
      // A product that never moved shows zeros.
      { product: idle, opening_quantity: 0, opening_value: '0.00', in_quantity: 0, in_value: '0.00', out_quantity: 0, out_value: '0.00', closing_quantity: 0, closing_value: '0.00', valuation_rate: '0.0000' },
    ])
    // Everything goes out: the rate is the last one the stock had.
    await move(DAYS[3], [{ product: tea, quantity: -9 }])
    expect(await stockBalance(db, { from: DAYS[3], to: DAYS[4], products: [tea] })).toEqual([
      expect.objectContaining({ opening_quantity: 9, opening_value: '1500.00', out_quantity: 9, out_value: '1500.00', closing_quantity: 0, closing_value: '0.00', valuation_rate: '166.6667' }),
    ])
    // A period before the product's first movement.
    expect(await stockBalance(db, { from: '2026-09-01', to: '2026-09-30', products: [tea] })).toEqual([expect.objectContaining({ opening_quantity: 0, closing_quantity: 0, closing_value: '0.00', valuation_rate: '0.0000' })])
  })

  it('equals the sums of the stock ledger’s rows for every period, through receipts, issues and cancellations over several days', async () => {
    const products = [await newProduct(db), await newProduct(db), await newProduct(db)]
    const [a, b, c] = products as [number, number, number]
    await move(DAYS[0], [{ product: a, quantity: 10, unitCost: '3.3333' }, { product: b, quantity: 7, unitCost: '0.01' }, { product: c, quantity: 3, unitCost: '12.5' }])
    await move(DAYS[1], [{ product: a, quantity: -4 }, { product: a, quantity: 5, unitCost: '4.1' }])
    const sale = await move(DAYS[1], [{ product: b, quantity: -7 }, { product: c, quantity: -1 }])
    await move(DAYS[2], [{ product: a, quantity: -2 }, { product: c, quantity: 9, unitCost: '0.0007' }])
    // The sale comes back (ins on its day); a receipt is cancelled (an out).
    await cancel(sale, DAYS[3])
    const another = await move(DAYS[3], [{ product: b, quantity: 2, unitCost: '99.99' }])
    await cancel(another, DAYS[4])
    for (const [from, to] of [[DAYS[0], DAYS[4]], [DAYS[1], DAYS[2]], [DAYS[2], DAYS[2]], [DAYS[3], DAYS[4]], ['2026-01-01', DAYS[0]], [DAYS[4], '2026-12-31'], ['2026-10-04', '2026-10-04']] as const) {
      expect(await stockBalance(db, { from, to, products }), `${from} … ${to}`).toEqual(await fromLedger(db, products, from, to))
    }
    const { kept, grouped } = await bothSides(db)
    expect(kept).toEqual(grouped)
  })

  it('pages every product in product order, and takes only the products asked for', async () => {
    const products = [await newProduct(db), await newProduct(db), await newProduct(db), await newProduct(db)]
    await move(DAYS[0], products.map((product, i) => ({ product, quantity: i + 1, unitCost: '2' })))
    const all = await stockBalance(db, { from: DAYS[0], to: DAYS[4] })
    const ids = (await sql<{ id: number }>`select id from product order by id`.execute(db)).rows.map((r) => r.id)
    expect(all.map((r) => r.product)).toEqual(ids)
    expect(await stockBalance(db, { from: DAYS[0], to: DAYS[4], limit: 2, offset: 3 })).toEqual(all.slice(3, 5))
    const asked = [products[3]!, products[1]!]
    const page = await stockBalance(db, { from: DAYS[0], to: DAYS[4], products: asked, limit: 1, offset: 1 })
    expect(page).toEqual([expect.objectContaining({ product: products[3], in_quantity: 4, in_value: '8.00', closing_quantity: 4, valuation_rate: '2.0000' })])
  })

  it('refuses a day that does not exist, a period that ends before it starts, and a page that is not one', async () => {
    const refused = async (query: Parameters<typeof stockBalance>[1]) => {
      const e = await stockBalance(db, query).catch((x: unknown) => x)
      expect(e).toBeInstanceOf(ValidationError)
      return Object.keys((e as ValidationError).fields).sort()
    }
    expect(await refused({ from: '2026-02-30', to: 'tomorrow' })).toEqual(['from', 'to'])
    expect(await refused({ from: DAYS[2], to: DAYS[1] })).toEqual(['to'])
    expect(await refused({ from: DAYS[0], to: DAYS[1], products: [0], limit: 0, offset: -1 })).toEqual(['limit', 'offset', 'products'])
  })

  it('keeps the day totals equal to the ledger grouped by product and day, and the balance to its sums, over random moves and cancellations', async () => {
    const products = [await newProduct(db), await newProduct(db), await newProduct(db)]
    // The kernel dates nothing before a product's last movement: the days only go forward.
    let day = Date.UTC(2027, 0, 1)
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)
    const done: StockDocument[] = []
    const step = fc.oneof(
      fc.record({ op: fc.constant('in' as const), product: fc.nat({ max: 2 }), quantity: fc.integer({ min: 1, max: 40 }), cents: fc.integer({ min: 0, max: 999_999 }), days: fc.nat({ max: 2 }) }),
      fc.record({ op: fc.constant('out' as const), product: fc.nat({ max: 2 }), quantity: fc.integer({ min: 1, max: 30 }), days: fc.nat({ max: 2 }) }),
      fc.record({ op: fc.constant('cancel' as const), pick: fc.nat(), days: fc.nat({ max: 2 }) }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), fc.nat(), fc.nat(), async (steps, x, y) => {
        for (const s of steps) {
          day += s.days * 86_400_000
          const date = dayOf(day)
          if (s.op === 'cancel') {
            const target = done[s.pick % Math.max(1, done.length)]
            if (target) await cancel(target, date).catch(() => undefined)
            continue
          }
          const cost = s.op === 'in' ? `${Math.floor(s.cents / 10_000)}.${String(s.cents % 10_000).padStart(4, '0')}` : undefined
          const document = nextDocument(date)
          const moved = await db.transaction().execute((trx) => moveStock(trx, document, [{ product: products[s.product]!, quantity: s.op === 'in' ? s.quantity : -s.quantity, unitCost: cost }])).catch(() => undefined)
          if (moved) done.push(document)
        }
        const { kept, grouped } = await bothSides(db)
        expect(kept).toEqual(grouped)
        // A period somewhere between the first day and a little past the last.
        const span = Math.round((day - Date.UTC(2027, 0, 1)) / 86_400_000) + 2
        const [from, to] = [dayOf(Date.UTC(2027, 0, 1) + (x % span) * 86_400_000), dayOf(Date.UTC(2027, 0, 1) + (y % span) * 86_400_000)].sort() as [string, string]
        expect(await stockBalance(db, { from, to, products })).toEqual(await fromLedger(db, products, from, to))
      }),
      { numRuns: kind === 'pglite' ? 12 : 20 },
    )
  })

  it.runIf(kind === 'postgres')('stay exact under 20 parallel documents moving the same products on the same day (none deadlocks)', async () => {
    const products = [await newProduct(db), await newProduct(db), await newProduct(db)]
    await move('2027-06-01', products.map((product) => ({ product, quantity: 1000, unitCost: '1.25' })))
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => {
        // Each names the products in another order; the kernel and the trigger both take them in product order.
        const order = i % 2 === 0 ? products : [...products].reverse()
        return move('2027-06-02', order.map((product, j) => (j === 1 ? { product, quantity: 2, unitCost: '1.5' } : { product, quantity: -1 })))
      }),
    )
    expect(results.filter((r) => r.status === 'rejected')).toEqual([])
    const { kept, grouped } = await bothSides(db)
    expect(kept).toEqual(grouped)
    expect(await stockBalance(db, { from: '2027-06-02', to: '2027-06-02', products })).toEqual(await fromLedger(db, products, '2027-06-02', '2027-06-02'))
  })

  it('count a movement written past the kernel before a product’s later days in their sums to date', async () => {
    const p = await newProduct(db)
    await move('2027-08-10', [{ product: p, quantity: 5, unitCost: '1' }])
    await move('2027-08-20', [{ product: p, quantity: -2 }])
    // What the kernel never writes (it dates nothing before a product's last movement), as the registry's generic tests do: one day before both, one between, one on the first.
    await sql`
      insert into stock_ledger (product, movement_date, quantity, unit_cost, value_change, quantity_after, valuation_rate_after, stock_value_after, reference_type, reference_id, reference_no)
      values (${p}, '2027-08-01', 3, 2, 6, 3, 2, 6, 'stock_adjustment', 1, 'PAST'), (${p}, '2027-08-15', -1, 2, -2, 2, 2, 4, 'stock_adjustment', 1, 'PAST'),
        (${p}, '2027-08-10', 4, 0.5, 2, 9, 1, 9, 'stock_adjustment', 1, 'PAST')`.execute(db)
    const { kept, grouped } = await bothSides(db)
    expect(kept).toEqual(grouped)
    expect(await stockBalance(db, { from: '2027-08-11', to: '2027-08-31', products: [p] })).toEqual(await fromLedger(db, [p], '2027-08-11', '2027-08-31'))
  })

  it('are filled by the migration from the movements already there', async () => {
    const before = await bothSides(db)
    expect(before.grouped.length).toBeGreaterThan(10)
    // As a database had them before migration 8: movements, no totals, no trigger.
    await sql`drop trigger stock_ledger_day_totals on stock_ledger`.execute(db)
    await sql`delete from stock_day_total`.execute(db)
    const p = await newProduct(db)
    await move('2027-09-01', [{ product: p, quantity: 6, unitCost: '7.77' }])
    await db.transaction().execute((trx) => migrations.find((m) => m.version === 8)!.up(trx))
    const after = await bothSides(db)
    expect(after.kept).toEqual(after.grouped)
    expect(after.kept.find((r) => r.product === p)).toEqual({
      product: p, movement_date: '2027-09-01', in_quantity: 6, out_quantity: 0, in_value: '46.62', out_value: '0.00', row_count: 1,
      in_quantity_to_date: 6, out_quantity_to_date: 0, in_value_to_date: '46.62', out_value_to_date: '0.00', valuation_rate_after: '7.7700',
    })
    // The trigger is in place again: a new movement is counted once.
    await move('2027-09-01', [{ product: p, quantity: -1 }])
    const again = await bothSides(db)
    expect(again.kept).toEqual(again.grouped)
  })
})
