import { defineReport, f, rules } from '../kit'

/**
 * Every ledger account's debits and credits from the general ledger (domain-anchors §6
 * rule 27): the balance before the period, the period's movement and the closing balance,
 * each balance net on its side. Every posting balances, so each pair of columns ties — the
 * totals row shows it. Ledgers without any row are left out unless asked for. The income
 * and expense ledgers open at nothing at the start of the fiscal year, their earlier years
 * brought forward in the Profit & Loss A/C ledger. Also at the contract's
 * `balance_sheet/…/trial_balance/` (api-contract §6).
 */
export const trialBalance = defineReport({
  name: 'trial_balance',
  module: 'accounting',
  route: 'trial-balance-reports',
  contract: { path: '/balance_sheet/api/v1/balance_sheet/trial_balance/', key: 'trial_balance' },
  paged: false,
  params: {
    date_after: f.date({ label: 'field.date_after' }),
    date_before: f.date({ label: 'field.date_before' }),
    show_zero: f.choice(['yes', 'no'], { label: 'field.show_zero' }),
  },
  columns: {
    ledger: f.text(),
    group_name: f.text({ label: 'field.group_name' }),
    opening_debit: f.money({ label: 'field.opening_debit' }),
    opening_credit: f.money({ label: 'field.opening_credit' }),
    debit_amount: f.money(),
    credit_amount: f.money(),
    closing_debit: f.money({ label: 'field.closing_debit' }),
    closing_credit: f.money({ label: 'field.closing_credit' }),
  },
  totals: ['opening_debit', 'opening_credit', 'debit_amount', 'credit_amount', 'closing_debit', 'closing_credit'],
  ordering: ['group_name', 'ledger'],
  rules: [rules.notAfter('date_after', 'date_before', 'validation.date_order')],
  nav: { group: 'reports', icon: 'assessment', order: 25 },
})
