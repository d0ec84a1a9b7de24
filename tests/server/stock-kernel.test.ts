import fc from 'fast-check'
import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { toMinor } from '../../schema/kit/money'
import type { Db, Trx } from '../../server/db/types'
import { moveStock, reverseStock, type StockDocument, type StockMovement } from '../../server/domain/inventory/stock'
import { ConflictError, ValidationError } from '../../server/engine/errors'
import { messageFor } from '../../server/i18n'
import { describeEachDatabase } from './helpers/app'

/**
 * The stock kernel (issue 21; domain-anchors §2, checklist 39–42) on a real database: the
 * moving average to the cent through the ledger's rows and the product's stock, every
 * refusal writing nothing, the database holding the ledger append-only and the stock never
 * below zero whoever writes, cancellations by opposite rows refused once the goods are gone,
 * parallel issues of the last units, and the invariants over random movements.
 */
let serial = 0
const newProduct = async (db: Db, name = `Stock item ${++serial}`) => (await sql<{ id: number }>`insert into product (name) values (${name}) returning id`.execute(db)).rows[0]!.id
const documentOf = (n: number, date = '2026-11-20'): StockDocument => ({ type: 'stock_adjustment', id: n, number: `SA${n}`, date })
let documents = 1000
const nextDocument = (date?: string) => documentOf(++documents, date)

type Stock = { quantity: number; valuation_rate: string; stock_value: string; last_movement_date: string | null }
const stockOfProduct = async (db: Db, product: number) =>
  (await sql<Stock>`select quantity, valuation_rate, stock_value, last_movement_date from inventory where id = ${product}`.execute(db)).rows[0]
const ledgerRows = async (db: Db, product: number) =>
  (await sql<{ quantity: number; value_change: string }>`select quantity, value_change from stock_ledger where product = ${product} order by id`.execute(db)).rows

/** Runs `work` in a transaction and gives back what it threw, if anything. */
async function attempt(db: Db, work: (trx: Trx) => Promise<unknown>): Promise<unknown> {
  try {
    await db.transaction().execute(work)
    return undefined
  } catch (e) {
    return e
  }
}

