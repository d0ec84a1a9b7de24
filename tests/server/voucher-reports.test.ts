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

  const report = async (name: string, query = '') => ok(await call({ method: 'GET', url: `/api/reports/${name}/?${query}` }))
  const lines = (rows: Array<Record<string, unknown>>) => rows.map((r) => [r.invoice_no, r.ledger, r.sub_ledger, r.related_ledgers, r.amount])

  beforeAll(async () => {
    const found = await sql<{ id: number; name: string }>`select id, name from ledger_account where name in ('Cash', 'Company Purchase', 'Shipping Charges', 'Company Sales') and is_deletable = false`.execute(t.current.db)
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

  describe('a cancelled voucher', () => {
    it('leaves the reports with its lines', async () => {
      const id = (await sql<{ id: number }>`select id from payment_voucher where invoice_no = ${pv2} order by id limit 1`.execute(t.current.db)).rows[0]!.id
      ok(await call({ method: 'DELETE', url: `/payment_voucher/api/v1/payment_voucher/delete/${id}` }))
      expect((await report('payment_report')).totals).toEqual({ amount: '750.50' })
      expect(ok(await call({ method: 'GET', url: `${contract}/summary_for_payment_voucher/` })).payment_voucher_summary).toEqual({ rent_and_power: '750.50' })
    })
  })
})
