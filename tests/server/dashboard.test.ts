import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { todayIso } from '../../schema/kit/dates'
import { widgets } from '../../schema'
import { callerWith, describeEachDatabase, type Reply } from './helpers/app'

/**
 * The e-commerce dashboard (issue 22; api-contract §6; domain-anchors §3.5): the contract's
 * routes, each a registry widget over confirmed, not cancelled orders, and the dashboard's
 * one request that answers every widget its caller may read.
 */
describeEachDatabase('dashboard', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const api = '/dashboard/api/v1'
  const orders = '/order/api/v1/order'
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  let tea: number
  let cups: number
  let cash: number

  beforeAll(async () => {
    const drinks = ok(await call({ method: 'POST', url: '/category/api/v1/category/create/', payload: { name: 'Drinks' } }), 201).id
    tea = ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Garden Tea', unit_price: '25.00', category: drinks } }), 201).id
    cups = ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Clay Cup', unit_price: '8.00', low_stock_alert: 100 } }), 201).id
    const adjustment = ok(await call({ method: 'POST', url: '/stock_adjustment/api/v1/stock_adjustment/create/', payload: { reason: 'Opening', items: [{ product: tea, quantity: 100, unit_cost: '10.00' }, { product: cups, quantity: 50, unit_cost: '3.00' }] } }), 201)
    ok(await call({ method: 'POST', url: `/stock_adjustment/api/v1/stock_adjustment/confirm/${adjustment.id}` }))
    cash = Number((await sql<{ id: number }>`select id from ledger_account where name = 'Cash' and is_deletable = false`.execute(t.current.db)).rows[0]!.id)
    const customer = ok(await call({ method: 'POST', url: '/customer/api/v1/customer/create/', payload: { username: 'dina', email: 'dina@shop.example', first_name: 'Dina', last_name: 'Roy', password: 'dina-pass-1234', confirm_password: 'dina-pass-1234' } }), 201).id
    const order = async (lines: object[], pay: string | null, after?: (id: number) => Promise<void>) => {
      const made = ok(await call({ method: 'POST', url: `${orders}/create/`, payload: { user: customer, order_items: lines } }), 201)
      ok(await call({ method: 'POST', url: `${orders}/confirm/${made.id}`, payload: pay ? { pay_amount: pay, ledger: cash } : {} }))
      await after?.(made.id)
      return made.id as number
    }
    // Paid in full: 2 teas (50.00). Partly paid: 1 tea + 5 cups (65.00, 20.00 paid). Unpaid: 3 cups (24.00).
    await order([{ product: tea, quantity: 2 }], '50.00')
    await order([{ product: tea, quantity: 1 }, { product: cups, quantity: 5 }], '20.00')
    await order([{ product: cups, quantity: 3 }], null)
    // Cancelled (not a sale) and a cart (not confirmed): neither counts.
    await order([{ product: tea, quantity: 9 }], '225.00', async (id) => void ok(await call({ method: 'POST', url: `${orders}/cancel/${id}` })))
    ok(await call({ method: 'POST', url: `${orders}/create/`, payload: { user: customer, order_items: [{ product: tea, quantity: 40 }] } }), 201)
  })

  it('counts paid and unpaid sales with their amounts, customers and products running low', async () => {
    expect(ok(await call({ method: 'GET', url: `${api}/get_total_count_of_paid_orders/` }))).toEqual({ count: 1, amount: '50.00' })
    // Unpaid: not paid in full — what is still due.
    expect(ok(await call({ method: 'GET', url: `${api}/get_total_count_of_unpaid_orders/` }))).toEqual({ count: 2, amount: '69.00' })
    expect(ok(await call({ method: 'GET', url: `${api}/get_total_count_of_customers/` })).count).toBe(Number((await sql<{ n: string }>`select count(*) as n from customer`.execute(t.current.db)).rows[0]!.n))
    // 42 cups left against an alert of 100.
    expect(ok(await call({ method: 'GET', url: `${api}/get_total_count_of_low_stock_products/` })).count).toBeGreaterThanOrEqual(1)
    expect(ok(await call({ method: 'GET', url: `${api}/get_all_low_stock_products/` })).products).toEqual(expect.arrayContaining([{ id: cups, name: 'Clay Cup', quantity: 42, low_stock_alert: 100 }]))
  })

  it('ranks best sellers by amount and by quantity, and counts items by category, over sales only', async () => {
    expect(ok(await call({ method: 'GET', url: `${api}/get_best_seller_by_amount/` })).best_sellers.map((p: { label: string; value: string }) => [p.label, p.value])).toEqual([
      ['Garden Tea', '75.00'],
      ['Clay Cup', '64.00'],
    ])
    expect(ok(await call({ method: 'GET', url: `${api}/get_best_seller_by_quantity/` })).best_sellers.map((p: { label: string; value: string }) => [p.label, p.value])).toEqual([
      ['Clay Cup', '8'],
      ['Garden Tea', '3'],
    ])
    expect(ok(await call({ method: 'GET', url: `${api}/get_all_categorized_order_item_count/` })).categories.map((p: { label: string; value: string }) => [p.label, p.value])).toEqual([
      ['widget.uncategorised', '8'],
      ['Drinks', '3'],
    ])
  })

  it('lists the latest, incomplete, paid and unpaid orders with what is due, and counts orders by status', async () => {
    const latest = ok(await call({ method: 'GET', url: `${api}/get_all_latest_orders/` })).orders
    expect(latest.map((o: { status: string }) => o.status)).toEqual(['cancelled', 'confirmed', 'confirmed', 'confirmed'])
    expect(ok(await call({ method: 'GET', url: `${api}/get_all_unpaid_orders/` })).orders.map((o: { due_amount: string }) => o.due_amount)).toEqual(['24.00', '45.00'])
    expect(ok(await call({ method: 'GET', url: `${api}/get_all_paid_orders/` })).orders).toHaveLength(1)
    expect(ok(await call({ method: 'GET', url: `${api}/get_all_incomplete_orders/` })).orders).toHaveLength(3)
    const totals = ok(await call({ method: 'GET', url: `${api}/get_order_totals/` })).order_totals
    expect(totals).toEqual(expect.arrayContaining([{ label: 'option.confirmed', value: '3', key: 'confirmed', translate: true }, { label: 'option.cancelled', value: '1', key: 'cancelled', translate: true }]))
  })

  it('keeps to the period asked, and refuses a period that ends before it starts', async () => {
    expect(ok(await call({ method: 'GET', url: `${api}/get_total_count_of_paid_orders/?date_after=2000-01-01&date_before=2000-12-31` }))).toEqual({ count: 0, amount: '0' })
    expect(ok(await call({ method: 'GET', url: `${api}/get_total_count_of_paid_orders/?date_after=${todayIso()}` })).count).toBe(1)
    const refused = await call({ method: 'GET', url: `${api}/get_total_count_of_paid_orders/?date_after=2026-02-01&date_before=2026-01-01` })
    expect(refused.status, refused.raw).toBe(400)
    expect(Object.keys(refused.body)).toEqual(['date_before'])
    expect((await call({ method: 'GET', url: `${api}/get_total_count_of_paid_orders/?date_after=yesterday` })).status).toBe(400)
  })

  it('answers a dashboard in one request, with only the widgets its caller may read', async () => {
    const all = ok(await call({ method: 'GET', url: `${api}/widgets/?dashboard=project` })).widgets
    expect(Object.keys(all)).toEqual(widgets.filter((w) => w.dashboard === 'project').sort((a, b) => a.order - b.order).map((w) => w.name))
    expect(all.paid_orders).toEqual({ count: 1, amount: '50.00' })
    const clerk = await callerWith(t.current, ['ORDER_LIST'])
    const theirs = ok(await clerk({ method: 'GET', url: `${api}/widgets/?dashboard=project` })).widgets
    expect(Object.keys(theirs)).not.toContain('low_stock_products')
    expect(Object.keys(theirs)).not.toContain('customers')
    expect(Object.keys(theirs)).toContain('paid_orders')
    // The contract's route of what they may not read: refused.
    expect((await clerk({ method: 'GET', url: `${api}/get_total_count_of_customers/` })).status).toBe(403)
    const nobody = await callerWith(t.current, [])
    expect(ok(await nobody({ method: 'GET', url: `${api}/widgets/` })).widgets).toEqual({})
    expect((await call({ method: 'GET', url: `${api}/widgets/`, asAnonymous: true })).status).toBe(401)
    expect((await call({ method: 'GET', url: `${api}/widgets/?dashboard=nowhere` })).status).toBe(400)
  })

  it('draws the analytics: sales by day over the period, every day shown, and sales by category', async () => {
    const analytics = ok(await call({ method: 'GET', url: `${api}/widgets/?dashboard=analytics&date_after=${todayIso()}&date_before=${todayIso()}` })).widgets
    expect(analytics.sales_over_time.points).toEqual([{ label: todayIso(), value: '139.00', key: null }])
    expect(analytics.sales_by_category.points.map((p: { label: string; value: string }) => [p.label, p.value])).toEqual([
      ['Drinks', '75.00'],
      ['widget.uncategorised', '64.00'],
    ])
    const month = ok(await call({ method: 'GET', url: `${api}/widgets/?dashboard=analytics` })).widgets.sales_over_time.points
    expect(month).toHaveLength(30)
  })
})
