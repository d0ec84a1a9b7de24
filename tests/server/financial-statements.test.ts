import { beforeAll, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { callerWith, describeEachDatabase, type Reply } from './helpers/app'
import { ledgerUnder, seededLedger } from './helpers/ledgers'
import { sampleInput } from './helpers/samples'

/**
 * The profit and loss account, the balance sheet and the trial balance over one set of books
 * (issue 24; domain-anchors §6 rules 27–29): a business with a fiscal year from July, whose
 * owner brought in capital, bought, sold and paid expenses on both sides of the year's start.
 * Every figure to the cent; the P&L's profit is the balance sheet's provisional profit and the
 * trial balance's income and expense closing nets; assets equal liabilities, equity and profit.
 *
 * The books (fiscal year 2025–26 from 2025-07-01):
 *   2024–25: capital 10,000.00 in cash; purchases 2,500.00, sales 4,000.00, rent 300.00 in cash
 *            — a profit of 1,200.00, the retained earnings.
 *   2025–26: goods bought on credit 1,200.50; a sale on credit 2,950.75 with shipping 50.00;
 *            rent 450.25; 1,000.00 received of the sale, 700.00 paid of the purchase — a profit
 *            of 1,350.00 up to 2025-12-31; rent 99.99 on 2026-01-15, after it.
 */
describeEachDatabase('financial statements', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  const report = async (name: string, query = '') => ok(await call({ method: 'GET', url: `/api/reports/${name}/?${query}` }))
  const contract = '/balance_sheet/api/v1/balance_sheet'
  const statement = (rows: Array<Record<string, unknown>>, amounts: readonly [string, string]) => rows.map((r) => [r.section, r.group_name, r.ledger, r[amounts[0]], r[amounts[1]]])
  const pl = (rows: Array<Record<string, unknown>>) => statement(rows, ['income', 'expense'])
  const bs = (rows: Array<Record<string, unknown>>) => statement(rows, ['assets', 'liabilities_and_equity'])
  const tb = (body: { rows: Array<Record<string, string>> }, ledger: string) => {
    const row = body.rows.find((r) => r.ledger === ledger)
    return row && [row.opening_debit, row.opening_credit, row.debit_amount, row.credit_amount, row.closing_debit, row.closing_credit]
  }

  beforeAll(async () => {
    const db = t.current.db
    const l = {
      cash: await seededLedger(db, 'Cash'),
      purchase: await seededLedger(db, 'Company Purchase'),
      sales: await seededLedger(db, 'Company Sales'),
      shipping: await seededLedger(db, 'Shipping Charges'),
      capital: await ledgerUnder(db, 'Owner Capital', 'Capital Account'),
      rent: await ledgerUnder(db, 'Shop Rent', 'Indirect Expenses'),
      vendor: await ledgerUnder(db, 'Acme Supplies', 'Sundry Creditors'),
      customer: await ledgerUnder(db, 'Bob Stores', 'Customers'),
    }
    const voucher = async (kind: string, date: string, items: Array<Record<string, unknown>>) =>
      ok(await call({ method: 'POST', url: `/${kind}/api/v1/${kind}/create/`, payload: { [`${kind === 'journal' ? 'journal' : kind.split('_')[0]}_date`]: date, details: 'statements', items } }), 201)
    const paid = (date: string, debit: number, amount: string) => voucher('payment_voucher', date, [{ ledger: debit, debit_amount: amount }, { ledger: l.cash, credit_amount: amount }])
    const received = (date: string, credit: number, amount: string) => voucher('receipt_voucher', date, [{ ledger: l.cash, debit_amount: amount }, { ledger: credit, credit_amount: amount }])
    await received('2025-03-01', l.capital, '10000.00')
    await paid('2025-04-10', l.purchase, '2500.00')
    await received('2025-05-20', l.sales, '4000.00')
    await paid('2025-06-30', l.rent, '300.00')
    await voucher('journal', '2025-07-01', [{ ledger: l.purchase, debit_amount: '1200.50' }, { ledger: l.vendor, credit_amount: '1200.50' }])
    await voucher('journal', '2025-08-15', [
      { ledger: l.customer, debit_amount: '3000.75' },
      { ledger: l.sales, credit_amount: '2950.75' },
      { ledger: l.shipping, credit_amount: '50.00' },
    ])
    await paid('2025-09-01', l.rent, '450.25')
    await received('2025-09-10', l.customer, '1000.00')
    await paid('2025-10-05', l.vendor, '700.00')
    await paid('2026-01-15', l.rent, '99.99')
  })

  describe('with no fiscal year set', () => {
    it('counts the year from January: all of 2025 is the year’s profit', async () => {
      const sheet = await report('balance_sheet', 'date_before=2025-12-31')
      expect(sheet).toMatchObject({ retained_earnings: '0.00', profit: '2550.00', difference: '0.00', period: { date_before: '2025-12-31', fiscal_year_start: '2025-01-01' } })
      expect((await report('profit_loss', 'date_before=2025-12-31')).profit).toBe('2550.00')
    })
  })

  describe('with a fiscal year from July', () => {
    beforeAll(async () => {
      const settings = { ...sampleInput(registry.general_setting, {}), fiscal_year_start_month: 7 }
      ok(await call({ method: 'POST', url: '/general_setting/api/v1/general_setting/create/', payload: settings }), 201)
    })

    it('gives the profit and loss of the year so far, income and expense per ledger under their groups, to the cent', async () => {
      const body = await report('profit_loss', 'date_after=2025-07-01&date_before=2025-12-31')
      expect(pl(body.rows)).toEqual([
        ['incomes', 'Direct Incomes', 'Shipping Charges', '50.00', null],
        ['incomes', 'Sales Accounts', 'Company Sales', '2950.75', null],
        ['expenses', 'Indirect Expenses', 'Shop Rent', null, '450.25'],
        ['expenses', 'Purchase Accounts', 'Company Purchase', null, '1200.50'],
        ['profit_for_the_period', null, null, null, '1350.00'],
      ])
      // The statement balances: the profit evens the expense side.
      expect(body.totals).toEqual({ income: '3000.75', expense: '3000.75' })
      expect(body).toMatchObject({ total_income: '3000.75', total_expense: '1650.75', profit: '1350.00', total_elements: 5 })
      expect(body.period).toEqual({ date_after: '2025-07-01', date_before: '2025-12-31', fiscal_year_start: '2025-07-01' })
      // Without a start, the period starts with the fiscal year of its end.
      expect(pl((await report('profit_loss', 'date_before=2025-12-31')).rows)).toEqual(pl(body.rows))
    })

    it('shows a loss on the income side, and the earlier year on its own', async () => {
      const june = await report('profit_loss', 'date_after=2025-06-01&date_before=2025-06-30')
      expect(pl(june.rows)).toEqual([
        ['expenses', 'Indirect Expenses', 'Shop Rent', null, '300.00'],
        ['loss_for_the_period', null, null, '300.00', null],
      ])
      expect(june).toMatchObject({ profit: '-300.00', totals: { income: '300.00', expense: '300.00' } })
      const lastYear = await report('profit_loss', 'date_before=2025-06-30')
      expect(lastYear).toMatchObject({ total_income: '4000.00', total_expense: '2800.00', profit: '1200.00', period: { date_after: '2024-07-01' } })
      expect((await report('profit_loss', 'date_after=2030-01-01&date_before=2030-01-31')).rows).toEqual([])
    })

    it('balances the sheet: assets equal liabilities, equity, retained earnings and the year’s provisional profit', async () => {
      const body = await report('balance_sheet', 'date_before=2025-12-31')
      expect(bs(body.rows)).toEqual([
        ['assets', 'Current Assets › Cash-in-Hand', 'Cash', '11049.75', null],
        ['assets', 'Current Assets › Sundry Debtors › Customers', 'Bob Stores', '2000.75', null],
        ['liabilities', 'Current Liabilities › Sundry Creditors', 'Acme Supplies', null, '500.50'],
        ['equity', 'Capital Account', 'Owner Capital', null, '10000.00'],
        ['retained_earnings', null, 'Profit & Loss A/C', null, '1200.00'],
        ['provisional_profit_loss', null, null, null, '1350.00'],
      ])
      expect(body.totals).toEqual({ assets: '13050.50', liabilities_and_equity: '13050.50' })
      expect(body).toMatchObject({
        total_assets: '13050.50',
        total_liabilities_and_equity: '13050.50',
        difference: '0.00',
        retained_earnings: '1200.00',
        profit: '1350.00',
        period: { date_before: '2025-12-31', fiscal_year_start: '2025-07-01' },
      })
      // The last day of the earlier year: its profit is still the year's own, nothing retained yet.
      const june = await report('balance_sheet', 'date_before=2025-06-30')
      expect(bs(june.rows).slice(-2)).toEqual([
        ['equity', 'Capital Account', 'Owner Capital', null, '10000.00'],
        ['provisional_profit_loss', null, null, null, '1200.00'],
      ])
      expect(june).toMatchObject({ total_assets: '11200.00', difference: '0.00', retained_earnings: '0.00' })
      // After the next posting, the sheet still balances.
      expect(await report('balance_sheet', 'date_before=2026-01-31')).toMatchObject({ total_assets: '12950.51', profit: '1250.01', difference: '0.00' })
    })

    it('opens the income and expense ledgers at nothing at the year’s start, the earlier years in Profit & Loss A/C', async () => {
      const year = await report('trial_balance', 'date_after=2025-07-01&date_before=2025-12-31')
      expect(tb(year, 'Cash')).toEqual(['11200.00', '0.00', '1000.00', '1150.25', '11049.75', '0.00'])
      expect(tb(year, 'Owner Capital')).toEqual(['0.00', '10000.00', '0.00', '0.00', '0.00', '10000.00'])
      expect(tb(year, 'Profit & Loss A/C')).toEqual(['0.00', '1200.00', '0.00', '0.00', '0.00', '1200.00'])
      expect(tb(year, 'Company Purchase')).toEqual(['0.00', '0.00', '1200.50', '0.00', '1200.50', '0.00'])
      expect(tb(year, 'Company Sales')).toEqual(['0.00', '0.00', '0.00', '2950.75', '0.00', '2950.75'])
      expect(tb(year, 'Shop Rent')).toEqual(['0.00', '0.00', '450.25', '0.00', '450.25', '0.00'])
      expect(year.totals).toEqual({
        opening_debit: '11200.00', opening_credit: '11200.00',
        debit_amount: '6351.50', credit_amount: '6351.50',
        closing_debit: '14701.25', closing_credit: '14701.25',
      })
      // The income and expense closing nets are the P&L's profit and the balance sheet's.
      const net = ['Company Sales', 'Shipping Charges'].map((n) => Number(tb(year, n)![5])).reduce((a, b) => a + b) - ['Company Purchase', 'Shop Rent'].map((n) => Number(tb(year, n)![4])).reduce((a, b) => a + b)
      expect(net.toFixed(2)).toBe('1350.00')
      // Within the year, an income or expense ledger's opening is the year's alone.
      const autumn = await report('trial_balance', 'date_after=2025-09-01&date_before=2025-12-31')
      expect(tb(autumn, 'Company Purchase')).toEqual(['1200.50', '0.00', '0.00', '0.00', '1200.50', '0.00'])
      expect(tb(autumn, 'Company Sales')).toEqual(['0.00', '2950.75', '0.00', '0.00', '0.00', '2950.75'])
      expect(tb(autumn, 'Shop Rent')).toEqual(['0.00', '0.00', '450.25', '0.00', '450.25', '0.00'])
      expect(autumn.totals.opening_debit).toBe(autumn.totals.opening_credit)
      expect(autumn.totals.closing_debit).toBe(autumn.totals.closing_credit)
      // A period with no start: every posting is in it, nothing brought forward.
      const all = await report('trial_balance', 'date_before=2025-12-31')
      expect(tb(all, 'Company Purchase')).toEqual(['0.00', '0.00', '3700.50', '0.00', '3700.50', '0.00'])
      expect(tb(all, 'Profit & Loss A/C')).toBeUndefined()
    })

    it('answers at the contract’s balance_sheet routes, with the check', async () => {
      const sheet = ok(await call({ method: 'GET', url: `${contract}/balance_sheet/?date_before=2025-12-31` }))
      expect(sheet).toMatchObject({ total_assets: '13050.50', total_liabilities_and_equity: '13050.50', difference: '0.00', total_elements: 6, total_pages: 1 })
      expect(bs(sheet.balance_sheet).at(-1)).toEqual(['provisional_profit_loss', null, null, null, '1350.00'])
      const profit = ok(await call({ method: 'GET', url: `${contract}/profit_loss/?date_after=2025-07-01&date_before=2025-12-31` }))
      expect(profit).toMatchObject({ profit: '1350.00', total_income: '3000.75', total_expense: '1650.75' })
      expect(profit.profit_loss).toHaveLength(5)
      const trial = ok(await call({ method: 'GET', url: `${contract}/trial_balance/?date_after=2025-07-01&date_before=2025-12-31` }))
      expect(trial.trial_balance.find((r: { ledger: string }) => r.ledger === 'Profit & Loss A/C')).toMatchObject({ opening_credit: '1200.00' })
    })

    it('downloads the statement with its profit row', async () => {
      const csv = await call({ method: 'GET', url: '/api/reports/profit_loss/csv?date_after=2025-07-01&date_before=2025-12-31' })
      expect(csv.status).toBe(200)
      expect(csv.raw.trim().split('\r\n').slice(1)).toEqual([
        '1,"incomes","Direct Incomes","Shipping Charges",50.00,',
        '2,"incomes","Sales Accounts","Company Sales",2950.75,',
        '3,"expenses","Indirect Expenses","Shop Rent",,450.25',
        '4,"expenses","Purchase Accounts","Company Purchase",,1200.50',
        '5,"profit_for_the_period",,,,1350.00',
      ])
    })
  })

  it('refuses a period backwards, a date that is none and a fiscal month past December, naming the field', async () => {
    const backwards = await call({ method: 'GET', url: '/api/reports/profit_loss/?date_after=2025-12-31&date_before=2025-07-01' })
    expect(backwards.status).toBe(400)
    expect(Object.keys(backwards.body)).toEqual(['date_before'])
    const bad = await call({ method: 'GET', url: '/api/reports/balance_sheet/?date_before=2025-02-30' })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body)).toEqual(['date_before'])
    const month = await call({ method: 'POST', url: '/general_setting/api/v1/general_setting/create/', payload: { ...sampleInput(registry.general_setting, {}), fiscal_year_start_month: 13 } })
    expect(month.status).toBe(400)
    expect(Object.keys(month.body)).toEqual(['fiscal_year_start_month'])
  })

  it('shows each statement only to whoever may view it', async () => {
    const nobody = await callerWith(t.current, [])
    for (const url of ['/api/reports/profit_loss/', '/api/reports/balance_sheet/', `${contract}/profit_loss/`, `${contract}/balance_sheet/`, `${contract}/trial_balance/`]) {
      expect((await nobody({ method: 'GET', url })).status, url).toBe(403)
    }
    const reader = await callerWith(t.current, ['PROFIT_LOSS_VIEW'])
    expect((await reader({ method: 'GET', url: `${contract}/profit_loss/?date_before=2025-12-31` })).status).toBe(200)
    expect((await reader({ method: 'GET', url: `${contract}/balance_sheet/` })).status).toBe(403)
  })
})
