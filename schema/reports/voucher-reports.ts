import { defineReport, f, rules } from '../kit'

/**
 * The payment and receipt reports and their summaries (api-contract §6; spec
 * `/apps/report-management/payment-reports`, `payment-summary-reports`, `receipt-reports`,
 * `receipt-summary-reports`): the party side of each voucher — a payment's debit lines (whom
 * it paid), a receipt's credit lines (whom it came from) — with the cash or bank ledgers on
 * the other side; the summaries total them per sub-ledger. Filters as the contract's:
 * ledger, sub-ledger, branch, invoice number, a period of the voucher's date.
 */
const filters = {
  ledger: f.ref('ledger_account'),
  sub_ledger: f.ref('sub_ledger_account'),
  branch: f.ref('branch'),
  invoice_no: f.text({ max: 50, label: 'field.invoice_no' }),
  date_after: f.date({ label: 'field.date_after' }),
  date_before: f.date({ label: 'field.date_before' }),
}

const lineColumns = {
  voucher_date: f.date({ label: 'field.date' }),
  invoice_no: f.text({ code: true, label: 'field.invoice_no' }),
  ledger: f.text({ label: 'field.ledger' }),
  sub_ledger: f.text({ label: 'field.sub_ledger' }),
  branch: f.text({ label: 'field.branch' }),
  related_ledgers: f.text({ label: 'field.related_ledgers' }),
  details: f.text(),
  amount: f.money({ label: 'field.amount' }),
}

const summaryColumns = {
  sub_ledger: f.text({ label: 'field.sub_ledger' }),
  vouchers: f.integer({ label: 'field.voucher_count' }),
  amount: f.money({ label: 'field.amount' }),
}

const period = [rules.notAfter('date_after', 'date_before', 'validation.date_order')]

export const paymentReport = defineReport({
  name: 'payment_report',
  contract: { path: '/account_report/api/v1/account_report/report_for_payment_voucher/', key: 'payment_vouchers' },
  module: 'accounting',
  route: 'payment-reports',
  params: filters,
  columns: lineColumns,
  totals: ['amount'],
  ordering: ['voucher_date', 'invoice_no', '-amount', 'ledger'],
  rules: period,
  nav: { group: 'reports', icon: 'payments', order: 30 },
})

export const paymentSummaryReport = defineReport({
  name: 'payment_summary_report',
  contract: { path: '/account_report/api/v1/account_report/summary_for_payment_voucher/', key: 'payment_voucher_summary', map: { key: 'sub_ledger', value: 'amount' } },
  module: 'accounting',
  route: 'payment-summary-reports',
  paged: false,
  params: filters,
  columns: summaryColumns,
  totals: ['vouchers', 'amount'],
  ordering: ['sub_ledger'],
  rules: period,
  nav: { group: 'reports', icon: 'payments', order: 31 },
})

export const receiptReport = defineReport({
  name: 'receipt_report',
  contract: { path: '/account_report/api/v1/account_report/report_for_receipt_voucher/', key: 'receipt_vouchers' },
  module: 'accounting',
  route: 'receipt-reports',
  params: filters,
  columns: lineColumns,
  totals: ['amount'],
  ordering: ['voucher_date', 'invoice_no', '-amount', 'ledger'],
  rules: period,
  nav: { group: 'reports', icon: 'receipt', order: 32 },
})

export const receiptSummaryReport = defineReport({
  name: 'receipt_summary_report',
  contract: { path: '/account_report/api/v1/account_report/summary_for_receipt_voucher/', key: 'receipt_voucher_summary', map: { key: 'sub_ledger', value: 'amount' } },
  module: 'accounting',
  route: 'receipt-summary-reports',
  paged: false,
  params: filters,
  columns: summaryColumns,
  totals: ['vouchers', 'amount'],
  ordering: ['sub_ledger'],
  rules: period,
  nav: { group: 'reports', icon: 'receipt', order: 33 },
})
