import { defineEntity, f, lineTotal, linesTotal, rules } from '../../kit'
import { cashOrBankLedger } from '../accounting/cash-or-bank'

/** A product bought: how many, at what unit cost (api-contract §4.10 PurchaseFinal items). */
export const purchaseFinalItem = defineEntity({
  name: 'purchase_final_item',
  module: 'purchasing',
  lineOf: 'purchase_final',
  labelField: 'product',
  fields: {
    product: f.ref('product', { required: true }),
    quantity: f.integer({ required: true, min: 1, max: 1_000_000 }),
    unit_price: f.money({ required: true, min: '0' }),
    total_price: f.money({ compute: (line) => lineTotal(line) }),
  },
})

/** What has been paid of a confirmed purchase's bill: derived from its payments, never set by hand. */
export const PAYMENT_STATUSES = ['unpaid', 'partial', 'paid'] as const

/**
 * The company's purchase (api-contract §4.10 PurchaseFinal; domain-anchors §2.1, §6 36–38):
 * from a verified offer (`purchase_request`, once) or entered directly; a draft may change.
 * `confirm` — the contract's `paybill_and_confirm/{id}` — brings every line into stock at its
 * unit cost, posts the payable bill under `bill_no` (Dr Stock In Hand, Cr the vendor's
 * ledger) and, for what is paid now, a purchase payment (Dr the vendor, Cr cash or bank), in
 * one transaction (server/domain/purchasing). Later payments settle the rest; `paid_amount`
 * and `payment_status` follow them. `cancel` undoes the stock, the bill and the payments —
 * refused while any of its goods have gone out.
 */
export const purchaseFinal = defineEntity({
  name: 'purchase_final',
  module: 'purchasing',
  listKey: 'purchase_finals',
  labelField: 'invoice_no',
  ordering: '-id',
  // The spec's address of its invoice (from the purchase report) opens its form, whose Print gives the invoice.
  route: { area: 'purchasefinal-management', list: 'purchase-final', formAt: ['report-management/purchage-final-reports/purchase-invoice'] },
  fields: {
    invoice_no: f.text({ max: 30, readOnly: true, search: true, code: true }),
    purchase_date: f.date({ initial: 'today', label: 'field.date' }),
    vendor: f.ref('vendor', { required: true, search: true }),
    purchase_request: f.ref('purchase_request', { unique: true, readOnly: true }),
    status: f.choice(['draft', 'confirmed', 'cancelled'], { default: 'draft' }),
    purchase_status: f.ref('purchase_status', { readOnly: true }),
    note: f.text({ max: 500, multiline: true, hideInList: true }),
    items: f.lines(purchaseFinalItem, { min: 1, label: 'field.items', totals: ['total_price'] }),
    total_price: f.money({ compute: (purchase) => linesTotal(purchase, 'items') }),
    paid_amount: f.money({ readOnly: true, default: '0.00' }),
    payment_status: f.choice(PAYMENT_STATUSES, { readOnly: true, default: 'unpaid' }),
    bill_no: f.text({ max: 50, readOnly: true, code: true }),
  },
  search: ['invoice_no', 'vendor'],
  listColumns: ['invoice_no', 'purchase_date', 'vendor', 'status', 'total_price', 'paid_amount', 'payment_status', 'bill_no'],
  filters: ['status', 'payment_status', 'vendor', 'purchase_request', 'purchase_date'],
  rules: [rules.distinct('items', 'product', 'validation.duplicate_line')],
  numbering: { field: 'invoice_no', prefix: 'PF', reset: 'day', date: 'purchase_date' },
  workflow: {
    field: 'status',
    initial: 'draft',
    editableIn: ['draft'],
    // The contract's `purchase_status`: a draft is `pending`, a confirmed purchase `verified`.
    lookup: { field: 'purchase_status', names: { draft: 'pending', confirmed: 'verified' } },
    transitions: {
      confirm: {
        from: ['draft'],
        to: 'confirmed',
        label: 'action.paybill_and_confirm',
        confirm: 'action.paybill_and_confirm_question',
        aliases: ['paybill_and_confirm'],
        input: {
          paid_amount: f.money({ min: '0', default: '0.00', label: 'field.paid_now' }),
          ledger: f.ref('ledger_account', { label: 'field.paid_from' }),
        },
      },
      cancel: { from: ['draft', 'confirmed'], to: 'cancelled', confirm: true, tone: 'danger' },
    },
  },
  moves: { number: 'invoice_no', on: 'confirm', reverseOn: ['cancel'], date: 'purchase_date' },
  posts: { as: 'purchase', number: 'bill_no', on: 'confirm', reverseOn: ['cancel'], date: 'purchase_date' },
  print: {
    header: ['invoice_no', 'purchase_date', 'status', 'bill_no', 'payment_status'],
    party: { label: 'print.supplied_by', of: (p) => ((p._labels as Record<string, unknown> | undefined)?.vendor as string | undefined) ?? null },
    lines: { field: 'items', columns: ['product', 'quantity', 'unit_price', 'total_price'] },
    totals: ['total_price'],
    amount: 'total_price',
    signatures: ['print.prepared_by', 'print.approved_by'],
  },
  // What has been paid against it.
  related: [{ entity: 'purchase_payment', via: 'purchase_final', columns: ['voucher_no', 'payment_date', 'amount', 'ledger'] }],
  // The contract's names of the engine's create and read.
  routeAliases: { create_directly_from_admin_panel: 'create', get_a_purchase_final_with_items: 'read' },
  nav: { group: 'purchasing', icon: 'description', order: 2 },
})

/**
 * Money paid against a purchase (domain-anchors §6, 38; before it is confirmed, an advance): a payment voucher
 * posted under `voucher_no` — Dr the vendor's ledger, Cr the cash or bank ledger it was paid
 * from — naming the bill it settles. No more than what is still owed; a change or delete
 * reposts or reverses it, and the purchase's paid amount and status follow.
 */
export const purchasePayment = defineEntity({
  name: 'purchase_payment',
  module: 'purchasing',
  listKey: 'purchase_payments',
  labelField: 'voucher_no',
  ordering: '-id',
  route: { area: 'purchasefinal-management', list: 'purchase-payments' },
  fields: {
    purchase_final: f.ref('purchase_final', { required: true, search: true }),
    payment_date: f.date({ initial: 'today' }),
    amount: f.money({ required: true, gt: '0', messages: { above_value: 'validation.amount_above_zero' } }),
    ledger: f.ref('ledger_account', { required: true, label: 'field.paid_from' }),
    voucher_no: f.text({ max: 50, readOnly: true, code: true, search: true }),
  },
  search: ['voucher_no', 'purchase_final'],
  listColumns: ['voucher_no', 'payment_date', 'purchase_final', 'amount', 'ledger'],
  filters: ['purchase_final', 'payment_date'],
  rules: [cashOrBankLedger('ledger', 'validation.cash_or_bank')],
  posts: { as: 'payment_voucher', number: 'voucher_no', date: 'payment_date' },
  nav: { group: 'purchasing', icon: 'payments', order: 3 },
})
