import { beforeAll, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { callerWith, describeEachDatabase, type Reply } from './helpers/app'

/**
 * The purchasing reports (issue 24; api-contract §6): the final purchases one by one — what
 * each comes to, what is paid and still owed, its lines, where its invoice opens — and
 * vendors' offers summed per stage or per vendor; filtered by period, vendor and status, with
 * totals to the cent, at the engine's report routes and at the contract's.
 */
type Row = Record<string, unknown>

describeEachDatabase('the purchasing reports', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  const finals = '/purchase_final/api/v1/purchase_final'
  const requests = '/purchase_request/api/v1/purchase_request'
  const report = async (name: string, query = '') => ok(await call({ method: 'GET', url: `/api/reports/${name}/?${query}` }))
  const create = async (url: string, payload: Record<string, unknown>) => ok(await call({ method: 'POST', url, payload }), 201) as { id: number; invoice_no: string }
  let rina: number
  let sumon: number
  let p1: { id: number; invoice_no: string }
  let p2: { id: number; invoice_no: string }
  let p3: { id: number; invoice_no: string }

  beforeAll(async () => {
    const vendor = async (username: string) =>
      (await create('/vendor/api/v1/vendor/create/', { username, email: `${username}@example.com`, first_name: 'Test', last_name: 'Vendor', password: 'vendor-pass-123', confirm_password: 'vendor-pass-123' })).id
    rina = await vendor('rina')
    sumon = await vendor('sumon')
    const product = async (name: string) => (await create('/product/api/v1/product/create/', { name })).id
    const [tea, cups, pot] = [await product('Garden Tea'), await product('Clay Cup'), await product('Clay Pot')]
    const cash = ok(await call({ method: 'GET', url: '/ledger_account/api/v1/ledger_account/all/?size=100' })).ledger_accounts.find((l: { name: string }) => l.name === 'Cash').id

    p1 = await create(`${finals}/create_directly_from_admin_panel/`, { vendor: rina, purchase_date: '2026-04-05', items: [{ product: tea, quantity: 8, unit_price: '12.50' }, { product: cups, quantity: 20, unit_price: '3.00' }] })
    ok(await call({ method: 'POST', url: `${finals}/paybill_and_confirm/${p1.id}`, payload: { paid_amount: '40', ledger: cash } }))
    p2 = await create(`${finals}/create_directly_from_admin_panel/`, { vendor: sumon, purchase_date: '2026-04-12', items: [{ product: pot, quantity: 4, unit_price: '7.25' }] })
    ok(await call({ method: 'POST', url: `${finals}/paybill_and_confirm/${p2.id}`, payload: { paid_amount: '0' } }))
    ok(await call({ method: 'POST', url: `${finals}/cancel/${p2.id}` }))
    p3 = await create(`${finals}/create_directly_from_admin_panel/`, { vendor: sumon, purchase_date: '2026-05-10', items: [{ product: cups, quantity: 2, unit_price: '1.00' }, { product: tea, quantity: 1, unit_price: '0.50' }] })

    const offer = async (payload: Record<string, unknown>, steps: readonly string[]) => {
      const made = await create(`${requests}/create/`, payload)
      for (const step of steps) ok(await call({ method: 'POST', url: `${requests}/${step}/${made.id}` }))
    }
    const line = (name: string, quantity: number, unit_price: string) => ({ name, quantity, unit_price })
    await offer({ vendor: rina, request_date: '2026-04-03', purchase_request_items: [line('Garden Tea', 8, '12.50'), line('Clay Cups', 20, '3.00')] }, ['process', 'submit', 'verify'])
    await offer({ vendor: rina, request_date: '2026-04-15', purchase_request_items: [line('Jars', 5, '2.00')] }, [])
    await offer({ vendor: sumon, request_date: '2026-05-06', purchase_request_items: [line('Clay Pots', 4, '7.25')] }, ['cancel'])
    await offer({ first_name: 'Walk-in', request_date: '2026-05-07', purchase_request_items: [line('Seeds', 1, '0.99')] }, ['process'])
  })

  describe('the purchase report', () => {
    const figures = (r: Row) => [r.invoice_no, r.purchase_date, r.vendor, r.status, r.payment_status, r.lines, r.quantity, r.total_price, r.paid_amount, r.due_amount]

    it('gives each final purchase with what it comes to, what is paid and still owed, its lines and units, to the cent — a cancelled one only when asked for', async () => {
      const all = await report('purchase_final_report')
      expect(all.rows.map(figures)).toEqual([
        [p1.invoice_no, '2026-04-05', 'rina', 'confirmed', 'partial', 2, 28, '160.00', '40.00', '120.00'],
        [p3.invoice_no, '2026-05-10', 'sumon', 'draft', 'unpaid', 2, 3, '2.50', '0.00', '2.50'],
      ])
      expect(all.rows[0].bill_no).toMatch(/^PU/)
      expect(all.totals).toEqual({ lines: '4', quantity: '31', total_price: '162.50', paid_amount: '40.00', due_amount: '122.50' })
      const cancelled = await report('purchase_final_report', 'status=cancelled')
      expect(cancelled.rows.map(figures)).toEqual([[p2.invoice_no, '2026-04-12', 'sumon', 'cancelled', 'unpaid', 1, 4, '29.00', '0.00', '0.00']])
    })

    it('filters by period, vendor, status and payment status', async () => {
      const numbers = async (query: string) => (await report('purchase_final_report', query)).rows.map((r: Row) => r.invoice_no)
      expect(await numbers('date_after=2026-04-01&date_before=2026-04-30')).toEqual([p1.invoice_no])
      expect(await numbers(`vendor=${sumon}`)).toEqual([p3.invoice_no])
      expect(await numbers(`vendor=${sumon}&status=cancelled`)).toEqual([p2.invoice_no])
      expect(await numbers('status=draft')).toEqual([p3.invoice_no])
      expect(await numbers('payment_status=partial')).toEqual([p1.invoice_no])
      expect((await report('purchase_final_report', 'date_after=2026-05-01')).totals).toEqual({ lines: '2', quantity: '3', total_price: '2.50', paid_amount: '0.00', due_amount: '2.50' })
    })

    it('says where each purchase’s invoice opens: the spec’s address, which leads to the purchase’s form and its print', async () => {
      const [row] = (await report('purchase_final_report', `vendor=${rina}`)).rows
      expect(row.invoice_path).toBe(`/apps/report-management/purchage-final-reports/purchase-invoice/${p1.id}`)
      expect(registry.purchase_final.ui.formAt).toContain('/apps/report-management/purchage-final-reports/purchase-invoice')
      expect(registry.purchase_final.print).toBeDefined()
      const invoice = ok(await call({ method: 'GET', url: `${finals}/get_invoice_by_purchase_final_id/${row.id}` }))
      expect(invoice).toMatchObject({ invoice_no: p1.invoice_no, total_price: '160.00', vendor: { id: rina, username: 'rina' } })
    })

    it('answers at the contract’s route, in its envelope', async () => {
      const listed = ok(await call({ method: 'GET', url: '/summary_report/api/v1/purchase_final_summary_report/filter/?page=2&size=1' }))
      expect(listed).toMatchObject({ page: 2, size: 1, total_pages: 2, total_elements: 2 })
      expect(listed.purchase_finals.map(figures)).toEqual([[p3.invoice_no, '2026-05-10', 'sumon', 'draft', 'unpaid', 2, 3, '2.50', '0.00', '2.50']])
    })
  })

  describe('the purchase request summary', () => {
    const figures = (r: Row) => [r.status ?? r.vendor, r.requests, r.lines, r.quantity, r.amount]

    it('sums the offers per stage, every stage shown, to the cent', async () => {
      const summary = await report('purchase_request_summary_report')
      expect(summary.rows.map(figures)).toEqual([
        ['cancelled', 1, 1, 4, '29.00'],
        ['pending', 1, 1, 5, '10.00'],
        ['processing', 1, 1, 1, '0.99'],
        ['submitted', 0, 0, 0, '0.00'],
        ['verified', 1, 2, 28, '160.00'],
      ])
      expect(summary.totals).toEqual({ requests: '4', lines: '5', quantity: '38', amount: '199.99' })
    })

    it('sums them per vendor, those of no vendor together', async () => {
      const summary = await report('purchase_request_summary_report', 'group_by=vendor')
      expect(summary.rows.map((r: Row) => [r.vendor, r.requests, r.lines, r.quantity, r.amount])).toEqual([
        ['rina', 2, 3, 33, '170.00'],
        ['sumon', 1, 1, 4, '29.00'],
        [null, 1, 1, 1, '0.99'],
      ])
      expect(summary.totals).toEqual({ requests: '4', lines: '5', quantity: '38', amount: '199.99' })
    })

    it('filters by period, vendor and status', async () => {
      const april = await report('purchase_request_summary_report', 'date_after=2026-04-01&date_before=2026-04-30')
      expect(april.rows.filter((r: Row) => Number(r.requests) > 0).map(figures)).toEqual([
        ['pending', 1, 1, 5, '10.00'],
        ['verified', 1, 2, 28, '160.00'],
      ])
      expect((await report('purchase_request_summary_report', `vendor=${sumon}`)).totals).toEqual({ requests: '1', lines: '1', quantity: '4', amount: '29.00' })
      expect((await report('purchase_request_summary_report', 'status=verified')).rows.map(figures)).toEqual([['verified', 1, 2, 28, '160.00']])
      expect((await report('purchase_request_summary_report', 'status=pending&group_by=vendor')).rows.map(figures)).toEqual([['rina', 1, 1, 5, '10.00']])
    })

    it('answers at the contract’s route, in its envelope', async () => {
      const listed = ok(await call({ method: 'GET', url: `/summary_report/api/v1/purchase_request_summary_report/filter/?group_by=vendor&vendor=${rina}` }))
      expect(listed).toMatchObject({ page: 1, total_elements: 1 })
      expect(listed.purchase_request_summary.map(figures)).toEqual([['rina', 2, 3, 33, '170.00']])
    })
  })

  it('refuses parameters that are not ones, naming each, and a period that ends before it starts', async () => {
    const refused = async (name: string, query: string) => {
      const r = await call({ method: 'GET', url: `/api/reports/${name}/?${query}` })
      expect(r.status, r.raw).toBe(400)
      return Object.keys(r.body).sort()
    }
    expect(await refused('purchase_final_report', 'status=lost&payment_status=half&vendor=x')).toEqual(['payment_status', 'status', 'vendor'])
    expect(await refused('purchase_final_report', 'date_after=2026-05-01&date_before=2026-04-01')).toEqual(['date_before'])
    expect(await refused('purchase_request_summary_report', 'group_by=brand&status=draft&date_after=2026-13-01')).toEqual(['date_after', 'group_by', 'status'])
  })

  it('is for the holders of each report’s permission only', async () => {
    const clerk = await callerWith(t.current, ['PURCHASE_FINAL_REPORT_VIEW'])
    expect((await clerk({ method: 'GET', url: '/api/reports/purchase_final_report/' })).status).toBe(200)
    expect((await clerk({ method: 'GET', url: '/api/reports/purchase_request_summary_report/' })).status).toBe(403)
    expect((await clerk({ method: 'GET', url: '/summary_report/api/v1/purchase_request_summary_report/filter/' })).status).toBe(403)
    const other = await callerWith(t.current, [])
    expect((await other({ method: 'GET', url: '/summary_report/api/v1/purchase_final_summary_report/filter/' })).status).toBe(403)
  })
})
