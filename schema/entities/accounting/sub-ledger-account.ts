import { defineEntity, f } from '../../kit'

/** A sub-ledger (api-contract §4.6): a cost or analysis tag on vouchers (`cause`, `office_rent`). */
export const subLedgerAccount = defineEntity({
  name: 'sub_ledger_account',
  module: 'accounting',
  confidential: true,
  // The spec's key; the original backend answered `sub_ledgers` (api-contract §2.3).
  listKey: 'sub_ledger_accounts',
  ordering: 'name',
  route: { area: 'subLedger-management', list: 'subLedgers' },
  fields: {
    name: f.text({ max: 100, required: true, unique: true, search: true, normalize: 'lower_snake' }),
  },
  // The general-ledger postings tagged with it, newest first.
  related: [{ entity: 'account_log', via: 'sub_ledger', columns: ['log_date', 'reference_no', 'log_type', 'ledger', 'debit_amount', 'credit_amount', 'details'] }],
  nav: { group: 'accounting', icon: 'label', order: 4 },
})
