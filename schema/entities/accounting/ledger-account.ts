import { defineEntity, f } from '../../kit'
import { chartNode, chartNodeFields } from './chart-node'

/**
 * A ledger account (api-contract §4.6): what vouchers post to. `ledger_type` and
 * `reference_id` tie an automatic ledger to its person or cause (an employee's is
 * `employee_ledger` with the employee's id). The six seeded ones cannot be deleted, nor can
 * an account with postings (the general ledger refers to it).
 */
export const ledgerAccount = defineEntity({
  name: 'ledger_account',
  module: 'accounting',
  confidential: true,
  listKey: 'ledger_accounts',
  // The spec's "acccount-management/accounts" (detail "account-management/accounts/{id}") names the chart's accounts too (issue 10).
  route: { area: 'ledger-management', list: 'ledgers' },
  fields: {
    // Capitalised, not Title Case (the contract's): Title would rewrite the seeded names on
    // their next save ("Misc. Expenses (ASSETS)", "Cash-in-Hand", "Loans and Advances (Assets)").
    name: f.text({ max: 100, required: true, search: true, normalize: 'capitalize' }),
    ledger_type: f.text({ max: 30, normalize: 'lower_snake' }),
    reference_id: f.text({ max: 100 }),
    ...chartNodeFields,
    // Under Cash-in-Hand or Bank Accounts: where a payment's money leaves and a receipt's enters (filled on read).
    is_cash_bank: f.boolean({ virtual: true, compute: () => false, sortable: false }),
  },
  ...chartNode,
  // Its postings in the general ledger, newest first.
  related: [{ entity: 'account_log', via: 'ledger', columns: ['log_date', 'reference_no', 'log_type', 'sub_ledger', 'debit_amount', 'credit_amount', 'details'] }],
  nav: { group: 'accounting', icon: 'account_balance', order: 3 },
})
