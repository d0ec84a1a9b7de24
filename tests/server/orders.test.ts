import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { todayIso } from '../../schema/kit/dates'
import { callerWith, describeEachDatabase, type Reply } from './helpers/app'

/**
 * Orders (issue 22; api-contract §4.9, §5.3; domain-anchors §3, §6 45–52): a customer's cart,
 * its confirmation — stock taken under locks, never oversold, the sale and its cost posted,
 * what is paid received — later payments, the workflow, a confirmed order's items changed,
 * and a cancellation that brings the goods back, reverses the sale and refunds what was paid.
 * Every posting is asserted ledger by ledger.
 */
describeEachDatabase('orders', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const orders = '/order/api/v1/order'
  const cart = '/customerorder/api/v1/customerorder'
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  let tea: number
  let cups: number
  let customer: number
  let customerLedgerName: string
  let cash: number

  const stockOf = async (product: number) => (await call({ method: 'GET', url: `/inventory/api/v1/inventory/${product}` })).body as { quantity: number; stock_value: string; valuation_rate: string }
  /** What a number posted, ledger by ledger, in the order written (reversals included). */
  const postedUnder = async (number: string | null) =>
    (
      await sql<{ name: string; debit_amount: string; credit_amount: string }>`
        select l.name, a.debit_amount::text, a.credit_amount::text from account_log a join ledger_account l on l.id = a.ledger
        where a.reference_no = ${number} order by a.id`.execute(t.current.db)
    ).rows.map((r) => [r.name, Number(r.debit_amount), Number(r.credit_amount)])
  /** A ledger's balance (Dr − Cr) over every row. */
  const balanceOf = async (name: string) =>
    Number((await sql<{ b: string }>`select coalesce(sum(a.debit_amount - a.credit_amount), 0)::text as b from account_log a join ledger_account l on l.id = a.ledger where l.name = ${name}`.execute(t.current.db)).rows[0]!.b)

  /** Units into stock at a unit cost, through a confirmed stock adjustment. */
  const stockIn = async (product: number, quantity: number, unitCost: string) => {
    const made = ok(await call({ method: 'POST', url: '/stock_adjustment/api/v1/stock_adjustment/create/', payload: { reason: 'Opening', items: [{ product, quantity, unit_cost: unitCost }] } }), 201)
    ok(await call({ method: 'POST', url: `/stock_adjustment/api/v1/stock_adjustment/confirm/${made.id}` }))
  }
  const newOrder = async (lines: object[], extra: object = {}) =>
    ok(await call({ method: 'POST', url: `${orders}/create/`, payload: { user: customer, order_items: lines, ...extra } }), 201) as { id: number; order_no: string; status: string; net_amount: string }

  beforeAll(async () => {
    tea = ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Garden Tea', unit_price: '25.00' } }), 201).id
    cups = ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Clay Cup', unit_price: '8.00' } }), 201).id
    const made = ok(
      await call({ method: 'POST', url: '/customer/api/v1/customer/create/', payload: { username: 'nadia', email: 'nadia@shop.example', first_name: 'Nadia', last_name: 'Islam', password: 'nadia-pass-123', confirm_password: 'nadia-pass-123' } }),
      201,
    )
    customer = made.id
    customerLedgerName = (await sql<{ name: string }>`select name from ledger_account where ledger_type = 'customer_ledger' and reference_id = ${String(customer)}`.execute(t.current.db)).rows[0]!.name
    cash = Number((await sql<{ id: number }>`select id from ledger_account where name = 'Cash' and is_deletable = false`.execute(t.current.db)).rows[0]!.id)
    // 20 teas at 10.00, then 10 more at 13.00: a moving average of 11.00.
    await stockIn(tea, 20, '10.00')
    await stockIn(tea, 10, '13.00')
    await stockIn(cups, 50, '3.00')
  })

  describe('lookups', () => {
    it('seeds the seven order statuses in their order, under `orderstatuses`, and none can be renamed or deleted', async () => {
      const listed = ok(await call({ method: 'GET', url: '/orderstatus/api/v1/orderstatus/all/' }))
      expect(listed.orderstatuses.map((s: { name: string }) => s.name)).toEqual(['pending', 'processing', 'confirmed', 'packaging', 'on_the_way', 'delivered', 'cancelled'])
      const pending = listed.orderstatuses[0]
      expect((await call({ method: 'DELETE', url: `/orderstatus/api/v1/orderstatus/delete/${pending.id}` })).status).toBe(400)
      expect((await call({ method: 'PUT', url: `/orderstatus/api/v1/orderstatus/update/${pending.id}`, payload: { name: 'open' } })).status).toBe(400)
    })

    it('answers the shop’s payment methods at `/paymentmethod/`, under `paymentmethods`', async () => {
      const listed = ok(await call({ method: 'GET', url: '/paymentmethod/api/v1/paymentmethod/all/' }))
      expect(listed.paymentmethods.map((m: { name: string }) => m.name)).toEqual(expect.arrayContaining(['cash', 'bkash', 'rocket', 'nagad', 'card']))
    })
  })

  describe('an order and its confirmation', () => {
    let order: { id: number; order_no: string }

    it('numbers a new order, snapshots each line’s product name and price, and follows its status with `order_status`', async () => {
      const made = await newOrder([{ product: tea, quantity: 3 }, { product: cups, quantity: 4, price: '7.50' }], { shipping_price: '5.00', tax_price: '2.00', discount_amount: '1.00' })
      order = made
      expect(made.order_no).toMatch(new RegExp(`^OR${todayIso().replaceAll('-', '')}00\\d+$`))
      const row = ok(await call({ method: 'GET', url: `${orders}/${made.id}` }))
      expect(row).toMatchObject({ status: 'pending', items_total: '105.00', net_amount: '111.00', paid_amount: '0.00', payment_status: 'unpaid', is_confirmed: false })
      expect(row._labels.order_status).toBe('pending')
      expect(row.order_items.map((l: { product_name: string; price: string; total_price: string }) => [l.product_name, l.price, l.total_price])).toEqual([
        ['Garden Tea', '25.00', '75.00'],
        ['Clay Cup', '7.50', '30.00'],
      ])
      // A later rename of the product leaves the line as sold.
      ok(await call({ method: 'PUT', url: `/product/api/v1/product/update/${cups}`, payload: { name: 'Clay Mug' } }))
      expect(ok(await call({ method: 'GET', url: `${orders}/${made.id}` })).order_items[1].product_name).toBe('Clay Cup')
    })

    it('refuses a move the workflow does not allow, in the caller’s language', async () => {
      const refused = await call({ method: 'POST', url: `${orders}/deliver/${order.id}`, headers: { 'accept-language': 'tr' } })
      expect(refused.status, refused.raw).toBe(409)
      expect(refused.body.detail).toMatch(/[ıİşŞğĞüÜöÖçÇ]/)
    })

    it('confirms in one transaction: units out at the moving average, the sale and its cost posted, the bkash part payment received', async () => {
      const confirmed = ok(await call({ method: 'POST', url: `${cart}/confirm/${order.id}`, payload: { pay_amount: '50.00', payment_method: 'bkash', bkash: 'TX9001' } }))
      expect(confirmed).toMatchObject({ is_confirmed: true, status: 'confirmed', paid_amount: '50.00', payment_status: 'partial', is_paid: false })
      expect(confirmed._labels.order_status).toBe('confirmed')
      expect(confirmed.confirmed_at).toBeTruthy()
      expect(confirmed.order_items.map((l: { unit_cost: string }) => Number(l.unit_cost))).toEqual([11, 3])
      expect((await stockOf(tea)).quantity).toBe(27)
      expect((await stockOf(cups)).quantity).toBe(46)
      // The sale: Dr the customer 111; Cr sales 104 (105 − 1), shipping 5, tax 2; cost 3 × 11 + 4 × 3 = 45.
      expect(await postedUnder(confirmed.sales_no)).toEqual([
        [customerLedgerName, 111, 0],
        ['Company Sales', 0, 104],
        ['Shipping Charges', 0, 5],
        ['Output Tax', 0, 2],
        ['Cost of Goods Sold', 45, 0],
        ['Stock In Hand', 0, 45],
      ])
      // The receipt: into the bkash wallet's own ledger, from the customer.
      const payments = ok(await call({ method: 'GET', url: `/order_payment/api/v1/order_payment/all/?order=${order.id}` })).order_payments
      expect(payments).toHaveLength(1)
      expect(payments[0]).toMatchObject({ amount: '50.00', reference: 'TX9001' })
      expect(await postedUnder(payments[0].voucher_no)).toEqual([
        ['Bkash Account', 50, 0],
        [customerLedgerName, 0, 50],
      ])
      // A second confirmation is refused and changes nothing.
      expect((await call({ method: 'POST', url: `${orders}/confirm/${order.id}` })).status).toBe(409)
      expect((await stockOf(tea)).quantity).toBe(27)
    })

    it('settles by later payments, never beyond what is owed, and derives unpaid / partial / paid', async () => {
      const tooMuch = await call({ method: 'POST', url: '/order_payment/api/v1/order_payment/create/', payload: { order: order.id, amount: '61.01', ledger: cash } })
      expect(tooMuch.status, tooMuch.raw).toBe(400)
      expect(tooMuch.body.amount).toBeDefined()
      const paid = ok(await call({ method: 'POST', url: '/order_payment/api/v1/order_payment/create/', payload: { order: order.id, amount: '61.00', ledger: cash } }), 201)
      expect(await postedUnder(paid.voucher_no)).toEqual([
        ['Cash', 61, 0],
        [customerLedgerName, 0, 61],
      ])
      expect(ok(await call({ method: 'GET', url: `${orders}/${order.id}` }))).toMatchObject({ paid_amount: '111.00', payment_status: 'paid', is_paid: true })
      // The payment's flag cannot be set by hand.
      ok(await call({ method: 'PUT', url: `${orders}/update/${order.id}`, payload: { payment_status: 'unpaid', is_paid: false, paid_amount: '0.00' } }))
      expect(ok(await call({ method: 'GET', url: `${orders}/${order.id}` }))).toMatchObject({ paid_amount: '111.00', payment_status: 'paid' })
      ok(await call({ method: 'DELETE', url: `/order_payment/api/v1/order_payment/delete/${paid.id}` }))
      expect(ok(await call({ method: 'GET', url: `${orders}/${order.id}` }))).toMatchObject({ paid_amount: '50.00', payment_status: 'partial', is_paid: false })
    })

    it('cancels in one transaction: the goods back at the cost they left at, the sale reversed, what was paid refunded', async () => {
      const [teaValue, stockLedgerBefore] = [(await stockOf(tea)).stock_value, await balanceOf('Stock In Hand')]
      const salesNo = ok(await call({ method: 'GET', url: `${orders}/${order.id}` })).sales_no
      const cancelled = ok(await call({ method: 'POST', url: `${orders}/cancel/${order.id}` }))
      expect(cancelled).toMatchObject({ status: 'cancelled', is_confirmed: false, paid_amount: '0.00', payment_status: 'unpaid' })
      expect(cancelled._labels.order_status).toBe('cancelled')
      expect((await stockOf(tea)).quantity).toBe(30)
      expect(Number((await stockOf(tea)).stock_value)).toBe(Number(teaValue) + 33)
      expect(await balanceOf('Stock In Hand')).toBe(stockLedgerBefore + 45)
      expect(await postedUnder(salesNo)).toEqual([
        [customerLedgerName, 111, 0],
        ['Company Sales', 0, 104],
        ['Shipping Charges', 0, 5],
        ['Output Tax', 0, 2],
        ['Cost of Goods Sold', 45, 0],
        ['Stock In Hand', 0, 45],
        [customerLedgerName, 0, 111],
        ['Company Sales', 104, 0],
        ['Shipping Charges', 5, 0],
        ['Output Tax', 2, 0],
        ['Cost of Goods Sold', 0, 45],
        ['Stock In Hand', 45, 0],
      ])
      // The refund: a payment voucher from the wallet the money came into.
      const refunds = ok(await call({ method: 'GET', url: `/order_refund/api/v1/order_refund/all/?order=${order.id}` })).order_refunds
      expect(refunds.map((r: { amount: string }) => r.amount)).toEqual(['50.00'])
      expect(await postedUnder(refunds[0].voucher_no)).toEqual([
        [customerLedgerName, 50, 0],
        ['Bkash Account', 0, 50],
      ])
      // The customer owes nothing and is owed nothing.
      expect(await balanceOf(customerLedgerName)).toBe(0)
      // A cancelled order takes no payment, and cannot be cancelled again.
      expect((await call({ method: 'POST', url: '/order_payment/api/v1/order_payment/create/', payload: { order: order.id, amount: '1.00', ledger: cash } })).status).toBe(409)
      expect((await call({ method: 'POST', url: `${orders}/cancel/${order.id}` })).status).toBe(409)
    })
  })

  describe('an order’s history', () => {
    it('tells who made it, moved it, paid and refunded it, newest first, and only what its caller may list', async () => {
      const made = await newOrder([{ product: cups, quantity: 1 }])
      ok(await call({ method: 'POST', url: `${orders}/confirm/${made.id}`, payload: { pay_amount: '8.00', ledger: cash } }))
      ok(await call({ method: 'POST', url: `${orders}/cancel/${made.id}` }))
      const history = ok(await call({ method: 'GET', url: `${cart}/history/${made.id}` })).history as Array<{ entity: string; action: string; actor: string; label: string | null; changes: Record<string, unknown> }>
      expect(history.map((h) => [h.entity, h.action])).toEqual([
        ['order', 'cancel'],
        ['order_refund', 'create'],
        ['order', 'confirm'],
        ['order_payment', 'create'],
        ['order', 'create'],
        // Its lines are part of its history (issue 25), each named by its place.
        ['orderitem', 'create'],
      ])
      expect(history.every((h) => h.actor === 'admin')).toBe(true)
      expect(history[2]!.changes.status).toEqual(['pending', 'confirmed'])
      expect((history[2]!.changes._input as [null, Record<string, unknown>])[1]).toMatchObject({ pay_amount: '8.00' })
      expect(history[3]!.label).toMatch(/^RV\d{11}$/)
      expect((history[5] as { line?: { field: string; position: number } }).line).toMatchObject({ field: 'order_items', position: 1 })
      // Someone who may read orders but not their payments sees the order's own entries.
      const clerk = await callerWith(t.current, ['ORDER_DETAILS'])
      const theirs = ok(await clerk({ method: 'GET', url: `${orders}/history/${made.id}` })).history as Array<{ entity: string }>
      // Its lines are the order's own (read with it); its payments' are not theirs.
      expect([...new Set(theirs.map((h) => h.entity))]).toEqual(['order', 'orderitem'])
      expect((await call({ method: 'GET', url: `${orders}/history/99999999` })).status).toBe(404)
      expect((await (await callerWith(t.current, ['ORDER_LIST']))({ method: 'GET', url: `${orders}/history/${made.id}` })).status).toBe(403)
    })
  })

  describe('the workflow after confirmation', () => {
    it('moves packaging → on the way → delivered (stamping delivered_at), and refuses a cancellation once delivered', async () => {
      const made = await newOrder([{ product: cups, quantity: 1 }])
      ok(await call({ method: 'POST', url: `${orders}/confirm/${made.id}` }))
      for (const step of ['pack', 'ship']) ok(await call({ method: 'POST', url: `${orders}/${step}/${made.id}` }))
      const delivered = ok(await call({ method: 'POST', url: `${orders}/deliver/${made.id}` }))
      expect(delivered).toMatchObject({ status: 'delivered', is_confirmed: true })
      expect(delivered.delivered_at).toBeTruthy()
      expect(delivered._labels.order_status).toBe('delivered')
      const refused = await call({ method: 'POST', url: `${orders}/cancel/${made.id}` })
      expect(refused.status, refused.raw).toBe(409)
      // Once packed, its items no longer change.
      expect((await call({ method: 'PUT', url: `${orders}/update/${made.id}`, payload: { comment: 'late' } })).status).toBe(409)
    })

    it('changes a confirmed order’s items atomically: the old units back, the new ones out, the sale reposted', async () => {
      const made = await newOrder([{ product: tea, quantity: 2 }])
      const confirmed = ok(await call({ method: 'POST', url: `${orders}/confirm/${made.id}` }))
      const before = (await stockOf(tea)).quantity
      const line = confirmed.order_items[0]
      ok(await call({ method: 'PUT', url: `${cart}/update_item/${line.id}`, payload: { quantity: 5 } }))
      expect((await stockOf(tea)).quantity).toBe(before - 3)
      const row = ok(await call({ method: 'GET', url: `${orders}/${made.id}` }))
      expect(row.net_amount).toBe('125.00')
      const standing = (await postedUnder(row.sales_no)).slice(-4)
      expect(standing).toEqual([
        [customerLedgerName, 125, 0],
        ['Company Sales', 0, 125],
        ['Cost of Goods Sold', 55, 0],
        ['Stock In Hand', 0, 55],
      ])
      // More than is on hand: refused, naming the line, and nothing moves.
      const stockBefore = await stockOf(tea)
      const refused = await call({ method: 'PUT', url: `${cart}/update_item/${line.id}`, payload: { quantity: 1000 } })
      expect(refused.status, refused.raw).toBe(400)
      expect(await stockOf(tea)).toEqual(stockBefore)
      expect(ok(await call({ method: 'GET', url: `${orders}/${made.id}` })).order_items[0].quantity).toBe(5)
    })
  })

  describe('never oversold', () => {
    it('30 parallel confirms of one unit against 10 on hand: exactly 10 succeed, the rest get a 409 naming the product, stock ends at 0', async () => {
      // Another customer's orders: the 20 left unconfirmed stay their carts.
      const bulk = ok(await call({ method: 'POST', url: '/customer/api/v1/customer/create/', payload: { username: 'bulkbuyer', email: 'bulk@shop.example', first_name: 'Bulk', last_name: 'Buyer', password: 'bulk-pass-1234', confirm_password: 'bulk-pass-1234' } }), 201).id
      const scarce = ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Rare Honey', unit_price: '40.00' } }), 201).id
      await stockIn(scarce, 10, '20.00')
      const made = []
      for (let i = 0; i < 30; i++) made.push(await newOrder([{ product: scarce, quantity: 1 }], { user: bulk }))
      const answers = await Promise.all(made.map((o) => call({ method: 'POST', url: `${orders}/confirm/${o.id}` })))
      const statuses = answers.map((a) => a.status)
      expect(statuses.filter((s) => s === 200)).toHaveLength(10)
      expect(statuses.filter((s) => s === 409)).toHaveLength(20)
      const refusal = answers.find((a) => a.status === 409)!
      expect(refusal.body.detail).toBe('Not enough stock of Rare Honey: 0 available, 1 ordered.')
      expect((await stockOf(scarce)).quantity).toBe(0)
      const confirmed = await sql<{ n: string }>`select count(*) as n from "order" o join orderitem i on i."order" = o.id where i.product = ${scarce} and o.status = 'confirmed'`.execute(t.current.db)
      expect(Number(confirmed.rows[0]!.n)).toBe(10)
    })
  })

  describe('the storefront’s routes', () => {
    it('grows the customer’s cart a line at a time, answers it in the contract’s shapes, and confirms it from the storefront', async () => {
      const first = ok(await call({ method: 'POST', url: `${cart}/create/`, payload: { product: tea, quantity: 1, price: '25.00', order_date: todayIso(), user: customer } }), 201)
      const id = first.order_details.id
      const again = ok(await call({ method: 'POST', url: `${cart}/create/`, payload: { product: tea, quantity: 2, user: customer } }), 201)
      expect(again.order_details.id).toBe(id)
      ok(await call({ method: 'POST', url: `${cart}/create/`, payload: { product: cups, quantity: 1, user: customer } }), 201)
      const detail = ok(await call({ method: 'GET', url: `${cart}/get_a_customer_order_detail/${id}` }))
      expect(detail.order.order_items.map((l: { product_name: string; quantity: number }) => [l.product_name, l.quantity])).toEqual([
        ['Garden Tea', 3],
        ['Clay Mug', 1],
      ])
      const mug = detail.order.order_items[1].id
      ok(await call({ method: 'DELETE', url: `/customerorder/api/v1/customerorder_delete_item/${id}/${mug}` }))
      ok(await call({ method: 'PUT', url: `${cart}/update_order/${id}`, payload: { comment: 'Ring twice' } }))
      ok(await call({ method: 'POST', url: '/shippingaddress/api/v1/shippingaddress/create/', payload: { user: customer, order: id, name: 'Nadia Islam', phone: '+8801711000111', street_address: '12 Lake Road' } }), 201)
      const invoice = ok(await call({ method: 'GET', url: `${cart}/get_invoice_by_order_id/${id}` }))
      expect(invoice.order).toMatchObject({ id, comment: 'Ring twice', net_amount: '75.00' })
      expect(invoice.shipping).toMatchObject({ name: 'Nadia Islam', street_address: '12 Lake Road', user: { first_name: 'Nadia', last_name: 'Islam' } })
      expect(invoice.billing).toBeNull()
      expect(ok(await call({ method: 'GET', url: `/shippingaddress/api/v1/shippingaddress_using_order_id/${id}` })).shippingaddress).toMatchObject({ name: 'Nadia Islam' })
      // The customer confirms their own order from the storefront.
      const login = ok(await call({ method: 'POST', url: '/user/api/v1/user/login/', payload: { email: 'nadia@shop.example', password: 'nadia-pass-123' }, asAnonymous: true }))
      const asNadia = { authorization: `Bearer ${login.access}` }
      const confirmed = ok(await call({ method: 'POST', url: `${cart}/confirm_from_frontend/${id}`, payload: { pay_amount: '0' }, headers: asNadia }))
      expect(confirmed.is_confirmed).toBe(true)
      // …but not someone else’s, nor staff’s routes.
      const other = await newOrder([{ product: cups, quantity: 1 }], { user: customer })
      const stranger = await t.current.createUser({ email: 'stranger@shop.example', password: 'stranger-pass-1' })
      const strangerLogin = ok(await call({ method: 'POST', url: '/user/api/v1/user/login/', payload: { email: 'stranger@shop.example', password: 'stranger-pass-1' }, asAnonymous: true }))
      expect(stranger).toBeGreaterThan(0)
      expect((await call({ method: 'POST', url: `${cart}/confirm_from_frontend/${other.id}`, headers: { authorization: `Bearer ${strangerLogin.access}` } })).status).toBe(403)
      expect((await call({ method: 'POST', url: `${orders}/confirm/${other.id}`, headers: asNadia })).status).toBe(403)
    })

    it('finds orders with the contract’s search, and refuses bad ids with 404s', async () => {
      const found = ok(await call({ method: 'GET', url: `${cart}/search/?order_no=OR` }))
      expect(found.orders.length).toBeGreaterThan(0)
      expect((await call({ method: 'GET', url: `${cart}/get_a_customer_order/abc` })).status).toBe(404)
      expect((await call({ method: 'PUT', url: `${cart}/update_item/99999999`, payload: { quantity: 1 } })).status).toBe(404)
    })
  })
})
