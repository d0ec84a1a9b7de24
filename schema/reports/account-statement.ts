import { defineReport, f, rules } from '../kit'
import { ledgerReport } from './ledger-report'

/**
 * The account statement (api-contract §6 "Account statement"; spec
 * `/apps/report-management/account-statement-reports`): the cash book, the bank book, or one
 * ledger's statement — every ledger under Cash-in-Hand (or Bank Accounts) taken as one
 * account, each line naming its ledger, after the balance brought forward and with the
 * running balance (domain-anchors §6 rule 26). The contract's `by_ledger_type/` and its
 * `for_…/` routes answer the same rows in the general ledger's envelope
 * (server/domain/accounting/account-log-routes.ts).
 */
export const ACCOUNT_TYPES = ['Cash', 'Bank'] as const

export const accountStatement = defineReport({
  name: 'account_statement',
  module: 'accounting',
  route: 'account-statement-reports',
  params: {
    account_type: f.choice(ACCOUNT_TYPES, { label: 'field.account_type' }),
    ledger: f.ref('ledger_account', { search: true }),
    sub_ledger: f.ref('sub_ledger_account'),
    date_after: f.date({ label: 'field.date_after' }),
    date_before: f.date({ label: 'field.date_before' }),
  },
  // The ledger's report's columns, each line naming its ledger after its reference.
  columns: (({ line_no, log_date, reference_no, ...rest }) => ({ line_no, log_date, reference_no, ledger: f.text({ label: 'field.ledger' }), ...rest }))(ledgerReport.columns),
  hidden: ledgerReport.hidden,
  drill: ledgerReport.drill,
  totals: ['debit_amount', 'credit_amount'],
  ordering: ['line_no'],
  rules: [rules.atLeastOne(['account_type', 'ledger'], 'validation.statement_account'), rules.notAfter('date_after', 'date_before', 'validation.date_order')],
  nav: { group: 'reports', icon: 'account_balance', order: 21 },
})

/**
 * The cash and bank totals of a period (api-contract §6 "Account statement summary"; spec
 * `account-statement-summary-reports`): per kind of account, what it held before, what came in
 * (debits) and went out (credits), and what it held at the end. The contract's
 * `get_total_cash_dr_cr_bank_dr_cr/` answers the debits and credits alone.
 */
export const accountStatementSummary = defineReport({
  name: 'account_statement_summary',
  module: 'accounting',
  route: 'account-statement-summary-reports',
  paged: false,
  params: {
    start_date: f.date({ required: true, label: 'field.start_date' }),
    end_date: f.date({ required: true, label: 'field.end_date' }),
  },
  columns: {
    account_type: f.choice(ACCOUNT_TYPES, { label: 'field.account_type' }),
    opening_balance: f.money({ label: 'field.opening_balance' }),
    debit_amount: f.money(),
    credit_amount: f.money(),
    closing_balance: f.money({ label: 'field.closing_balance' }),
  },
  totals: ['opening_balance', 'debit_amount', 'credit_amount', 'closing_balance'],
  chart: { kind: 'bar', label: 'account_type', values: ['debit_amount', 'credit_amount'] },
  // A kind's figures open its statement of the same period.
  drill: Object.fromEntries(
    (['opening_balance', 'debit_amount', 'credit_amount', 'closing_balance'] as const).map((c) => [c, { report: 'account_statement', params: { account_type: 'account_type', date_after: 'start_date', date_before: 'end_date' } }]),
  ),
  // Cash before Bank, as the contract's totals list them.
  ordering: ['-account_type'],
  rules: [rules.notAfter('start_date', 'end_date', 'validation.date_order')],
  nav: { group: 'reports', icon: 'account_balance', order: 22 },
})
