import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { callerWith, describeEachDatabase, type Reply } from './helpers/app'

/**
 * The payment and receipt reports and their summaries (issue 24; api-contract §6): a
 * payment's debit lines and a receipt's credit lines, each with the ledgers of the other
 * side, filtered by ledger, sub-ledger, branch, invoice number and period; totals per
 * sub-ledger; at the engine's report routes and at the contract's. Every figure to the cent.
 */
describeEachDatabase('payment and receipt reports', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  const contract = '/account_report/api/v1/account_report'
  let ledger: Record<string, number>
  let rent: number
  let wages: number
  let branch: number
  let pv1: string
  let pv2: string
  let rv1: string
  let sa1: string
  let pu1: string
  let co1: string

  const report = async (name: string, query = '') => ok(await call({ method: 'GET', url: `/api/reports/${name}/?${query}` }))
  const lines = (rows: Array<Record<string, unknown>>) => rows.map((r) => [r.invoice_no, r.ledger, r.sub_ledger, r.related_ledgers, r.amount])

  beforeAll(async () => {
    const found = await sql<{ id: number; name: string }>`select id, name from ledger_account where name in ('Cash', 'Bank', 'Company Purchase', 'Shipping Charges', 'Company Sales') and is_deletable = false`.execute(t.current.db)
    ledger = Object.fromEntries(found.rows.map((r) => [r.name, Number(r.id)]))
    rent = ok(await call({ method: 'POST', url: '/sub_ledger_account/api/v1/sub_ledger_account/create/', payload: { name: 'Rent and power' } }), 201).id
    wages = ok(await call({ method: 'POST', url: '/sub_ledger_account/api/v1/sub_ledger_account/create/', payload: { name: 'Wages' } }), 201).id
    branch = ok(await call({ method: 'POST', url: '/branch/api/v1/branch/create/', payload: { name: `Report branch ${Math.random()}` } }), 201).id
    const voucher = async (kind: string, header: Record<string, unknown>, items: Array<Record<string, unknown>>) =>
      ok(await call({ method: 'POST', url: `/${kind}/api/v1/${kind}/create/`, payload: { ...header, details: `${kind} for the report`, items } }), 201)
    pv1 = (await voucher('payment_voucher', { payment_date: '2026-04-15', sub_ledger: rent, branch }, [
      { ledger: ledger['Company Purchase'], debit_amount: '700.00' },
      { ledger: ledger['Shipping Charges'], debit_amount: '50.50' },
      { ledger: ledger.Cash, credit_amount: '750.50' },
    ])).payment_vouchers[0].invoice_no
    pv2 = (await voucher('payment_voucher', { payment_date: '2026-05-02', sub_ledger: wages }, [
      { ledger: ledger['Company Purchase'], debit_amount: '100.00' },
      { ledger: ledger.Cash, credit_amount: '100.00' },
    ])).payment_vouchers[0].invoice_no
    rv1 = (await voucher('receipt_voucher', { receipt_date: '2026-04-20', sub_ledger: wages, branch }, [
      { ledger: ledger.Cash, debit_amount: '1200.00' },
      { ledger: ledger['Company Sales'], credit_amount: '1200.00' },
    ])).receipt_vouchers[0].invoice_no
    // A sale billed to the shipping ledger (any party will do), a purchase from it, cash banked.
    sa1 = (await voucher('sales', { sales_date: '2026-04-21', sub_ledger: rent }, [
      { ledger: ledger['Shipping Charges'], debit_amount: '330.25' },
      { ledger: ledger['Company Sales'], credit_amount: '330.25' },
    ])).sales[0].invoice_no
    pu1 = (await voucher('purchase', { purchase_date: '2026-04-22', sub_ledger: wages }, [
      { ledger: ledger['Company Purchase'], debit_amount: '99.99' },
      { ledger: ledger['Shipping Charges'], credit_amount: '99.99' },
    ])).purchases[0].invoice_no
    co1 = (await voucher('contra', { contra_date: '2026-04-23' }, [
      { ledger: ledger.Bank, debit_amount: '400.00' },
      { ledger: ledger.Cash, credit_amount: '400.00' },
    ])).contras[0].invoice_no
  })

  it('lists each payment’s debit lines with the ledgers it was paid from, totalled to the cent', async () => {
    const all = await report('payment_report')
    expect(lines(all.rows)).toEqual([
      [pv1, 'Company Purchase', 'rent_and_power', 'Cash', '700.00'],
      [pv1, 'Shipping Charges', 'rent_and_power', 'Cash', '50.50'],
      [pv2, 'Company Purchase', 'wages', 'Cash', '100.00'],
    ])
    expect(all.totals).toEqual({ amount: '850.50' })
    expect(all.rows[0]).toMatchObject({ voucher_date: '2026-04-15', details: 'payment_voucher for the report' })
    expect(all.rows[0].branch).toMatch(/^Report branch/)
  })

  it('filters by ledger, sub-ledger, branch, invoice number and period', async () => {
    expect(lines((await report('payment_report', `sub_ledger=${wages}`)).rows)).toEqual([[pv2, 'Company Purchase', 'wages', 'Cash', '100.00']])
    expect((await report('payment_report', `ledger=${ledger['Shipping Charges']}`)).totals).toEqual({ amount: '50.50' })
    expect((await report('payment_report', `branch=${branch}`)).totals).toEqual({ amount: '750.50' })
    expect((await report('payment_report', `invoice_no=${pv2.slice(-6)}`)).rows.map((r: { invoice_no: string }) => r.invoice_no)).toEqual([pv2])
    expect((await report('payment_report', 'date_after=2026-05-01&date_before=2026-05-31')).totals).toEqual({ amount: '100.00' })
    expect((await call({ method: 'GET', url: '/api/reports/payment_report/?date_after=2026-06-01&date_before=2026-05-01' })).status).toBe(400)
  })

  it('totals the payments and receipts per sub-ledger', async () => {
    expect((await report('payment_summary_report')).rows).toEqual([
      { sub_ledger: 'rent_and_power', vouchers: 1, amount: '750.50' },
      { sub_ledger: 'wages', vouchers: 1, amount: '100.00' },
    ])
    expect((await report('receipt_summary_report')).rows).toEqual([{ sub_ledger: 'wages', vouchers: 1, amount: '1200.00' }])
    expect(lines((await report('receipt_report')).rows)).toEqual([[rv1, 'Company Sales', 'wages', 'Cash', '1200.00']])
  })

  it('answers at the contract’s routes, in its envelopes', async () => {
    const listed = ok(await call({ method: 'GET', url: `${contract}/report_for_payment_voucher/?page=1&size=2` }))
    expect(listed).toMatchObject({ page: 1, size: 2, total_pages: 2, total_elements: 3 })
    expect(listed.payment_vouchers.map((r: { amount: string }) => r.amount)).toEqual(['700.00', '50.50'])
    expect(ok(await call({ method: 'GET', url: `${contract}/summary_for_payment_voucher/` })).payment_voucher_summary).toEqual({ rent_and_power: '750.50', wages: '100.00' })
    expect(ok(await call({ method: 'GET', url: `${contract}/report_for_receipt_voucher/` })).receipt_vouchers).toHaveLength(1)
    expect(ok(await call({ method: 'GET', url: `${contract}/summary_for_receipt_voucher/?sub_ledger=${rent}` })).receipt_voucher_summary).toEqual({})
    const clerk = await callerWith(t.current, [])
    expect((await clerk({ method: 'GET', url: `${contract}/report_for_payment_voucher/` })).status).toBe(403)
  })

  it('reports a sale’s billed lines, a purchase’s supplier lines and a contra’s receiving lines, with their summaries', async () => {
    expect(lines((await report('sales_report')).rows)).toEqual([[sa1, 'Shipping Charges', 'rent_and_power', 'Company Sales', '330.25']])
    expect((await report('sales_summary_report')).rows).toEqual([{ sub_ledger: 'rent_and_power', vouchers: 1, amount: '330.25' }])
    expect(lines((await report('purchase_voucher_report')).rows)).toEqual([[pu1, 'Shipping Charges', 'wages', 'Company Purchase', '99.99']])
    expect((await report('purchase_voucher_summary_report', `sub_ledger=${rent}`)).rows).toEqual([])
    const contras = await report('contra_report', 'date_after=2026-04-23&date_before=2026-04-23')
    expect(lines(contras.rows)).toEqual([[co1, 'Bank', null, 'Cash', '400.00']])
    expect(contras.totals).toEqual({ amount: '400.00' })
    // A contra has no sub-ledger to filter by: the parameter is not one of its report's.
    expect((await report('contra_report', `ledger=${ledger.Cash}`)).rows).toEqual([])
  })

  it('answers the sales, purchase and contra reports at the contract’s routes', async () => {
    expect(ok(await call({ method: 'GET', url: `${contract}/report_for_sales/` })).sales.map((r: { invoice_no: string }) => r.invoice_no)).toEqual([sa1])
    expect(ok(await call({ method: 'GET', url: `${contract}/summary_for_sales/` })).sales_summary).toEqual({ rent_and_power: '330.25' })
    expect(ok(await call({ method: 'GET', url: `${contract}/report_for_purchase/` })).purchases.map((r: { amount: string }) => r.amount)).toEqual(['99.99'])
    expect(ok(await call({ method: 'GET', url: `${contract}/summary_for_purchase/` })).purchase_summary).toEqual({ wages: '99.99' })
    expect(ok(await call({ method: 'GET', url: `${contract}/report_for_contra/` })).contras).toHaveLength(1)
    expect((await call({ method: 'GET', url: `${contract}/report_for_contra/?date_after=nope` })).status).toBe(400)
  })

  it('carries what a figure opens: a line its voucher, a sub-ledger’s total its lines; and charts the summary', async () => {
    const all = await report('payment_report')
    const firstOf = (await sql<{ id: number }>`select min(id) as id from payment_voucher where invoice_no = ${pv1} and debit_amount = 700`.execute(t.current.db)).rows[0]!.id
    expect(all.hidden[0]).toEqual({ voucher_id: Number(firstOf) })
    const summary = await report('payment_summary_report')
    expect(summary.hidden).toEqual([{ sub_ledger_id: rent }, { sub_ledger_id: wages }])
    expect(ok(await call({ method: 'GET', url: '/api/reports/payment_summary_report/chart' })).points).toEqual([
      { label: 'rent_and_power', values: { amount: '750.50' }, is_other: false },
      { label: 'wages', values: { amount: '100.00' }, is_other: false },
    ])
  })

  describe('a cancelled voucher', () => {
    it('leaves the reports with its lines', async () => {
      const id = (await sql<{ id: number }>`select id from payment_voucher where invoice_no = ${pv2} order by id limit 1`.execute(t.current.db)).rows[0]!.id
      ok(await call({ method: 'DELETE', url: `/payment_voucher/api/v1/payment_voucher/delete/${id}` }))
      expect((await report('payment_report')).totals).toEqual({ amount: '750.50' })
      expect(ok(await call({ method: 'GET', url: `${contract}/summary_for_payment_voucher/` })).payment_voucher_summary).toEqual({ rent_and_power: '750.50' })
    })
  })
})
