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

const CONTRACT = '/account_report/api/v1/account_report'

/** A kind's report of its party lines and its summary per sub-ledger, each also at the contract's route. */
function reportsOf<const K extends 'payment' | 'receipt'>(kind: K, icon: 'payments' | 'receipt', order: number) {
  return {
    lines: defineReport({
      name: `${kind}_report`,
      module: 'accounting',
      route: `${kind}-reports`,
      contract: { path: `${CONTRACT}/report_for_${kind}_voucher/`, key: `${kind}_vouchers` },
      params: filters,
      columns: lineColumns,
      totals: ['amount'],
      ordering: ['voucher_date', 'invoice_no', '-amount', 'ledger'],
      rules: period,
      nav: { group: 'reports', icon, order },
    }),
    summary: defineReport({
      name: `${kind}_summary_report`,
      module: 'accounting',
      route: `${kind}-summary-reports`,
      contract: { path: `${CONTRACT}/summary_for_${kind}_voucher/`, key: `${kind}_voucher_summary`, map: { key: 'sub_ledger', value: 'amount' } },
      paged: false,
      params: filters,
      columns: summaryColumns,
      totals: ['vouchers', 'amount'],
      ordering: ['sub_ledger'],
      rules: period,
      nav: { group: 'reports', icon, order: order + 1 },
    }),
  }
}

const payments = reportsOf('payment', 'payments', 30)
const receipts = reportsOf('receipt', 'receipt', 32)

export const paymentReport = payments.lines
export const paymentSummaryReport = payments.summary
export const receiptReport = receipts.lines
export const receiptSummaryReport = receipts.summary
