import { PAYMENT_STATUSES, purchaseFinal } from '../entities/purchasing/purchase-final'
import { REQUEST_STATES } from '../entities/purchasing/purchase-request'
import { defineReport, f, rules } from '../kit'

/**
 * The purchasing reports (api-contract §6; spec `/apps/report-management/purchage-reports`
 * and `purchage-req-summary-reports`, spelled so).
 */
const period = [rules.notAfter('date_after', 'date_before', 'validation.date_order')]

const PURCHASE_STATES = ['draft', 'confirmed', 'cancelled'] as const

/** Where a final purchase's printable invoice opens (`…/{id}`): the spec's address of it, which leads to its form and its Print. */
export const PURCHASE_INVOICE_PATH = purchaseFinal.ui.formAt.find((path) => path.endsWith('/purchase-invoice')) ?? purchaseFinal.ui.formPath

/**
 * One row per final purchase (also at `summary_report/…/purchase_final_summary_report/filter/`):
 * its number, day, vendor, state, what it comes to, what has been paid and what is still
 * owed, and how many lines and units it has; each row also carries `invoice_path`, the
 * address of its printable invoice. A cancelled purchase owes nothing and is left out unless
 * asked for by its status.
 */
export const purchaseFinalReport = defineReport({
  name: 'purchase_final_report',
  module: 'purchasing',
  route: 'purchage-reports',
  contract: { path: '/summary_report/api/v1/purchase_final_summary_report/filter/', key: 'purchase_finals' },
  params: {
    date_after: f.date({ label: 'field.date_after' }),
    date_before: f.date({ label: 'field.date_before' }),
    vendor: f.ref('vendor'),
    status: f.choice(PURCHASE_STATES),
    payment_status: f.choice(PAYMENT_STATUSES),
  },
  columns: {
    purchase_date: f.date({ label: 'field.date' }),
    invoice_no: f.text({ code: true }),
    vendor: f.text(),
    status: f.choice(PURCHASE_STATES),
    payment_status: f.choice(PAYMENT_STATUSES),
    bill_no: f.text({ code: true }),
    lines: f.integer({ label: 'field.item_count' }),
    quantity: f.integer(),
    total_price: f.money(),
    paid_amount: f.money(),
    due_amount: f.money(),
  },
  // A purchase's number opens it (its Print is the invoice).
  hidden: { purchase_id: f.integer() },
  drill: { invoice_no: { entity: 'purchase_final', id: 'purchase_id' } },
  totals: ['lines', 'quantity', 'total_price', 'paid_amount', 'due_amount'],
  ordering: ['purchase_date', 'invoice_no'],
  rules: period,
  nav: { group: 'reports', icon: 'local_shipping', order: 52 },
})

/**
 * Vendors' offers summarised (also at `summary_report/…/purchase_request_summary_report/filter/`):
 * per stage of the review — every stage, none left out — or per vendor (`group_by`), the
 * number of offers, of their lines and units, and what they come to at the offered prices.
 */
export const purchaseRequestSummaryReport = defineReport({
  name: 'purchase_request_summary_report',
  module: 'purchasing',
  route: 'purchage-req-summary-reports',
  contract: { path: '/summary_report/api/v1/purchase_request_summary_report/filter/', key: 'purchase_request_summary' },
  params: {
    date_after: f.date({ label: 'field.date_after' }),
    date_before: f.date({ label: 'field.date_before' }),
    vendor: f.ref('vendor'),
    status: f.choice(REQUEST_STATES),
    group_by: f.choice(['status', 'vendor'], { default: 'status', label: 'field.group_by' }),
  },
  columns: {
    status: f.choice(REQUEST_STATES),
    vendor: f.text(),
    requests: f.integer({ label: 'field.request_count' }),
    lines: f.integer({ label: 'field.item_count' }),
    quantity: f.integer(),
    amount: f.money(),
  },
  totals: ['requests', 'lines', 'quantity', 'amount'],
  ordering: ['status', 'vendor'],
  rules: period,
  nav: { group: 'reports', icon: 'description', order: 54 },
})
