import { defineReport, f, rules } from '../kit'

/**
 * The voucher reports and their summaries (api-contract §6; spec
 * `/apps/report-management/payment-reports`, `payment-summary-reports`, `receipt-reports`,
 * `receipt-summary-reports`, and the same of sales, purchases and contras): the party side of
 * each voucher — a payment's debit lines (whom it paid), a receipt's credit lines (whom it came
 * from), a sale's debit lines (whom it billed), a purchase's credit lines (who supplied), a
 * contra's debit lines (where the money went) — with the ledgers of the other side; the
 * summaries total them per sub-ledger. Filters as the contract's: ledger, sub-ledger, branch,
 * invoice number, a period of the voucher's date (contras have no sub-ledger, nor a summary).
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

type Kind = {
  /** The report's name stem and the contract route's: `report_for_<contract>/`. */
  readonly name: string
  readonly contract: string
  /** The contract's keys of the rows and of the summary (the voucher list's key, as the original's payment reports). */
  readonly keys: { readonly lines: string; readonly summary?: string }
  /** The voucher entity whose lines these are. */
  readonly entity: 'payment_voucher' | 'receipt_voucher' | 'sales' | 'purchase' | 'contra'
  /** The screens: `<route>-reports`, `<route>-summary-reports`. */
  readonly route: string
  readonly icon: 'payments' | 'receipt' | 'point_of_sale' | 'store' | 'account_balance'
  readonly order: number
  readonly hasSubLedger?: false
}

/** A kind's report of its party lines and its summary per sub-ledger, each also at the contract's route. */
function reportsOf<const K extends Kind>(kind: K) {
  const params = kind.hasSubLedger === false ? (({ sub_ledger: _, ...rest }) => rest)(filters) : filters
  return {
    lines: defineReport({
      name: `${kind.name}_report`,
      module: 'accounting',
      route: `${kind.route}-reports`,
      contract: { path: `${CONTRACT}/report_for_${kind.contract}/`, key: kind.keys.lines },
      params,
      columns: lineColumns,
      // A line's number opens its voucher.
      hidden: { voucher_id: f.integer() },
      drill: { invoice_no: { entity: kind.entity, id: 'voucher_id' } },
      totals: ['amount'],
      ordering: ['voucher_date', 'invoice_no', '-amount', 'ledger'],
      rules: period,
      nav: { group: 'reports', icon: kind.icon, order: kind.order },
    }),
    summary: defineReport({
      name: `${kind.name}_summary_report`,
      module: 'accounting',
      route: `${kind.route}-summary-reports`,
      ...(kind.keys.summary ? { contract: { path: `${CONTRACT}/summary_for_${kind.contract}/`, key: kind.keys.summary, map: { key: 'sub_ledger', value: 'amount' } } } : {}),
      paged: false,
      params,
      columns: summaryColumns,
      chart: { kind: 'bar', label: 'sub_ledger', values: ['amount'] },
      // A sub-ledger's total opens its lines, of the same period and filters.
      hidden: { sub_ledger_id: f.integer() },
      drill: { amount: { report: `${kind.name}_report`, params: { sub_ledger: 'sub_ledger_id' } } },
      totals: ['vouchers', 'amount'],
      ordering: ['sub_ledger'],
      rules: period,
      nav: { group: 'reports', icon: kind.icon, order: kind.order + 1 },
    }),
  }
}

const payments = reportsOf({ name: 'payment', entity: 'payment_voucher', contract: 'payment_voucher', keys: { lines: 'payment_vouchers', summary: 'payment_voucher_summary' }, route: 'payment', icon: 'payments', order: 30 })
const receipts = reportsOf({ name: 'receipt', entity: 'receipt_voucher', contract: 'receipt_voucher', keys: { lines: 'receipt_vouchers', summary: 'receipt_voucher_summary' }, route: 'receipt', icon: 'receipt', order: 32 })
// Sales and purchase vouchers: the spec's `purchage-reports` are the final purchases', so these are named for the voucher.
const sales = reportsOf({ name: 'sales', entity: 'sales', contract: 'sales', keys: { lines: 'sales', summary: 'sales_summary' }, route: 'sales-voucher', icon: 'point_of_sale', order: 34 })
const purchases = reportsOf({ name: 'purchase_voucher', entity: 'purchase', contract: 'purchase', keys: { lines: 'purchases', summary: 'purchase_summary' }, route: 'purchase-voucher', icon: 'store', order: 36 })
const contras = reportsOf({ name: 'contra', entity: 'contra', contract: 'contra', keys: { lines: 'contras' }, route: 'contra', icon: 'account_balance', order: 38, hasSubLedger: false })

export const paymentReport = payments.lines
export const paymentSummaryReport = payments.summary
export const receiptReport = receipts.lines
export const receiptSummaryReport = receipts.summary
export const salesReport = sales.lines
export const salesSummaryReport = sales.summary
export const purchaseVoucherReport = purchases.lines
export const purchaseVoucherSummaryReport = purchases.summary
export const contraReport = contras.lines