describeEachDatabase('the stock kernel', (t, kind) => {
  let db: Db
  beforeAll(() => {
    db = t.current.db
  })
  const move = (movements: StockMovement[], document = nextDocument()) => db.transaction().execute((trx) => moveStock(trx, document, movements))

  it('values stock at the moving average, as Frappe Books’ vectors: each row, and the product’s stock after', async () => {
    const p = await newProduct(db)
    for (const [quantity, unitCost] of [[4, '100'], [8, '200'], [3, '300']] as const) await move([{ product: p, quantity, unitCost }])
    for (const quantity of [-3, -5, -4, -3]) await move([{ product: p, quantity }])
    const rows = await sql`select quantity, unit_cost, value_change, quantity_after, valuation_rate_after, stock_value_after from stock_ledger where product = ${p} order by id`.execute(db)
    expect(rows.rows).toEqual([
      { quantity: 4, unit_cost: '100.0000', value_change: '400.00', quantity_after: 4, valuation_rate_after: '100.0000', stock_value_after: '400.00' },
      { quantity: 8, unit_cost: '200.0000', value_change: '1600.00', quantity_after: 12, valuation_rate_after: '166.6667', stock_value_after: '2000.00' },
      { quantity: 3, unit_cost: '300.0000', value_change: '900.00', quantity_after: 15, valuation_rate_after: '193.3333', stock_value_after: '2900.00' },
      { quantity: -3, unit_cost: '193.3333', value_change: '-580.00', quantity_after: 12, valuation_rate_after: '193.3333', stock_value_after: '2320.00' },
      { quantity: -5, unit_cost: '193.3333', value_change: '-966.67', quantity_after: 7, valuation_rate_after: '193.3333', stock_value_after: '1353.33' },
      { quantity: -4, unit_cost: '193.3333', value_change: '-773.33', quantity_after: 3, valuation_rate_after: '193.3333', stock_value_after: '580.00' },
      { quantity: -3, unit_cost: '193.3333', value_change: '-580.00', quantity_after: 0, valuation_rate_after: '193.3333', stock_value_after: '0.00' },
    ])
    expect(await stockOfProduct(db, p)).toEqual({ quantity: 0, valuation_rate: '193.3333', stock_value: '0.00', last_movement_date: '2026-11-20' })
  })

  it('answers the contract’s stock check and the product’s stock through the API', async () => {
    const p = await newProduct(db)
    await move([{ product: p, quantity: 7, unitCost: '12.5' }])
    const check = await t.current.call({ method: 'GET', url: `/inventory/api/v1/inventory/check_by_product_id/${p}` })
    expect(check.body).toEqual({ in_stock: 7, is_in_stock: true })
    const row = await t.current.call({ method: 'GET', url: `/inventory/api/v1/inventory/${p}` })
    expect(row.body).toMatchObject({ id: p, product: p, quantity: 7, valuation_rate: '12.5000', stock_value: '87.50' })
    const fresh = await newProduct(db)
    expect((await t.current.call({ method: 'GET', url: `/inventory/api/v1/inventory/check_by_product_id/${fresh}` })).body).toEqual({ in_stock: 0, is_in_stock: false })
    expect((await t.current.call({ method: 'GET', url: '/inventory/api/v1/inventory/check_by_product_id/99999999' })).status).toBe(404)
    // Nobody writes the stock through the API: the kernel does.
    expect((await t.current.call({ method: 'PUT', url: `/inventory/api/v1/inventory/update/${p}`, payload: { quantity: 100 } })).status).toBe(404)
    expect((await t.current.call({ method: 'GET', url: `/inventory/api/v1/inventory/check_by_product_id/${p}`, asAnonymous: true })).status).toBe(401)
  })

  it('gives every product its stock row from the start: the inventory lists it at zero', async () => {
    const created = await t.current.call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Fresh Mango' } })
    expect(created.status).toBe(201)
    const id = (created.body as { id: number }).id
    const listed = await t.current.call({ method: 'GET', url: `/inventory/api/v1/inventory/all/?product=${id}` })
    expect((listed.body as { inventories: unknown[] }).inventories).toEqual([expect.objectContaining({ id, product: { id, name: 'Fresh Mango' }, quantity: 0, stock_value: '0.00' })])
  })

  it('refuses more out than is on hand, and a day before the last movement, naming the line — and writes nothing of the document', async () => {
    const p = await newProduct(db, 'Gulshan Tea')
    const q = await newProduct(db)
    await move([{ product: p, quantity: 3, unitCost: '10' }], nextDocument('2026-11-20'))
    const short = await attempt(db, (trx) => moveStock(trx, nextDocument('2026-11-21'), [{ product: q, quantity: 5, unitCost: '1' }, { product: p, quantity: -4 }]))
    expect(short).toBeInstanceOf(ValidationError)
    const fields = (short as ValidationError).fields
    expect(Object.keys(fields)).toEqual(['items.1.quantity'])
    expect(messageFor('en', fields['items.1.quantity']![0]!)).toBe('Only 3 of Gulshan Tea in stock: 4 cannot go out.')
    expect(messageFor('ar', fields['items.1.quantity']![0]!)).toContain('Gulshan Tea')
    // Not even the other line's receipt.
    expect((await stockOfProduct(db, q))?.quantity ?? 0).toBe(0)
    expect(await ledgerRows(db, q)).toEqual([])

    const backdated = await attempt(db, (trx) => moveStock(trx, nextDocument('2026-11-19'), [{ product: p, quantity: -1 }]))
    expect((backdated as ValidationError).fields).toEqual({ 'items.0.product': [{ key: 'validation.stock_backdated', params: { product: 'Gulshan Tea', date: '2026-11-20' } }] })
    const bad = await attempt(db, (trx) => moveStock(trx, nextDocument(), [{ product: p, quantity: 0 }, { product: p, quantity: 2.5 }, { product: p, quantity: 2, unitCost: '1.23456' }, { product: -1, quantity: 1, unitCost: '1' }]))
    expect(Object.keys((bad as ValidationError).fields).sort()).toEqual(['items.0.quantity', 'items.1.quantity', 'items.2.unit_cost', 'items.3.product'])
    expect(await stockOfProduct(db, p)).toMatchObject({ quantity: 3, stock_value: '30.00' })
  })

  it('is held by the database: the ledger append-only, the stock never below zero, whoever writes', async () => {
    const p = await newProduct(db)
    await move([{ product: p, quantity: 2, unitCost: '5' }])
    const refused = async (statement: ReturnType<typeof sql>) => {
      try {
        await statement.execute(db)
        return 'written'
      } catch (e) {
        return (e as { code?: string }).code
      }
    }
    expect(await refused(sql`update stock_ledger set quantity = 100 where product = ${p}`)).toBe('23001')
    expect(await refused(sql`delete from stock_ledger where product = ${p}`)).toBe('23001')
    expect(await refused(sql`update inventory set quantity = -1 where id = ${p}`)).toBe('23514')
    expect(await refused(sql`update inventory set stock_value = -0.01 where id = ${p}`)).toBe('23514')
  })

  it('cancels a document by opposite rows at its own values, once; refused, with nothing written, while its goods are gone', async () => {
    const p = await newProduct(db, 'Rice')
    const receipt = nextDocument()
    await move([{ product: p, quantity: 10, unitCost: '3' }], receipt)
    const sale = nextDocument()
    await move([{ product: p, quantity: -4 }], sale)
    const gone = await attempt(db, (trx) => reverseStock(trx, receipt))
    expect(gone).toBeInstanceOf(ConflictError)
    expect(messageFor('en', (gone as ConflictError).detail as never)).toBe('It cannot be cancelled: 4 of the Rice it brought in have already gone out.')
    expect(await ledgerRows(db, p)).toHaveLength(2)

    // The sale comes back at the value it left with; then the receipt can go.
    await db.transaction().execute((trx) => reverseStock(trx, sale))
    expect(await stockOfProduct(db, p)).toMatchObject({ quantity: 10, stock_value: '30.00', valuation_rate: '3.0000' })
    await db.transaction().execute((trx) => reverseStock(trx, receipt))
    expect(await stockOfProduct(db, p)).toMatchObject({ quantity: 0, stock_value: '0.00' })
    const rows = await sql<{ quantity: number; value_change: string; reverses: number | null }>`select quantity, value_change, reverses from stock_ledger where product = ${p} order by id`.execute(db)
    expect(rows.rows.map((r) => [r.quantity, r.value_change, r.reverses !== null])).toEqual([[10, '30.00', false], [-4, '-12.00', false], [4, '12.00', true], [-10, '-30.00', true]])
    expect(await attempt(db, (trx) => reverseStock(trx, receipt))).toBeInstanceOf(ConflictError)
  })

  it.runIf(kind === 'postgres')('lets exactly the stock on hand go out when thirty ask for it at once', async () => {
    const p = await newProduct(db)
    await move([{ product: p, quantity: 10, unitCost: '1' }])
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => move([{ product: p, quantity: -1 }])))
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10)
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof ValidationError)).toBe(true)
    expect(await stockOfProduct(db, p)).toMatchObject({ quantity: 0, stock_value: '0.00' })
    expect(await ledgerRows(db, p)).toHaveLength(11)
  })

  it('keeps on hand the sum of its movements and the value the sum of its changes, never negative, over random receipts, issues, counts and cancels', async () => {
    const products = [await newProduct(db), await newProduct(db)]
    const step = fc.oneof(
      fc.record({ op: fc.constant('in' as const), product: fc.nat({ max: 1 }), quantity: fc.integer({ min: 1, max: 50 }), cost: fc.integer({ min: 0, max: 99_999 }) }),
      fc.record({ op: fc.constant('out' as const), product: fc.nat({ max: 1 }), quantity: fc.integer({ min: 1, max: 60 }) }),
      // A stock count (an adjustment): what differs from what is on hand moves, in or out.
      fc.record({ op: fc.constant('count' as const), product: fc.nat({ max: 1 }), counted: fc.nat({ max: 80 }) }),
      fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }),
    )
    const done: StockDocument[] = []
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        for (const s of steps) {
          const before = await Promise.all(products.map((p) => stockOfProduct(db, p)))
          const rowsBefore = Number((await sql<{ n: number }>`select count(*)::int as n from stock_ledger`.execute(db)).rows[0]!.n)
          let outcome: unknown
          if (s.op === 'cancel') {
            if (done.length === 0) continue
            const target = done[s.pick % done.length]!
            outcome = await attempt(db, (trx) => reverseStock(trx, target))
          } else if (s.op === 'count') {
            const document = nextDocument()
            outcome = await attempt(db, (trx) => moveStock(trx, document, [{ product: products[s.product]!, counted: s.counted }]))
            if (outcome === undefined) done.push(document)
          } else {
            const document = nextDocument()
            const cents = s.op === 'in' ? s.cost : 0
            const cost = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
            outcome = await attempt(db, (trx) => moveStock(trx, document, [{ product: products[s.product]!, quantity: s.op === 'in' ? s.quantity : -s.quantity, unitCost: cost }]))
            if (outcome === undefined) done.push(document)
          }
          if (outcome !== undefined) {
            // A refusal writes nothing.
            expect(outcome instanceof ValidationError || outcome instanceof ConflictError).toBe(true)
            expect(await Promise.all(products.map((p) => stockOfProduct(db, p)))).toEqual(before)
            expect(Number((await sql<{ n: number }>`select count(*)::int as n from stock_ledger`.execute(db)).rows[0]!.n)).toBe(rowsBefore)
          }
          for (const p of products) {
            const stock = await stockOfProduct(db, p)
            const rows = await ledgerRows(db, p)
            const quantity = rows.reduce((a, r) => a + r.quantity, 0)
            const value = rows.reduce((a, r) => a + toMinor(r.value_change), 0n)
            expect(stock?.quantity ?? 0).toBe(quantity)
            expect(toMinor(stock?.stock_value ?? '0')).toBe(value)
            expect(quantity >= 0 && value >= 0n).toBe(true)
          }
        }
      }),
      { numRuns: 15 },
    )
  })
})

