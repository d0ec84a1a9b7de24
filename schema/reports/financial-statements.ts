import { defineReport, f, rules } from '../kit'

/**
 * The profit and loss account and the balance sheet (domain-anchors §1.7, §6 rules 28–29),
 * from the general ledger, each also at the contract's `balance_sheet/…` route (api-contract
 * §6). One row per ledger with a balance, under its section and its groups (the primary
 * group's groups down to the ledger's own, as one path), in the chart's order.
 *
 * Both statements are laid out as Tally lays them out, in two columns that balance: the
 * profit (or the loss) is the last row of the side it evens, so the totals row ties and
 * shows it; the balance sheet's profit of the fiscal year so far and the earlier years'
 * (retained earnings) stand on the liabilities and equity side. Rows the ledger does not
 * name are told apart by their section, as the ledger report tells its opening row by its
 * kind. The figures beside the rows (total income, total expense, profit; total assets,
 * total liabilities and equity, their difference) come with the answer.
 */
const CONTRACT = '/balance_sheet/api/v1/balance_sheet'

const groupPath = f.text({ label: 'field.group_name' })

export const profitLoss = defineReport({
  name: 'profit_loss',
  module: 'accounting',
  route: 'profit-loss-reports',
  contract: { path: `${CONTRACT}/profit_loss/`, key: 'profit_loss' },
  paged: false,
  // Without a start, from the start of the fiscal year of the end (without an end, of today).
  params: {
    date_after: f.date({ label: 'field.date_after' }),
    date_before: f.date({ label: 'field.date_before' }),
  },
  columns: {
    line_no: f.integer({ label: 'field.line_no' }),
    section: f.choice(['incomes', 'expenses', 'profit_for_the_period', 'loss_for_the_period'], { label: 'field.section' }),
    group_name: groupPath,
    ledger: f.text(),
    income: f.money({ label: 'field.income' }),
    expense: f.money({ label: 'field.expense' }),
  },
  // A ledger's figure opens its ledger report of the same period.
  hidden: { ledger_id: f.integer() },
  drill: { ledger: { report: 'ledger_report', params: { ledger: 'ledger_id' } } },
  chart: { kind: 'bar', label: 'section', values: ['income', 'expense'] },
  totals: ['income', 'expense'],
  ordering: ['line_no'],
  rules: [rules.notAfter('date_after', 'date_before', 'validation.date_order')],
  nav: { group: 'reports', icon: 'assessment', order: 26 },
})

export const balanceSheet = defineReport({
  name: 'balance_sheet',
  module: 'accounting',
  route: 'balance-sheet-reports',
  contract: { path: `${CONTRACT}/balance_sheet/`, key: 'balance_sheet' },
  paged: false,
  // The end of the period, as the other statements name it; without one, as of today.
  params: {
    date_before: f.date({ label: 'field.as_of' }),
  },
  columns: {
    line_no: f.integer({ label: 'field.line_no' }),
    section: f.choice(['assets', 'liabilities', 'equity', 'retained_earnings', 'provisional_profit_loss'], { label: 'field.section' }),
    group_name: groupPath,
    ledger: f.text(),
    assets: f.money({ label: 'field.assets' }),
    liabilities_and_equity: f.money({ label: 'field.liabilities_and_equity' }),
  },
  hidden: { ledger_id: f.integer() },
  drill: { ledger: { report: 'ledger_report', params: { ledger: 'ledger_id' } } },
  totals: ['assets', 'liabilities_and_equity'],
  ordering: ['line_no'],
  nav: { group: 'reports', icon: 'account_balance', order: 27 },
})
