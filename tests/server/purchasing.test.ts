import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { todayIso } from '../../schema/kit/dates'
import { OFFER_LIMIT } from '../../server/domain/purchasing/vendor-offers'
import { describeEachDatabase, type Reply } from './helpers/app'
import { pngPart } from './helpers/images'
import { multipart, type FilePart } from './helpers/multipart'

/**
 * Purchasing (issue 21; api-contract §4.10, §5.2; domain-anchors §6 36–42): a vendor's offer
 * from the storefront (pictures, registration), its review, a final purchase from it or
 * entered directly, pay bill & confirm — goods in at cost, the payable bill, the payment —
 * later payments, and a cancellation that undoes all of it or nothing.
 */
describeEachDatabase('purchasing', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const requests = '/purchase_request/api/v1/purchase_request'
  const finals = '/purchase_final/api/v1/purchase_final'
  let tea: number
  let cups: number
  let cash: number
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  const count = async (table: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.id(table)}`.execute(t.current.db)).rows[0]!.n)
  const stockOf = async (product: number) => (await call({ method: 'GET', url: `/inventory/api/v1/inventory/${product}` })).body as { quantity: number; stock_value: string }
  const postedUnder = async (number: string | null) =>
    (
      await sql<{ name: string; debit_amount: string; credit_amount: string }>`
        select l.name, a.debit_amount::text, a.credit_amount::text from account_log a join ledger_account l on l.id = a.ledger
        where a.reference_no = ${number} order by a.id`.execute(t.current.db)
    ).rows.map((r) => [r.name, Number(r.debit_amount), Number(r.credit_amount)])
  let phones = 0
  const offerOf = (email: string, files: FilePart[] = [pngPart('items[0][images][0]')], extra: Record<string, string> = {}) =>
    multipart(
      {
        first_name: 'Rina',
        last_name: 'Akter',
        email,
        contact_no: `+88017110${String(++phones).padStart(5, '0')}`,
        vendor_comment: 'Fresh from the garden',
        'items[0][item_name]': 'Garden Tea',
        'items[0][item_price]': '12.50',
        'items[0][item_quantity]': '8',
        'items[0][item_description]': 'Green leaves',
        'items[1][item_name]': 'Clay Cups',
        'items[1][item_price]': '3',
        'items[1][item_quantity]': '20',
        ...extra,
      },
      files,
    )
  const sendOffer = (body: ReturnType<typeof multipart>, headers: Record<string, string> = {}) =>
    call({ method: 'POST', url: `${requests}/create_vendor_purchase_request/`, payload: body.payload, headers: { ...body.headers, ...headers }, asAnonymous: true })

  beforeAll(async () => {
    tea = ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Garden Tea' } }), 201).id
    cups = ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name: 'Clay Cup' } }), 201).id
    cash = Number((await sql<{ id: number }>`select id from ledger_account where name = 'Cash' and is_deletable = false`.execute(t.current.db)).rows[0]!.id)
  })

  let offer: { id: number; purchase_request_items: Array<{ id: number; name: string; purchase_request_item_images: Array<{ image: string }> }> }
  let vendorId: number

  describe('a vendor’s offer from the storefront', () => {
    it('registers a new vendor with their ledger, and keeps the offer, its lines and their pictures in one go', async () => {
      const answer = ok(await sendOffer(offerOf('rina@garden.example')), 201)
      offer = answer.data
      expect(offer.purchase_request_items.map((l) => l.name)).toEqual(['Garden Tea', 'Clay Cups'])
      expect(offer.purchase_request_items[0]!.purchase_request_item_images).toEqual([{ id: expect.any(Number), image: expect.stringMatching(/^\/media\/purchase_req_item_image\/[0-9a-f-]{36}\.png$/) }])
      expect(offer.purchase_request_items[1]!.purchase_request_item_images).toEqual([])
      const stored = ok(await call({ method: 'GET', url: `${requests}/${offer.id}` }))
      // Its day is the day it came, though the storefront sends none.
      expect(stored).toMatchObject({ status: 'pending', total_price: '160.00', first_name: 'Rina', request_date: todayIso(), invoice_no: `PR${todayIso().replaceAll('-', '')}001` })
      vendorId = stored.vendor
      const status = (await sql<{ name: string }>`select s.name from purchase_request r join purchase_status s on s.id = r.purchase_status where r.id = ${offer.id}`.execute(t.current.db)).rows[0]
      expect(status?.name).toBe('pending')
      const ledger = await sql`select 1 from ledger_account where ledger_type = 'vendor_ledger' and reference_id = ${String(vendorId)}`.execute(t.current.db)
      expect(ledger.rows).toHaveLength(1)
    })

    it('answers {user_exists: true} for an e-mail already registered, and writes nothing — not even the pictures', async () => {
      const [before, files] = [await count('purchase_request'), (await readdir(join(t.current.mediaDir, 'purchase_req_item_image'))).length]
      const answer = ok(await sendOffer(offerOf('RINA@garden.example')))
      expect(answer).toEqual({ user_exists: true })
      expect(await count('purchase_request')).toBe(before)
      expect((await readdir(join(t.current.mediaDir, 'purchase_req_item_image'))).length).toBe(files)
    })

    it('refuses a picture that is not one by its bytes, and a line without a name, in the contract’s names, writing nothing', async () => {
      const [requestsBefore, usersBefore] = [await count('purchase_request'), await count('user')]
      const fake = { name: 'items[0][images][0]', filename: 'tea.png', type: 'image/png', data: Buffer.from('<svg onload=alert(1)>') }
      const refused = await sendOffer(offerOf('new@garden.example', [fake]))
      expect(refused.status, refused.raw).toBe(400)
      expect(Object.keys(refused.body)).toEqual(['items.0.images.0'])
      const unnamed = await sendOffer(offerOf('new@garden.example', [], { 'items[1][item_name]': '' }))
      expect(unnamed.status, unnamed.raw).toBe(400)
      expect(unnamed.body['items.1.item_name']).toBeDefined()
      expect([await count('purchase_request'), await count('user')]).toEqual([requestsBefore, usersBefore])
    })

    it('takes a signed-in vendor’s offer as theirs, and lists their own offers and nobody else’s', async () => {
      // The vendor the first offer registered signs in once they have set a password (here: set for the test).
      await sql`update "user" set password = (select password from "user" where email = 'admin@example.com') where id = ${vendorId}`.execute(t.current.db)
      const login = ok(await call({ method: 'POST', url: '/user/api/v1/user/login/', payload: { email: 'rina@garden.example', password: 'admin123' }, asAnonymous: true }))
      const own = ok(await call({ method: 'GET', url: `${requests}/get_all_by_vendor/`, headers: { authorization: `Bearer ${login.access}` } }))
      expect(own.purchase_requests.map((r: { id: number }) => r.id)).toEqual([offer.id])
      // Signed in, the vendor offers as themselves, whatever e-mail the form carries.
      const body = offerOf('someone-else@example.com', [])
      const theirOffer = ok(await call({ method: 'POST', url: `${requests}/create_vendor_purchase_request/`, payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${login.access}` } }), 201)
      expect(ok(await call({ method: 'GET', url: `${requests}/${theirOffer.data.id}` })).vendor).toBe(vendorId)
      ok(await call({ method: 'DELETE', url: `${requests}/delete/${theirOffer.data.id}` }))
      const other = await t.current.createUser({ email: 'nobody@example.com', password: 'nobody-pass-123' })
      const theirs = ok(await call({ method: 'POST', url: '/user/api/v1/user/login/', payload: { email: 'nobody@example.com', password: 'nobody-pass-123' }, asAnonymous: true }))
      expect(ok(await call({ method: 'GET', url: `${requests}/get_all_by_vendor/`, headers: { authorization: `Bearer ${theirs.access}` } })).purchase_requests).toEqual([])
      expect((await call({ method: 'GET', url: `${requests}/get_all_by_vendor/`, asAnonymous: true })).status).toBe(401)
      expect(other).toBeGreaterThan(0)
    })

    it('takes staff’s offer for the vendor they name, and refuses a signed-in user who is neither vendor nor staff', async () => {
      const staffOffer = offerOf('ignored@example.com', [], { vendor: String(vendorId) })
      const asStaff = ok(await call({ method: 'POST', url: `${requests}/create_vendor_purchase_request/`, payload: staffOffer.payload, headers: staffOffer.headers }), 201)
      expect(ok(await call({ method: 'GET', url: `${requests}/${asStaff.data.id}` })).vendor).toBe(vendorId)
      const plain = await t.current.createUser({ email: 'plain@example.com', password: 'plain-pass-123' })
      const login = ok(await call({ method: 'POST', url: '/user/api/v1/user/login/', payload: { email: 'plain@example.com', password: 'plain-pass-123' }, asAnonymous: true }))
      const body = offerOf('x@example.com', [])
      const refused = await call({ method: 'POST', url: `${requests}/create_vendor_purchase_request/`, payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${login.access}` } })
      expect(refused.status, refused.raw).toBe(403)
      expect(plain).toBeGreaterThan(0)
    })
  })

  describe('the review and the contract’s request routes', () => {
    it('moves pending → processing → submitted → verified, and the contract’s purchase_status follows', async () => {
      ok(await call({ method: 'POST', url: `${requests}/process/${offer.id}` }))
      // While processing it may still change: a line taken off by the contract's route.
      const taken = ok(await call({ method: 'DELETE', url: `/purchase_req_item/api/v1/purchase_req_item/delete/${offer.purchase_request_items[1]!.id}` }))
      expect(taken.detail).toEqual(expect.any(String))
      ok(await call({ method: 'POST', url: `${requests}/submit/${offer.id}` }))
      const verified = ok(await call({ method: 'POST', url: `${requests}/verify/${offer.id}` }))
      expect(verified).toMatchObject({ status: 'verified', total_price: '100.00' })
      const names = await sql<{ name: string }>`select s.name from purchase_request r join purchase_status s on s.id = r.purchase_status where r.id = ${offer.id}`.execute(t.current.db)
      expect(names.rows[0]?.name).toBe('verified')
      const locked = await call({ method: 'PUT', url: `${requests}/update/${offer.id}`, payload: { vendor_comment: 'changed' } })
      expect(locked.status).toBe(409)
    })

    it('answers the request with its lines and their pictures, and as its invoice with the vendor', async () => {
      const full = ok(await call({ method: 'GET', url: `${requests}/purchase_request_with_items_images/${offer.id}` }))
      expect(full.purchase_request_items).toHaveLength(1)
      expect(full.purchase_request_items[0].purchase_request_item_images).toHaveLength(1)
      const invoice = ok(await call({ method: 'GET', url: `${requests}/get_invoice_by_purchase_request_id/${offer.id}` }))
      expect(invoice.vendor).toMatchObject({ id: vendorId, email: 'rina@garden.example' })
      expect((await call({ method: 'GET', url: `${requests}/purchase_request_with_items_images/999999` })).status).toBe(404)
    })
  })

  let purchase: { id: number; invoice_no: string; total_price: string }

  describe('a final purchase', () => {
    it('is made from a verified offer once: its lines matched to products by name or as the caller says', async () => {
      const unmatched = await call({ method: 'POST', url: `${finals}/create_from_purchase_request/`, payload: { purchase_request: offer.id } })
      // "Garden Tea" is a product's name: matched. Nothing else is left unmatched here.
      expect(unmatched.status, unmatched.raw).toBe(201)
      purchase = unmatched.body
      expect(purchase).toMatchObject({ status: 'draft', vendor: vendorId, purchase_request: offer.id, total_price: '100.00', payment_status: 'unpaid', invoice_no: expect.stringMatching(/^PF\d{8}00\d+$/) })
      expect(unmatched.body.items).toMatchObject([{ product: tea, quantity: 8, unit_price: '12.50' }])
      // The contract's purchase_status of a draft purchase: pending.
      expect(unmatched.body._labels?.purchase_status).toBe('pending')
      const again = await call({ method: 'POST', url: `${finals}/create_from_purchase_request/`, payload: { purchase_request: offer.id } })
      expect(again.status).toBe(409)
      expect(again.body.detail).toContain(purchase.invoice_no)
    })

    it('refuses an offer that is not verified, and a line whose product it cannot tell, naming it', async () => {
      const other = ok(await sendOffer(offerOf('sumon@garden.example', [], { 'items[0][item_name]': 'Mystery Herb' })), 201).data
      const early = await call({ method: 'POST', url: `${finals}/create_from_purchase_request/`, payload: { purchase_request: other.id } })
      expect(early.status).toBe(409)
      for (const step of ['process', 'submit', 'verify']) ok(await call({ method: 'POST', url: `${requests}/${step}/${other.id}` }))
      const unknown = await call({ method: 'POST', url: `${finals}/create_from_purchase_request/`, payload: { purchase_request: other.id } })
      expect(unknown.status, unknown.raw).toBe(400)
      expect(unknown.body['items.0.product']).toEqual(['No one product is named “Mystery Herb”: choose the product for this item.'])
      // The offer's own "Make Final Purchase" says the same, and makes nothing.
      const asAction = await call({ method: 'POST', url: `${requests}/make_purchase/${other.id}` })
      expect(asAction.status, asAction.raw).toBe(400)
      expect(asAction.body['items.0.product']).toEqual(unknown.body['items.0.product'])
      const lines = other.purchase_request_items as Array<{ id: number }>
      const made = await call({ method: 'POST', url: `${finals}/create_from_purchase_request/`, payload: { purchase_request: other.id, items: [{ purchase_req_item: lines[0]!.id, product: cups, unit_price: '10' }, { purchase_req_item: lines[1]!.id, product: cups }] } })
      // Two lines of one product are one line too many: the purchase's own rule.
      expect(made.status, made.raw).toBe(400)
    })

    it('is made by the offer’s “Make Final Purchase” once it is verified, and only then', async () => {
      const cupOffer = ok(await sendOffer(offerOf('cups@garden.example', [], { 'items[0][item_name]': 'clay cup', 'items[1][item_name]': 'Garden Tea' })), 201).data
      expect((await call({ method: 'POST', url: `${requests}/make_purchase/${cupOffer.id}` })).status).toBe(409)
      for (const step of ['process', 'submit', 'verify']) ok(await call({ method: 'POST', url: `${requests}/${step}/${cupOffer.id}` }))
      ok(await call({ method: 'POST', url: `${requests}/make_purchase/${cupOffer.id}` }))
      const made = ok(await call({ method: 'GET', url: `${finals}/all/?purchase_request=${cupOffer.id}` })).purchase_finals
      expect(made).toHaveLength(1)
      expect(made[0]).toMatchObject({ status: 'draft', total_price: '160.00' })
      expect((await call({ method: 'POST', url: `${requests}/make_purchase/${cupOffer.id}` })).status).toBe(409)
      ok(await call({ method: 'DELETE', url: `${finals}/delete/${made[0].id}` }))
    })

    it('is entered directly, its lines changed and removed by the contract’s item routes while a draft', async () => {
      const direct = ok(await call({ method: 'POST', url: `${finals}/create_directly_from_admin_panel/`, payload: { vendor: vendorId, items: [{ product: cups, quantity: 5, unit_price: '4' }, { product: tea, quantity: 1, unit_price: '1' }] } }), 201)
      const [cupLine, teaLine] = direct.items as Array<{ id: number }>
      const changed = ok(await call({ method: 'PUT', url: `${finals}/update_item/${cupLine!.id}`, payload: { quantity: 6 } }))
      expect(changed.total_price).toBe('25.00')
      const removed = ok(await call({ method: 'DELETE', url: `${finals}/delete_item/${teaLine!.id}` }))
      expect(removed.items).toHaveLength(1)
      const last = await call({ method: 'DELETE', url: `${finals}/delete_item/${cupLine!.id}` })
      expect(last.status).toBe(400)
      const read = ok(await call({ method: 'GET', url: `${finals}/get_a_purchase_final_with_items/${direct.id}` }))
      expect(read).toMatchObject({ total_price: '24.00', items: [{ product: cups, quantity: 6 }] })
      const invoice = ok(await call({ method: 'GET', url: `${finals}/get_invoice_by_purchase_final_id/${direct.id}` }))
      expect(invoice.vendor).toMatchObject({ id: vendorId })
      ok(await call({ method: 'DELETE', url: `${finals}/delete/${direct.id}` }))
    })
  })

  describe('pay bill and confirm', () => {
    it('brings the goods in at cost, posts the bill to the vendor and pays part of it, in one transaction', async () => {
      const confirmed = ok(await call({ method: 'POST', url: `${finals}/paybill_and_confirm/${purchase.id}`, payload: { paid_amount: '40', ledger: cash } }))
      expect(confirmed).toMatchObject({ status: 'confirmed', paid_amount: '40.00', payment_status: 'partial', bill_no: expect.stringMatching(/^PU/) })
      expect(await stockOf(tea)).toMatchObject({ quantity: 8, stock_value: '100.00' })
      expect(await postedUnder(confirmed.bill_no)).toEqual([
        ['Stock In Hand', 100, 0],
        ['Rina', 0, 100],
      ])
      const payment = (await sql<{ voucher_no: string }>`select voucher_no from purchase_payment where purchase_final = ${purchase.id}`.execute(t.current.db)).rows
      expect(payment).toHaveLength(1)
      expect(await postedUnder(payment[0]!.voucher_no)).toEqual([
        ['Rina', 40, 0],
        ['Cash', 0, 40],
      ])
    })

    it('refuses a second confirmation and changes nothing', async () => {
      const [rows, logs] = [await count('stock_ledger'), await count('account_log')]
      const again = await call({ method: 'POST', url: `${finals}/paybill_and_confirm/${purchase.id}`, payload: { paid_amount: '60', ledger: cash } })
      expect(again.status).toBe(409)
      expect([await count('stock_ledger'), await count('account_log')]).toEqual([rows, logs])
    })

    it('is settled by later payments, never beyond what is owed, from a cash or bank ledger only', async () => {
      const payments = '/purchase_payment/api/v1/purchase_payment'
      const tooMuch = await call({ method: 'POST', url: `${payments}/create/`, payload: { purchase_final: purchase.id, amount: '60.01', ledger: cash } })
      expect(tooMuch.status, tooMuch.raw).toBe(400)
      expect(tooMuch.body.amount).toEqual(['More than is owed: at most 60.00.'])
      const sales = Number((await sql<{ id: number }>`select id from ledger_account where name = 'Company Sales'`.execute(t.current.db)).rows[0]!.id)
      const notCash = await call({ method: 'POST', url: `${payments}/create/`, payload: { purchase_final: purchase.id, amount: '10', ledger: sales } })
      expect(notCash.status, notCash.raw).toBe(400)
      expect(notCash.body.ledger).toEqual(['Choose a cash or bank ledger.'])
      ok(await call({ method: 'POST', url: `${payments}/create/`, payload: { purchase_final: purchase.id, amount: '60', ledger: cash } }), 201)
      expect(ok(await call({ method: 'GET', url: `${finals}/${purchase.id}` }))).toMatchObject({ paid_amount: '100.00', payment_status: 'paid' })
    })

    it('refuses to cancel while its goods have gone out — stock, stock ledger and general ledger unchanged — and then undoes all of it', async () => {
      const sold = ok(await call({ method: 'POST', url: '/stock_adjustment/api/v1/stock_adjustment/create/', payload: { reason: 'Sold at the counter', items: [{ product: tea, quantity: -1 }] } }), 201)
      ok(await call({ method: 'POST', url: `/stock_adjustment/api/v1/stock_adjustment/confirm/${sold.id}` }))
      const [rows, logs, payments] = [await count('stock_ledger'), await count('account_log'), await count('purchase_payment')]
      const refused = await call({ method: 'POST', url: `${finals}/cancel/${purchase.id}` })
      expect(refused.status, refused.raw).toBe(409)
      expect(refused.body.detail).toBe('It cannot be cancelled: 1 of the Garden Tea it brought in have already gone out.')
      expect([await count('stock_ledger'), await count('account_log'), await count('purchase_payment')]).toEqual([rows, logs, payments])
      expect(ok(await call({ method: 'GET', url: `${finals}/${purchase.id}` }))).toMatchObject({ status: 'confirmed', payment_status: 'paid' })

      ok(await call({ method: 'POST', url: `/stock_adjustment/api/v1/stock_adjustment/cancel/${sold.id}` }))
      const cancelled = ok(await call({ method: 'POST', url: `${finals}/cancel/${purchase.id}` }))
      expect(cancelled).toMatchObject({ status: 'cancelled', paid_amount: '0.00', payment_status: 'unpaid' })
      expect(await stockOf(tea)).toMatchObject({ quantity: 0, stock_value: '0.00' })
      // Every ledger the purchase touched is back where it was.
      const net = await sql<{ name: string; net: string }>`
        select l.name, sum(a.debit_amount - a.credit_amount)::text as net from account_log a join ledger_account l on l.id = a.ledger
        where l.name in ('Stock In Hand', 'Rina', 'Cash') group by l.name order by l.name`.execute(t.current.db)
      expect(Object.fromEntries(net.rows.map((r) => [r.name, Number(r.net)]))).toEqual({ Cash: 0, 'Stock In Hand': 0, Rina: 0 })
    })
  })

  it('numbers purchases made at once without a gap or a repeat', async () => {
    const made = await Promise.all(
      Array.from({ length: 20 }, () => call({ method: 'POST', url: `${finals}/create_directly_from_admin_panel/`, payload: { vendor: vendorId, purchase_date: '2026-03-01', items: [{ product: cups, quantity: 1, unit_price: '1' }] } })),
    )
    expect(made.map((r) => r.status)).toEqual(Array(20).fill(201))
    const numbers = made.map((r) => String(r.body.invoice_no)).sort()
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `PF2026030100${i + 1}`).sort())
  })

  it('limits offers per address', async () => {
    let last: Reply | undefined
    for (let i = 0; i <= OFFER_LIMIT.max; i++) {
      last = await call({ method: 'POST', url: `${requests}/create_vendor_purchase_request/`, payload: { items: [] }, asAnonymous: true })
      if (last.status === 429) break
    }
    expect(last!.status).toBe(429)
    expect(last!.body.detail).toMatch(/^Too many offers from this address\. Try again in \d+ seconds\.$/)
  })
})
