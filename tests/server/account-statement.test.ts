import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { callerWith, describeEachDatabase, type Reply } from './helpers/app'

/**
 * The account statement and its summary (issue 24; api-contract §6): the cash book (every
 * ledger under Cash-in-Hand), the bank book (every ledger under Bank Accounts) or one ledger,
 * with the balance brought forward and the running balance; the period's cash and bank totals;
 * at the engine's report routes and at the contract's `account_log_report/` routes.
 */
describeEachDatabase('account statement', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  const contract = '/account_log_report/api/v1/account_log_report'
  const period = 'date_after=2026-03-05&date_before=2026-03-31'
  let ledger: Record<string, number>
  let cityBank: number
  let rent: number
  const no: Record<string, string> = {}

  beforeAll(async () => {
    const found = await sql<{ id: number; name: string }>`select id, name from ledger_account where name in ('Cash', 'Bank', 'Company Purchase', 'Company Sales') and is_deletable = false`.execute(t.current.db)
    ledger = Object.fromEntries(found.rows.map((r) => [r.name, Number(r.id)]))
    const banks = (await sql<{ id: number }>`select id from "group" where name = 'Bank Accounts'`.execute(t.current.db)).rows[0]!.id
    cityBank = ok(await call({ method: 'POST', url: '/ledger_account/api/v1/ledger_account/create/', payload: { name: 'City Bank', head_group: banks } }), 201).id
    rent = ok(await call({ method: 'POST', url: '/sub_ledger_account/api/v1/sub_ledger_account/create/', payload: { name: 'Rent' } }), 201).id
    const voucher = async (kind: string, listKey: string, header: Record<string, unknown>, items: Array<Record<string, unknown>>) =>
      ok(await call({ method: 'POST', url: `/${kind}/api/v1/${kind}/create/`, payload: { ...header, items } }), 201)[listKey][0].invoice_no as string
    no.opening = await voucher('receipt_voucher', 'receipt_vouchers', { receipt_date: '2026-03-01' }, [
      { ledger: ledger.Cash, debit_amount: '1000.00' },
      { ledger: ledger['Company Sales'], credit_amount: '1000.00' },
    ])
    no.banked = await voucher('contra', 'contras', { contra_date: '2026-03-10' }, [
      { ledger: ledger.Bank, debit_amount: '400.00' },
      { ledger: ledger.Cash, credit_amount: '400.00' },
    ])
    no.paid = await voucher('payment_voucher', 'payment_vouchers', { payment_date: '2026-03-12', sub_ledger: rent }, [
      { ledger: ledger['Company Purchase'], debit_amount: '150.50' },
      { ledger: cityBank, credit_amount: '150.50' },
    ])
    no.received = await voucher('receipt_voucher', 'receipt_vouchers', { receipt_date: '2026-03-15' }, [
      { ledger: cityBank, debit_amount: '80.25' },
      { ledger: ledger['Company Sales'], credit_amount: '80.25' },
    ])
  })

  const report = async (name: string, query: string) => ok(await call({ method: 'GET', url: `/api/reports/${name}/?${query}` }))
  const lines = (rows: Array<Record<string, unknown>>) => rows.map((r) => [r.log_type, r.reference_no, r.ledger, r.debit_amount, r.credit_amount, r.balance])

  it('states every bank ledger as one account: brought forward, each line with its ledger and the running balance, carried', async () => {
    const bank = await report('account_statement', `account_type=Bank&${period}`)
    expect(lines(bank.rows)).toEqual([
      ['opening_balance', null, null, null, null, '0.00'],
      ['contra', no.banked, 'Bank', '400.00', '0.00', '400.00'],
      ['payment_voucher', no.paid, 'City Bank', '0.00', '150.50', '249.50'],
      ['receipt_voucher', no.received, 'City Bank', '80.25', '0.00', '329.75'],
      ['closing_balance', null, null, null, null, '329.75'],
    ])
    expect(bank.totals).toEqual({ debit_amount: '480.25', credit_amount: '150.50' })
    // A line's reference opens its voucher (by a row of it); the opening and closing open nothing.
    const contraRow = (await sql<{ id: number }>`select min(id) as id from contra where invoice_no = ${no.banked}`.execute(t.current.db)).rows[0]!.id
    expect(bank.hidden.map((h: { voucher_id: number | null }) => h.voucher_id)).toEqual([null, Number(contraRow), expect.any(Number), expect.any(Number), null])
    expect(bank).toMatchObject({ opening_balance: '0.00', closing_balance: '329.75', total_elements: 5 })
    const cash = await report('account_statement', `account_type=Cash&${period}`)
    expect(lines(cash.rows).map((l) => l.at(-1))).toEqual(['1000.00', '600.00', '600.00'])
  })

  it('narrows the book to a ledger named, or states that ledger alone', async () => {
    expect((await report('account_statement', `account_type=Bank&ledger=${cityBank}&${period}`)).totals).toEqual({ debit_amount: '80.25', credit_amount: '150.50' })
    // The Cash book holds no City Bank: no lines.
    expect((await report('account_statement', `account_type=Cash&ledger=${cityBank}`)).total_elements).toBe(2)
    expect((await report('account_statement', `ledger=${ledger.Cash}`)).closing_balance).toBe('600.00')
  })

  it('asks for an account type or a ledger, and a period in order', async () => {
    expect(ok(await call({ method: 'GET', url: `/api/reports/account_statement/?${period}` }), 400)).toEqual({ account_type: ['Choose Cash, Bank or a ledger.'] })
    expect((await call({ method: 'GET', url: '/api/reports/account_statement/?account_type=Gold' })).status).toBe(400)
    expect((await call({ method: 'GET', url: '/api/reports/account_statement/?account_type=Cash&date_after=2026-04-01&date_before=2026-03-01' })).status).toBe(400)
  })

  it('totals the cash and the bank of a period', async () => {
    const summary = await report('account_statement_summary', 'start_date=2026-03-05&end_date=2026-03-31')
    expect(summary.rows).toEqual([
      { account_type: 'Cash', opening_balance: '1000.00', debit_amount: '0.00', credit_amount: '400.00', closing_balance: '600.00' },
      { account_type: 'Bank', opening_balance: '0.00', debit_amount: '480.25', credit_amount: '150.50', closing_balance: '329.75' },
    ])
    expect(summary.totals).toEqual({ opening_balance: '1000.00', debit_amount: '480.25', credit_amount: '550.50', closing_balance: '929.75' })
    const body = ok(await call({ method: 'GET', url: `${contract}/get_total_cash_dr_cr_bank_dr_cr/?start_date=2026-03-01&end_date=2026-03-31` }))
    expect(body).toEqual({ cash_dr_total: '1000.00', cash_cr_total: '400.00', bank_dr_total: '480.25', bank_cr_total: '150.50' })
    // Both dates are required, as the contract's.
    expect(Object.keys(ok(await call({ method: 'GET', url: `${contract}/get_total_cash_dr_cr_bank_dr_cr/?start_date=2026-03-01` }), 400))).toEqual(['end_date'])
  })

  describe('at the contract’s routes', () => {
    const logs = (body: { account_logs: Array<Record<string, unknown>> }) => body.account_logs.map((l) => [(l.ledger as { name: string }).name, l.reference_no, l.balance])

    it('answers the cash and bank books in the general ledger’s envelope', async () => {
      const bank = ok(await call({ method: 'GET', url: `${contract}/by_ledger_type/?account_type=Bank&${period}&page=1&size=2` }))
      expect(bank).toMatchObject({ previous_balance: '0.00', page: 1, size: 2, total_pages: 2, total_elements: 3 })
      expect(logs(bank)).toEqual([
        ['Bank', no.banked, '400.00'],
        ['City Bank', no.paid, '249.50'],
      ])
      expect(logs(ok(await call({ method: 'GET', url: `${contract}/for_bank_ledger_or_bank_account_group/?${period}&page=2&size=2` })))).toEqual([['City Bank', no.received, '329.75']])
      const cash = ok(await call({ method: 'GET', url: `${contract}/for_cash_ledger/?${period}` }))
      expect(cash.previous_balance).toBe('1000.00')
      expect(logs(cash)).toEqual([['Cash', no.banked, '600.00']])
      expect(logs(ok(await call({ method: 'GET', url: `${contract}/for_person_or_company_ledger/?ledger=${cityBank}` })))).toEqual([
        ['City Bank', no.paid, '-150.50'],
        ['City Bank', no.received, '-70.25'],
      ])
    })

    it('states a sub-ledger across every ledger, and asks for it', async () => {
      const rentLines = ok(await call({ method: 'GET', url: `${contract}/for_sub_ledger/?sub_ledger=${rent}` }))
      expect(logs(rentLines)).toEqual([
        ['Company Purchase', no.paid, '150.50'],
        ['City Bank', no.paid, '0.00'],
      ])
      expect(ok(await call({ method: 'GET', url: `${contract}/for_sub_ledger/` }), 400)).toEqual({ sub_ledger: ['Sub-ledger is required'] })
      expect((await call({ method: 'GET', url: `${contract}/by_ledger_type/` })).status).toBe(400)
    })

    it('is refused to a user without the report', async () => {
      const clerk = await callerWith(t.current, [])
      expect((await clerk({ method: 'GET', url: `${contract}/by_ledger_type/?account_type=Cash` })).status).toBe(403)
      expect((await clerk({ method: 'GET', url: `${contract}/get_total_cash_dr_cr_bank_dr_cr/?start_date=2026-03-01&end_date=2026-03-31` })).status).toBe(403)
    })
  })
})
