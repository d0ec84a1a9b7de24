import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { fromMinor, toMinor } from '../../schema/kit/money'
import { callerWith, describeEachDatabase, type Reply } from './helpers/app'

/**
 * The stock report (issue 24; api-contract §6; domain-anchors §2.5, checklist 43–44): per
 * product its opening, ins, outs and closing in units and value over a period, the rate of
 * what is left, what is available now and whether it is low — the dashboard's condition —
 * filtered by product, category (with its sub-categories) and low stock, paged, with totals
 * over every product that tie to the stock ledger. Stock comes in and goes out through the
 * documents that move it: adjustments, purchases confirmed and a purchase cancelled today.
 */
type Row = Record<string, unknown>

describeEachDatabase('the stock report', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  const today = new Date().toISOString().slice(0, 10)
  const report = async (query = '') => ok(await call({ method: 'GET', url: `/api/reports/stock_report/?${query}` }))
  const APRIL = 'date_after=2026-04-01&date_before=2026-04-30'
  const figures = (r: Row) => [r.product_name, r.opening_quantity, r.opening_value, r.in_quantity, r.in_value, r.out_quantity, r.out_value, r.closing_quantity, r.closing_value, r.valuation_rate, r.available, r.is_low_stock]
  let tea: number
  let food: number
  let kitchen: number

  const create = async (url: string, payload: Record<string, unknown>) => ok(await call({ method: 'POST', url, payload }), 201).id as number
  const adjust = async (date: string, items: Array<Record<string, unknown>>) => {
    const id = await create('/stock_adjustment/api/v1/stock_adjustment/create/', { reason: 'Shelf count', adjustment_date: date, items })
    ok(await call({ method: 'POST', url: `/stock_adjustment/api/v1/stock_adjustment/confirm/${id}` }))
  }
  const purchase = async (vendor: number, date: string, items: Array<Record<string, unknown>>) => {
    const id = await create('/purchase_final/api/v1/purchase_final/create_directly_from_admin_panel/', { vendor, purchase_date: date, items })
    ok(await call({ method: 'POST', url: `/purchase_final/api/v1/purchase_final/paybill_and_confirm/${id}`, payload: { paid_amount: '0' } }))
    return id
  }

  beforeAll(async () => {
    food = await create('/category/api/v1/category/create/', { name: 'Food' })
    const leaves = await create('/category/api/v1/category/create/', { name: 'Tea Leaves', parent: food })
    kitchen = await create('/category/api/v1/category/create/', { name: 'Kitchen' })
    tea = await create('/product/api/v1/product/create/', { name: 'Garden Tea', product_code: 'GT-1', category: leaves })
    const cups = await create('/product/api/v1/product/create/', { name: 'Clay Cup', product_code: 'CC-1', category: kitchen, low_stock_alert: 10 })
    const pot = await create('/product/api/v1/product/create/', { name: 'Clay Pot', category: kitchen })
    await create('/product/api/v1/product/create/', { name: 'Idle Jar' })
    const vendor = await create('/vendor/api/v1/vendor/create/', { username: 'stock-vendor', email: 'stock-vendor@example.com', first_name: 'Rina', last_name: 'Akter', password: 'vendor-pass-123', confirm_password: 'vendor-pass-123' })

    await adjust('2026-03-10', [{ product: tea, quantity: 10, unit_cost: '2.50' }])
    await purchase(vendor, '2026-04-05', [{ product: tea, quantity: 8, unit_price: '12.50' }, { product: cups, quantity: 20, unit_price: '3.00' }])
    const pots = await purchase(vendor, '2026-04-12', [{ product: pot, quantity: 4, unit_price: '7.25' }])
    // 18 at 125.00: three go out at a sixth of it, 20.83.
    await adjust('2026-04-20', [{ product: tea, quantity: -3 }])
    await adjust('2026-05-02', [{ product: tea, quantity: -12 }])
    // Undone today: its pots go out on the day it is cancelled.
    ok(await call({ method: 'POST', url: `/purchase_final/api/v1/purchase_final/cancel/${pots}` }))
  })

  it('gives each product its opening, ins, outs and closing in units and value, its rate, what is available now and whether it is low, to the cent', async () => {
    const april = await report(APRIL)
    expect(april.rows.map(figures)).toEqual([
      ['Clay Cup', 0, '0.00', 20, '60.00', 0, '0.00', 20, '60.00', '3.0000', 20, false],
      ['Clay Pot', 0, '0.00', 4, '29.00', 0, '0.00', 4, '29.00', '7.2500', 0, true],
      ['Garden Tea', 10, '25.00', 8, '100.00', 3, '20.83', 15, '104.17', '6.9447', 3, true],
      ['Idle Jar', 0, '0.00', 0, '0.00', 0, '0.00', 0, '0.00', '0.0000', 0, true],
    ])
    expect(april.rows[2]).toMatchObject({ product_code: 'GT-1', category: 'Tea Leaves' })
    expect(april.totals).toEqual({
      opening_quantity: '10', opening_value: '25.00', in_quantity: '32', in_value: '189.00', out_quantity: '3', out_value: '20.83',
      closing_quantity: '39', closing_value: '193.17', available: '23',
    })
    expect(april).toMatchObject({ total_elements: 4, date_after: '2026-04-01', date_before: '2026-04-30' })
  })

  it('ties every row and the totals to the stock ledger: closing = opening + in − out, each figure the sum of the ledger’s rows', async () => {
    for (const [from, to] of [['2026-04-01', '2026-04-30'], ['2026-01-01', '2026-12-31'], ['2026-04-13', '2026-05-02'], ['2026-05-03', today], ['2027-01-01', '2027-01-31']] as const) {
      const got = await report(`date_after=${from}&date_before=${to}`)
      for (const r of got.rows as Row[]) {
        expect(Number(r.closing_quantity), `${r.product_name} ${from}`).toBe(Number(r.opening_quantity) + Number(r.in_quantity) - Number(r.out_quantity))
        expect(toMinor(String(r.closing_value))).toBe(toMinor(String(r.opening_value)) + toMinor(String(r.in_value)) - toMinor(String(r.out_value)))
      }
      const ledger = (
        await sql<Record<string, string>>`
          select coalesce(sum(quantity) filter (where movement_date < ${from}::date), 0)::text as opening_quantity,
            round(coalesce(sum(value_change) filter (where movement_date < ${from}::date), 0), 2)::text as opening_value,
            coalesce(sum(quantity) filter (where movement_date >= ${from}::date and quantity > 0), 0)::text as in_quantity,
            round(coalesce(sum(value_change) filter (where movement_date >= ${from}::date and quantity > 0), 0), 2)::text as in_value,
            coalesce(-sum(quantity) filter (where movement_date >= ${from}::date and quantity < 0), 0)::text as out_quantity,
            round(coalesce(-sum(value_change) filter (where movement_date >= ${from}::date and quantity < 0), 0), 2)::text as out_value,
            coalesce(sum(quantity), 0)::text as closing_quantity, round(coalesce(sum(value_change), 0), 2)::text as closing_value
          from stock_ledger where movement_date <= ${to}::date`.execute(t.current.db)
      ).rows[0]!
      const { available: _, ...totals } = got.totals as Record<string, string>
      expect(totals, `${from} … ${to}`).toEqual(ledger)
      // The totals are the rows' sums too.
      for (const column of ['opening_value', 'in_value', 'out_value', 'closing_value']) {
        expect(fromMinor((got.rows as Row[]).reduce((sum, r) => sum + toMinor(String(r[column])), 0n))).toBe(got.totals[column])
      }
    }
  })

  it('takes this month up to today when no period is given', async () => {
    const now = await report()
    expect(now).toMatchObject({ date_after: `${today.slice(0, 8)}01`, date_before: today })
    // The pots of the purchase cancelled today went out this month; nothing is left of them, at the rate they had.
    expect(now.rows.map(figures)).toEqual([
      ['Clay Cup', 20, '60.00', 0, '0.00', 0, '0.00', 20, '60.00', '3.0000', 20, false],
      ['Clay Pot', 4, '29.00', 0, '0.00', 4, '29.00', 0, '0.00', '7.2500', 0, true],
      ['Garden Tea', 3, '20.83', 0, '0.00', 0, '0.00', 3, '20.83', '6.9433', 3, true],
      ['Idle Jar', 0, '0.00', 0, '0.00', 0, '0.00', 0, '0.00', '0.0000', 0, true],
    ])
    expect(now.totals).toMatchObject({ opening_value: '109.83', out_value: '29.00', closing_value: '80.83', available: '23' })
  })

  it('filters by product, by category with its sub-categories, and to the products running low as the dashboard counts them', async () => {
    const names = async (query: string) => (await report(`${APRIL}&${query}`)).rows.map((r: Row) => r.product_name)
    expect(await names(`product=${tea}`)).toEqual(['Garden Tea'])
    expect(await names(`category=${food}`)).toEqual(['Garden Tea'])
    expect(await names(`category=${kitchen}`)).toEqual(['Clay Cup', 'Clay Pot'])
    expect((await report(`${APRIL}&category=${kitchen}`)).totals).toMatchObject({ in_value: '89.00', closing_value: '89.00', available: '20' })
    const low = await report(`${APRIL}&low_stock_only=true`)
    expect(low.rows.map((r: Row) => r.product_name)).toEqual(['Clay Pot', 'Garden Tea', 'Idle Jar'])
    expect(low.totals).toMatchObject({ opening_value: '25.00', in_value: '129.00', out_value: '20.83', closing_value: '133.17', available: '3' })
    const dashboard = ok(await call({ method: 'GET', url: '/dashboard/api/v1/get_total_count_of_low_stock_products/' }))
    expect(low.total_elements).toBe(dashboard.count)
    expect((await report(`${APRIL}&low_stock_only=true&category=${kitchen}`)).rows.map((r: Row) => r.product_name)).toEqual(['Clay Pot'])
  })

  it('gives a page of the products with the totals of them all, the last page for one past the end', async () => {
    const all = await report(APRIL)
    const second = await report(`${APRIL}&page=2&size=2`)
    expect(second).toMatchObject({ page: 2, size: 2, total_pages: 2, total_elements: 4 })
    expect(second.rows.map(figures)).toEqual(all.rows.slice(2).map(figures))
    expect(second.totals).toEqual(all.totals)
    expect((await report(`${APRIL}&page=9&size=3`)).rows.map(figures)).toEqual(all.rows.slice(3).map(figures))
    const contract = ok(await call({ method: 'GET', url: `/summary_report/api/v1/inventory_summary_report/filter/?${APRIL}&page=1&size=3` }))
    expect(contract).toMatchObject({ page: 1, size: 3, total_pages: 2, total_elements: 4, date_after: '2026-04-01', date_before: '2026-04-30' })
    expect(contract.inventories.map(figures)).toEqual(all.rows.slice(0, 3).map(figures))
  })

  it('streams every product as CSV', async () => {
    const csv = await call({ method: 'GET', url: `/api/reports/stock_report/csv?${APRIL}` })
    expect(csv.status).toBe(200)
    const lines = csv.raw.trim().split('\r\n')
    expect(lines).toHaveLength(5)
    expect(lines[3]).toContain('"Garden Tea","GT-1","Tea Leaves",10,25.00,8,100.00,3,20.83,15,104.17,6.9447,3,true')
  })

  it('refuses a day that does not exist, a period that ends before it starts and a parameter of the wrong kind, naming each', async () => {
    const refused = async (query: string) => {
      const r = await call({ method: 'GET', url: `/api/reports/stock_report/?${query}` })
      expect(r.status, r.raw).toBe(400)
      return Object.keys(r.body).sort()
    }
    expect(await refused('date_after=2026-02-30')).toEqual(['date_after'])
    expect(await refused('date_after=2026-05-01&date_before=2026-04-01')).toEqual(['date_before'])
    expect(await refused('product=tea&category=-1&low_stock_only=perhaps')).toEqual(['category', 'low_stock_only', 'product'])
  })

  it('is for the holders of its permission only', async () => {
    const clerk = await callerWith(t.current, [])
    expect((await clerk({ method: 'GET', url: `/api/reports/stock_report/?${APRIL}` })).status).toBe(403)
    expect((await clerk({ method: 'GET', url: '/summary_report/api/v1/inventory_summary_report/filter/' })).status).toBe(403)
    const keeper = await callerWith(t.current, ['STOCK_REPORT_VIEW'])
    expect((await keeper({ method: 'GET', url: `/api/reports/stock_report/?${APRIL}` })).status).toBe(200)
  })
})
