import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { CONFIRMED_STATES } from '../../schema/entities/orders/order'
import { SALE_STATUSES } from '../../schema/reports/order-reports'
import { signToken } from '../../server/auth/tokens'
import { callerWith, describeEachDatabase, JWT_SECRET, type Reply } from './helpers/app'

/**
 * The order report with profit and its summary (issue 24; api-contract §6; domain-anchors
 * §3.4, rules 48 and 51): one row per sale that stands — revenue the goods less the order's
 * discount, cost at each line's snapshotted moving average, profit and margin — and the same
 * per day or month; a cancelled order and a cart not yet confirmed are left out. Every figure
 * to the cent, at the engine's routes and at the contract's.
 */
describeEachDatabase('order reports', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  const orders = '/order/api/v1/order'
  const contract = { report: '/report/api/v1/order_report_with_profit/filter/', summary: '/summary_report/api/v1/order_summary_report/filter/' }
  const no: Record<string, string> = {}
  let nadia: number
  let omar: number
  let branch: number

  const report = async (name: string, query = '') => ok(await call({ method: 'GET', url: `/api/reports/${name}/?${query}` }))
  const figures = (rows: Array<Record<string, unknown>>) => rows.map((r) => [r.order_no, r.revenue, r.cost, r.profit, r.margin])
  const orderNos = (rows: Array<Record<string, unknown>>) => rows.map((r) => r.order_no)

  const product = async (name: string, unitPrice: string) => ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name, unit_price: unitPrice } }), 201).id as number
  const stockIn = async (item: number, quantity: number, unitCost: string) => {
    const made = ok(await call({ method: 'POST', url: '/stock_adjustment/api/v1/stock_adjustment/create/', payload: { reason: 'Opening', items: [{ product: item, quantity, unit_cost: unitCost }] } }), 201)
    ok(await call({ method: 'POST', url: `/stock_adjustment/api/v1/stock_adjustment/confirm/${made.id}` }))
  }
  const customer = async (username: string, first: string, last: string) =>
    ok(
      await call({ method: 'POST', url: '/customer/api/v1/customer/create/', payload: { username, email: `${username}@shop.example`, first_name: first, last_name: last, password: 'secret-pass-123', confirm_password: 'secret-pass-123' } }),
      201,
    ).id as number
  /** An order, then the workflow's steps (`confirm` with what is paid with it). */
  const order = async (key: string, header: Record<string, unknown>, lines: object[], steps: Array<[string, object?]>) => {
    const made = ok(await call({ method: 'POST', url: `${orders}/create/`, payload: { ...header, order_items: lines } }), 201)
    for (const [step, payload] of steps) ok(await call({ method: 'POST', url: `${orders}/${step}/${made.id}`, payload: payload ?? {} }))
    no[key] = made.order_no
  }

  beforeAll(async () => {
    const tea = await product('Report Tea', '25.00')
    const cups = await product('Report Cup', '8.00')
    const jars = await product('Report Jar', '12.00')
    // Moving averages: tea (20 at 10.00, 10 at 13.00) 11.00; cups 3.00; jars (2 at 10.00, 1 at 14.00) 11.3333.
    await stockIn(tea, 20, '10.00')
    await stockIn(tea, 10, '13.00')
    await stockIn(cups, 50, '3.00')
    await stockIn(jars, 2, '10.00')
    await stockIn(jars, 1, '14.00')
    nadia = await customer('nadia_r', 'Nadia', 'Islam')
    omar = await customer('omar_r', 'Omar', 'Faruk')
    branch = ok(await call({ method: 'POST', url: '/branch/api/v1/branch/create/', payload: { name: `Order branch ${Math.random()}` } }), 201).id
    const cash = Number((await sql<{ id: number }>`select id from ledger_account where name = 'Cash' and is_deletable = false`.execute(t.current.db)).rows[0]!.id)
    const paying = (amount: string) => ({ pay_amount: amount, ledger: cash })
    // Revenue 75 + 30 − 1 = 104 (shipping and tax aside), cost 3 × 11 + 4 × 3 = 45; 50.00 paid.
    await order('a', { user: nadia, branch, order_date: '2026-10-30', discount_amount: '1.00', shipping_price: '5.00', tax_price: '2.00' }, [{ product: tea, quantity: 3 }, { product: cups, quantity: 4, price: '7.50' }], [['confirm', paying('50.00')]])
    // Revenue 50, cost 22; paid in full and delivered.
    await order('b', { user: omar, order_date: '2026-10-30' }, [{ product: tea, quantity: 2 }], [['confirm', paying('50.00')], ['pack'], ['ship'], ['deliver']])
    // Revenue 80 − 5 = 75, cost 30; nothing paid.
    await order('c', { user: nadia, order_date: '2026-10-31', discount_amount: '5.00' }, [{ product: cups, quantity: 10 }], [['confirm']])
    // Revenue 36 − 2 = 34, cost 3 × 11.3333 = 33.9999, to the cent 34.00: no profit.
    await order('d', { user: omar, branch, order_date: '2026-11-02', discount_amount: '2.00' }, [{ product: jars, quantity: 3 }], [['confirm', paying('10.00')]])
    // Cancelled after its confirmation, and a cart never confirmed: neither counts.
    await order('e', { user: nadia, branch, order_date: '2026-11-02' }, [{ product: tea, quantity: 1 }], [['confirm', paying('25.00')], ['cancel']])
    await order('f', { user: nadia, order_date: '2026-11-03' }, [{ product: cups, quantity: 2 }], [['process']])
    // Given away whole: no revenue, a cost of 3.00, so no margin.
    await order('g', { user: omar, order_date: '2026-11-03', discount_amount: '8.00' }, [{ product: cups, quantity: 1 }], [['confirm']])
  })

  it('counts the states an order’s goods have left the stock in, and no other', () => {
    expect([...SALE_STATUSES]).toEqual(CONFIRMED_STATES)
  })

  it('gives each sale that stands its revenue, cost, profit and margin, totalled to the cent', async () => {
    const all = await report('order_report')
    expect(figures(all.rows)).toEqual([
      [no.a, '104.00', '45.00', '59.00', '56.73'],
      [no.b, '50.00', '22.00', '28.00', '56.00'],
      [no.c, '75.00', '30.00', '45.00', '60.00'],
      [no.d, '34.00', '34.00', '0.00', '0.00'],
      [no.g, '0.00', '3.00', '-3.00', null],
    ])
    expect(all.totals).toEqual({ revenue: '263.00', cost: '134.00', profit: '129.00' })
    // The margin of the totals (129 / 263), not an average of the rows'.
    expect(all.margin).toBe('49.05')
    expect(all.total_elements).toBe(5)
    expect(all.rows.map((r: Record<string, unknown>) => [r.order_date, r.customer, r.status, r.payment_status])).toEqual([
      ['2026-10-30', 'Nadia Islam', 'confirmed', 'partial'],
      ['2026-10-30', 'Omar Faruk', 'delivered', 'paid'],
      ['2026-10-31', 'Nadia Islam', 'confirmed', 'unpaid'],
      ['2026-11-02', 'Omar Faruk', 'confirmed', 'partial'],
      ['2026-11-03', 'Omar Faruk', 'confirmed', 'unpaid'],
    ])
    expect(all.rows[0].branch).toMatch(/^Order branch/)
    expect(all.rows[1].branch).toBeNull()
  })

  it('filters by period, status, payment status, customer and branch', async () => {
    expect(orderNos((await report('order_report', 'date_after=2026-10-31&date_before=2026-11-02')).rows)).toEqual([no.c, no.d])
    expect(orderNos((await report('order_report', 'status=delivered')).rows)).toEqual([no.b])
    expect(orderNos((await report('order_report', 'payment_status=partial')).rows)).toEqual([no.a, no.d])
    const omars = await report('order_report', `user=${omar}`)
    expect(orderNos(omars.rows)).toEqual([no.b, no.d, no.g])
    expect(omars.totals).toEqual({ revenue: '84.00', cost: '59.00', profit: '25.00' })
    expect(omars.margin).toBe('29.76')
    const branches = await report('order_report', `branch=${branch}`)
    expect(orderNos(branches.rows)).toEqual([no.a, no.d])
    expect(branches.totals).toEqual({ revenue: '138.00', cost: '79.00', profit: '59.00' })
    // Nothing asked for: totals of nothing, and no margin.
    const none = await report('order_report', `user=${nadia}&date_after=2026-11-01`)
    expect(none).toMatchObject({ rows: [], totals: { revenue: '0', cost: '0', profit: '0' }, margin: null, total_elements: 0 })
  })

  it('totals the sales per day and per month, over every order asked for', async () => {
    const days = await report('order_summary_report')
    expect(days.rows).toEqual([
      { period: '2026-10-30', orders: 2, items_sold: 9, revenue: '154.00', cost: '67.00', profit: '87.00', margin: '56.49', paid_amount: '100.00' },
      { period: '2026-10-31', orders: 1, items_sold: 10, revenue: '75.00', cost: '30.00', profit: '45.00', margin: '60.00', paid_amount: '0.00' },
      { period: '2026-11-02', orders: 1, items_sold: 3, revenue: '34.00', cost: '34.00', profit: '0.00', margin: '0.00', paid_amount: '10.00' },
      { period: '2026-11-03', orders: 1, items_sold: 1, revenue: '0.00', cost: '3.00', profit: '-3.00', margin: null, paid_amount: '0.00' },
    ])
    expect(days.totals).toEqual({ orders: '5', items_sold: '23', revenue: '263.00', cost: '134.00', profit: '129.00', paid_amount: '110.00' })
    expect(days.margin).toBe('49.05')
    const months = await report('order_summary_report', 'group_by=month')
    expect(months.rows).toEqual([
      { period: '2026-10', orders: 3, items_sold: 19, revenue: '229.00', cost: '97.00', profit: '132.00', margin: '57.64', paid_amount: '100.00' },
      { period: '2026-11', orders: 2, items_sold: 4, revenue: '34.00', cost: '37.00', profit: '-3.00', margin: '-8.82', paid_amount: '10.00' },
    ])
    expect(months.totals).toEqual(days.totals)
    const omars = await report('order_summary_report', `group_by=month&user=${omar}&date_before=2026-11-02`)
    expect(omars.rows).toEqual([
      { period: '2026-10', orders: 1, items_sold: 2, revenue: '50.00', cost: '22.00', profit: '28.00', margin: '56.00', paid_amount: '50.00' },
      { period: '2026-11', orders: 1, items_sold: 3, revenue: '34.00', cost: '34.00', profit: '0.00', margin: '0.00', paid_amount: '10.00' },
    ])
  })

  it('answers at the contract’s routes, in its envelopes, with the same figures', async () => {
    const page = ok(await call({ method: 'GET', url: `${contract.report}?page=2&size=2` }))
    expect(page).toMatchObject({ page: 2, size: 2, total_pages: 3, total_elements: 5, margin: '49.05' })
    expect(figures(page.orders)).toEqual([
      [no.c, '75.00', '30.00', '45.00', '60.00'],
      [no.d, '34.00', '34.00', '0.00', '0.00'],
    ])
    expect(orderNos(ok(await call({ method: 'GET', url: `${contract.report}?status=delivered` })).orders)).toEqual([no.b])
    const summary = ok(await call({ method: 'GET', url: `${contract.summary}?group_by=month` }))
    expect(summary).toMatchObject({ total_elements: 2, margin: '49.05' })
    expect(summary.order_summary.map((r: Record<string, unknown>) => [r.period, r.orders, r.revenue, r.cost, r.profit, r.paid_amount])).toEqual([
      ['2026-10', 3, '229.00', '97.00', '132.00', '100.00'],
      ['2026-11', 2, '34.00', '37.00', '-3.00', '10.00'],
    ])
  })

  describe('refused', () => {
    it('a date that is none, a period that ends before it starts, a status no sale is in: 400 with the field named', async () => {
      for (const [name, url] of [
        ['date_after', '/api/reports/order_report/?date_after=2026-02-30'],
        ['date_before', `${contract.report}?date_before=yesterday`],
        ['date_before', '/api/reports/order_summary_report/?date_after=2026-11-02&date_before=2026-10-30'],
        ['date_before', `${contract.summary}?date_after=2026-11-02&date_before=2026-10-30`],
        ['status', '/api/reports/order_report/?status=pending'],
        ['group_by', '/api/reports/order_summary_report/?group_by=week'],
      ] as const) {
        const refused = await call({ method: 'GET', url })
        expect(refused.status, `${url}: ${refused.raw}`).toBe(400)
        expect(refused.body[name], url).toBeDefined()
      }
    })

    it('a caller without the report’s permission — a plain USER — gets 403; its own permission opens one report alone', async () => {
      const id = await t.current.createUser({ email: `plain-${t.current.kind}@example.com` })
      await sql`update "user" set role = (select id from role where name = 'USER') where id = ${id}`.execute(t.current.db)
      const asUser = { authorization: `Bearer ${await signToken(JWT_SECRET, id)}` }
      for (const url of ['/api/reports/order_report/', '/api/reports/order_summary_report/', contract.report, contract.summary, '/api/reports/order_report/csv']) {
        expect((await call({ method: 'GET', url, headers: asUser })).status, url).toBe(403)
      }
      const clerk = await callerWith(t.current, ['ORDER_REPORT_VIEW'])
      expect(ok(await clerk({ method: 'GET', url: contract.report })).total_elements).toBe(5)
      expect((await clerk({ method: 'GET', url: contract.summary })).status).toBe(403)
    })
  })

  it('downloads every row as CSV with the column labels', async () => {
    const csv = await call({ method: 'GET', url: '/api/reports/order_report/csv' })
    expect(csv.status).toBe(200)
    const lines = csv.raw.replace(/^\ufeff/, '').trim().split('\r\n')
    expect(lines[0]).toBe('"Order No","Order Date","Customer","Branch","Status","Payment Status","Revenue","Cost","Profit","Margin %"')
    expect(lines).toHaveLength(6)
    expect(lines[1]).toContain(',104.00,45.00,59.00,56.73')
  })
})
