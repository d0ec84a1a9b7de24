import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { money } from '../../schema/kit'
import { describeEachDatabase, type Reply } from './helpers/app'

/**
 * Every report's figures tied to the books (issue 24, "every report total cross-checked
 * against the trial balance"): one scenario — capital paid in, goods counted into stock,
 * orders sold (one cancelled), rent paid — and each report's totals are asserted against the
 * trial balance's rows of the ledgers they come from: the order report's revenue and cost
 * against Company Sales and Cost of Goods Sold, the stock report's value against Stock In
 * Hand (perpetual inventory), the cash book against Cash, the payment and receipt reports
 * against the ledgers paid and received, the profit and loss against every income and
 * expense ledger, and the balance sheet balancing with that profit.
 */
type Row = Record<string, string | null>

describeEachDatabase('reports tied to the trial balance', (t) => {
  const call = (o: Parameters<typeof t.current.call>[0]) => t.current.call(o)
  const ok = (r: Reply, status = 200) => {
    expect(r.status, r.raw).toBe(status)
    return r.body
  }
  const report = async (name: string, query = '') => ok(await call({ method: 'GET', url: `/api/reports/${name}/?${query}` }))
  const same = (a: string | null | undefined, b: string | null | undefined) => expect(money.compare(a ?? '0', b ?? '0'), `${a} = ${b}`).toBe(0)
  let ledger: Record<string, number>
  let trial: Map<string, Row>
  /** A ledger's trial-balance figures: its period movement and its closing balance, debit minus credit. */
  const tb = (name: string) => {
    const row = trial.get(name)
    if (!row) throw new Error(`${name} is not in the trial balance: ${[...trial.keys()].join(', ')}`)
    return {
      debit: row.debit_amount ?? '0',
      credit: row.credit_amount ?? '0',
      net: money.subtract(row.debit_amount ?? '0', row.credit_amount ?? '0'),
      closing: money.subtract(row.closing_debit ?? '0', row.closing_credit ?? '0'),
    }
  }

  beforeAll(async () => {
    const found = await sql<{ id: number; name: string }>`select id, name from ledger_account where name in ('Cash', 'Company Sales') and is_deletable = false`.execute(t.current.db)
    ledger = Object.fromEntries(found.rows.map((r) => [r.name, Number(r.id)]))
    const groupId = async (name: string) => (await sql<{ id: number }>`select id from "group" where name = ${name}`.execute(t.current.db)).rows[0]!.id
    const newLedger = async (name: string, group: string) => ok(await call({ method: 'POST', url: '/ledger_account/api/v1/ledger_account/create/', payload: { name, head_group: await groupId(group) } }), 201).id as number
    ledger.capital = await newLedger('Owner Capital', 'Capital Account')
    ledger.rent = await newLedger('Shop Rent', 'Indirect Expenses')
    const voucher = async (kind: string, header: Record<string, unknown>, items: Array<Record<string, unknown>>) => ok(await call({ method: 'POST', url: `/${kind}/api/v1/${kind}/create/`, payload: { ...header, items } }), 201)
    await voucher('receipt_voucher', { receipt_date: '2026-01-05' }, [
      { ledger: ledger.Cash, debit_amount: '10000.00' },
      { ledger: ledger.capital, credit_amount: '10000.00' },
    ])
    await voucher('payment_voucher', { payment_date: '2026-02-01' }, [
      { ledger: ledger.rent, debit_amount: '300.40' },
      { ledger: ledger.Cash, credit_amount: '300.40' },
    ])
    const product = async (name: string, unitPrice: string) => ok(await call({ method: 'POST', url: '/product/api/v1/product/create/', payload: { name, unit_price: unitPrice } }), 201).id as number
    const stockIn = async (item: number, quantity: number, unitCost: string) => {
      const made = ok(await call({ method: 'POST', url: '/stock_adjustment/api/v1/stock_adjustment/create/', payload: { reason: 'Counted', items: [{ product: item, quantity, unit_cost: unitCost }] } }), 201)
      ok(await call({ method: 'POST', url: `/stock_adjustment/api/v1/stock_adjustment/confirm/${made.id}` }))
    }
    const tea = await product('Tied Tea', '25.00')
    const cups = await product('Tied Cup', '8.00')
    await stockIn(tea, 20, '10.00')
    await stockIn(tea, 10, '13.00')
    await stockIn(cups, 50, '3.35')
    const buyer = ok(
      await call({ method: 'POST', url: '/customer/api/v1/customer/create/', payload: { username: 'tied_buyer', email: 'tied@shop.example', first_name: 'Tia', last_name: 'Buyer', password: 'secret-pass-123', confirm_password: 'secret-pass-123' } }),
      201,
    ).id
    const order = async (header: Record<string, unknown>, lines: object[], steps: Array<[string, object?]>) => {
      const made = ok(await call({ method: 'POST', url: '/order/api/v1/order/create/', payload: { user: buyer, ...header, order_items: lines } }), 201)
      for (const [step, payload] of steps) ok(await call({ method: 'POST', url: `/order/api/v1/order/${step}/${made.id}`, payload: payload ?? {} }))
    }
    await order({ order_date: '2026-03-01', discount_amount: '1.10', shipping_price: '5.00', tax_price: '2.00' }, [{ product: tea, quantity: 3 }, { product: cups, quantity: 4, price: '7.50' }], [['confirm', { pay_amount: '50.00', ledger: ledger.Cash }]])
    await order({ order_date: '2026-03-02' }, [{ product: tea, quantity: 2 }], [['confirm'], ['pack']])
    await order({ order_date: '2026-03-03' }, [{ product: cups, quantity: 5 }], [['confirm', { pay_amount: '40.00', ledger: ledger.Cash }], ['cancel']])
    const rows = (await report('trial_balance')).rows as Row[]
    trial = new Map(rows.map((r) => [r.ledger!, r]))
  })

  it('the trial balance ties', async () => {
    const { totals } = await report('trial_balance')
    same(totals.debit_amount, totals.credit_amount)
    same(totals.closing_debit, totals.closing_credit)
  })

  it('the order report’s revenue is what Company Sales was credited, its cost what Cost of Goods Sold was debited', async () => {
    const { totals } = await report('order_report')
    same(totals.revenue, money.subtract('0', tb('Company Sales').net))
    same(totals.cost, tb('Cost of Goods Sold').net)
    same(totals.profit, money.subtract(totals.revenue, totals.cost))
    const summary = await report('order_summary_report', 'group_by=month')
    same(summary.totals.revenue, totals.revenue)
    same(summary.totals.profit, totals.profit)
  })

  it('the stock report’s closing value is Stock In Hand’s balance', async () => {
    const today = new Date().toISOString().slice(0, 10)
    const { totals } = await report('stock_report', `date_after=2000-01-01&date_before=${today}`)
    same(totals.closing_value, tb('Stock In Hand').closing)
    same(totals.closing_value, money.subtract(money.sum([totals.opening_value, totals.in_value]), totals.out_value))
  })

  it('the cash book, the ledger report of Cash and the account statement summary agree with Cash', async () => {
    const cash = tb('Cash')
    const book = await report('account_statement', 'account_type=Cash')
    same(book.closing_balance, cash.closing)
    same(book.totals.debit_amount, cash.debit)
    same(book.totals.credit_amount, cash.credit)
    same((await report('ledger_report', `ledger=${ledger.Cash}`)).closing_balance, cash.closing)
    const summary = await report('account_statement_summary', 'start_date=2000-01-01&end_date=2999-12-31')
    const cashRow = summary.rows.find((r: Row) => r.account_type === 'Cash')
    same(cashRow.closing_balance, cash.closing)
    same(cashRow.debit_amount, cash.debit)
  })

  it('the payment and receipt reports are what their party ledgers were debited and credited', async () => {
    // The cancelled order's refund is a payment too: the rent's lines are the rent's.
    same((await report('payment_report', `ledger=${ledger.rent}`)).totals.amount, tb('Shop Rent').debit)
    same((await report('receipt_report', `ledger=${ledger.capital}`)).totals.amount, tb('Owner Capital').credit)
    same((await report('payment_summary_report')).totals.amount, (await report('payment_report')).totals.amount)
  })

  it('the profit and loss is every income and expense ledger’s net, and the balance sheet balances with it', async () => {
    const pl = await report('profit_loss')
    const lines = (pl.rows as Row[]).filter((r) => r.section === 'incomes' || r.section === 'expenses')
    expect(lines.length).toBeGreaterThan(2)
    for (const line of lines) {
      if (line.section === 'incomes') same(line.income, money.subtract('0', tb(line.ledger!).net))
      else same(line.expense, tb(line.ledger!).net)
    }
    same(pl.profit, money.subtract(pl.total_income, pl.total_expense))
    same(pl.total_expense, money.sum(lines.filter((l) => l.section === 'expenses').map((l) => l.expense!)))
    const bs = await report('balance_sheet')
    same(bs.profit, pl.profit)
    same(bs.difference, '0')
    same(bs.total_assets, bs.total_liabilities_and_equity)
  })
})
