import { logTypes } from '../entities/accounting/account-log'
import { defineReport, f, rules } from '../kit'

/**
 * The statement of one ledger account over a period (api-contract §6 "Ledger report";
 * domain-anchors §6 rule 26), from the general ledger: an opening row (the balance of every
 * row before the period), the period's rows in date order with the running balance, and a
 * closing row (opening + debits − credits). Balances are debit minus credit. A line's
 * reference opens its voucher. The contract's own route (`account_log_report/…/general/`)
 * answers the same rows in its envelope.
 */
export const ledgerReport = defineReport({
  name: 'ledger_report',
  module: 'accounting',
  route: 'ledger-reports',
  params: {
    ledger: f.ref('ledger_account', { required: true }),
    sub_ledger: f.ref('sub_ledger_account'),
    date_after: f.date({ label: 'field.date_after' }),
    date_before: f.date({ label: 'field.date_before' }),
  },
  columns: {
    line_no: f.integer({ label: 'field.line_no' }),
    log_date: f.date(),
    reference_no: f.text({ code: true }),
    // The opening and closing rows are told apart by their kind.
    log_type: f.choice([...logTypes, 'opening_balance', 'closing_balance']),
    related_ledgers: f.text({ label: 'field.related_ledgers' }),
    details: f.text(),
    debit_amount: f.money(),
    credit_amount: f.money(),
    balance: f.money({ label: 'field.balance' }),
  },
  // The id of a row of the line's voucher (its form opens by any of them): none for the opening and closing rows.
  hidden: { voucher_id: f.integer() },
  // A line's reference opens its voucher: the kind of voucher is the line's type.
  drill: { reference_no: { entity: { fromColumn: 'log_type' }, id: 'voucher_id' } },
  totals: ['debit_amount', 'credit_amount'],
  ordering: ['line_no'],
  rules: [rules.notAfter('date_after', 'date_before', 'validation.date_order')],
  nav: { group: 'reports', icon: 'account_balance', order: 20 },
})
