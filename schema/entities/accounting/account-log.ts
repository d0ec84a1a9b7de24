import { defineEntity, f, money } from '../../kit'

/** What posted a general-ledger row: the six kinds of voucher (api-contract §4.7 "Log type"). */
export const logTypes = ['payment_voucher', 'receipt_voucher', 'sales', 'purchase', 'contra', 'journal'] as const
export type LogType = (typeof logTypes)[number]

/**
 * The general ledger (api-contract §4.7 AccountLog): one row per leg of a posted voucher,
 * written only by the posting service (server/domain/accounting/posting.ts). It is
 * append-only — the database itself refuses UPDATE and DELETE (migration 5) — so a voucher
 * that changes or is cancelled is undone by reversing rows (`reverses` names the row each
 * one undoes), and its history stays readable. A ledger account with rows here cannot be
 * deleted (the reference restricts).
 */
export const accountLog = defineEntity({
  name: 'account_log',
  module: 'accounting',
  confidential: true,
  appendOnly: true,
  listKey: 'account_logs',
  labelField: 'reference_no',
  route: { area: 'accountLog-management', list: 'accountLogs' },
  fields: {
    ledger: f.ref('ledger_account', { required: true, search: true }),
    sub_ledger: f.ref('sub_ledger_account'),
    branch: f.ref('branch'),
    // The voucher's invoice number (`PV20230415001`).
    reference_no: f.text({ max: 50, required: true, search: true, code: true }),
    log_type: f.choice(logTypes, { required: true }),
    debit_amount: f.money({ default: '0.00', min: '0' }),
    credit_amount: f.money({ default: '0.00', min: '0' }),
    log_date: f.date({ required: true }),
    details: f.text({ multiline: true }),
    // The row this one undoes; a row is undone at most once (a unique index of migration 5).
    reverses: f.ref('account_log', { hideInList: true }),
  },
  // A row stands on one side: the database checks it too (constraint account_log_one_side).
  rules: [
    {
      field: 'debit_amount',
      message: 'validation.one_side_only',
      fields: ['debit_amount', 'credit_amount'],
      check: (row) => (money.toMinor(row.debit_amount as string) > 0n) !== (money.toMinor(row.credit_amount as string) > 0n),
    },
  ],
  search: ['reference_no', 'ledger'],
  listColumns: ['log_date', 'reference_no', 'log_type', 'ledger', 'sub_ledger', 'branch', 'debit_amount', 'credit_amount', 'details'],
  filters: ['log_date', 'log_type', 'ledger', 'sub_ledger', 'branch'],
  // Written by postings only. `search/` takes the contract's `date_after`/`date_before`; the
  // contract's `delete/` routes exist only to answer that the ledger is append-only, so the
  // screens offer no delete (server/domain/accounting/account-log-routes.ts).
  routes: { create: false, update: false, search: 'bespoke', delete: false, delete_multiple: false },
  nav: { group: 'accounting', icon: 'receipt', order: 20 },
})
