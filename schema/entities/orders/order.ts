import { defineEntity, f, lineTotal, linesTotal, money, MONEY_MAX } from '../../kit'
import { cashOrBankLedger } from '../accounting/cash-or-bank'
import { ORDER_STATUSES } from './order-status'

/**
 * A product sold on an order (api-contract §4.9 OrderItem): how many, in which colour and
 * size, at what unit `price`. What the product was called and cost when sold stay with the
 * line (domain-anchors §3.3, checklist 45): `product_name` as the line is written, and
 * `unit_cost` — the moving average its units left the stock at — when the order is confirmed
 * (the engine's `moves.lineCost`); a later change to the product changes neither.
 */
export const orderItem = defineEntity({
  name: 'orderitem',
  module: 'orders',
  lineOf: 'order',
  labelField: 'product',
  fields: {
    product: f.ref('product', { required: true }),
    product_name: f.text({ max: 255, readOnly: true }),
    color: f.ref('color'),
    size: f.ref('size'),
    quantity: f.integer({ required: true, min: 1, max: 1_000_000 }),
    // The product's own price unless another is given (the form fills it as the product is picked).
    price: f.money({ required: true, min: '0', label: 'field.unit_price', fetchFrom: { ref: 'product', field: 'unit_price' } }),
    total_price: f.money({ compute: (line) => lineTotal(line, 'price') }),
    unit_cost: f.decimal({ scale: 4, precision: 18, readOnly: true }),
  },
})

/** What has been paid of an order: derived from its payments and refunds, never set by hand (checklist 50). */
export const ORDER_PAYMENT_STATUSES = ['unpaid', 'partial', 'paid'] as const

/** The states of an order whose goods have left the stock and whose sale stands. */
export const CONFIRMED_STATES: readonly string[] = ['confirmed', 'packaging', 'on_the_way', 'delivered']

/** The goods' total, less the discount, plus shipping and tax: what the customer owes. */
const netOf = (o: Record<string, unknown>) =>
  money.subtract(money.sum([linesTotal(o, 'order_items', 'price'), o.shipping_price as string, o.tax_price as string]), o.discount_amount as string)

/**
 * A customer's order (api-contract §4.9, §5.3; domain-anchors §3; decisions "Orders"). It is
 * `pending` while it is the customer's cart; `confirm` — the contract's `confirm/{id}` and
 * `confirm_from_frontend/{id}` — takes every line's units out of stock under row locks (none
 * short, or nothing at all: a 409 names the product and what is on hand), posts the sale
 * under `sales_no` (Dr the customer, Cr Company Sales, shipping and tax; Dr Cost of Goods
 * Sold, Cr Stock In Hand at the cost the units left at) and takes what is paid with it as a
 * payment, in one transaction (server/domain/orders). Then packaging, on the way, delivered
 * (stamped `delivered_at`); cancelled before delivery brings the units back at their cost,
 * reverses the sale and refunds what was paid. A confirmed order's items may still change:
 * the engine moves their stock and reposts the sale as they now are.
 */
export const order = defineEntity({
  name: 'order',
  module: 'orders',
  listKey: 'orders',
  labelField: 'order_no',
  ordering: '-id',
  route: {
    area: 'e-commerce',
    list: 'orders',
    alsoAt: { area: 'order-managements', list: 'orders', form: 'order' },
    // The spec's invoice and mail addresses open the order's form, where Print and Send Invoice are.
    formAt: ['order-management/orders', 'order-managements/order-invoice', 'order-managements/send-email'],
  },
  fields: {
    order_no: f.text({ max: 30, readOnly: true, search: true, code: true }),
    order_date: f.date({ initial: 'today' }),
    user: f.ref('customer', { required: true, search: true, label: 'field.customer' }),
    branch: f.ref('branch'),
    status: f.choice(ORDER_STATUSES, { default: 'pending' }),
    order_status: f.ref('orderstatus', { readOnly: true }),
    payment_method: f.ref('payment_method'),
    user_phone_number: f.phone({ hideInList: true }),
    comment: f.text({ max: 1000, multiline: true, hideInList: true }),
    order_items: f.lines(orderItem, { min: 1, label: 'field.items', totals: ['total_price'] }),
    items_total: f.money({ compute: (o) => linesTotal(o, 'order_items', 'price') }),
    discount_amount: f.money({ min: '0', default: '0.00' }),
    shipping_price: f.money({ min: '0', default: '0.00' }),
    tax_price: f.money({ min: '0', default: '0.00' }),
    net_amount: f.money({ compute: netOf }),
    paid_amount: f.money({ readOnly: true, default: '0.00' }),
    payment_status: f.choice(ORDER_PAYMENT_STATUSES, { readOnly: true, default: 'unpaid' }),
    is_paid: f.boolean({ readOnly: true, default: false, hideInList: true, label: 'field.fully_paid' }),
    // The contract's answer to a confirmation (`{is_confirmed: true}`): its goods have left, and it is not cancelled.
    is_confirmed: f.boolean({ virtual: true, compute: (o) => CONFIRMED_STATES.includes(o.status as string), sortable: false, hideInList: true }),
    sales_no: f.text({ max: 50, readOnly: true, code: true, hideInList: true }),
    confirmed_at: f.datetime({ readOnly: true, hideInList: true }),
    delivered_at: f.datetime({ readOnly: true, hideInList: true }),
  },
  search: ['order_no', 'user'],
  listColumns: ['order_no', 'order_date', 'user', 'status', 'net_amount', 'paid_amount', 'payment_status'],
  filters: ['status', 'payment_status', 'user', 'branch', 'payment_method', 'order_date'],
  rules: [
    {
      field: 'discount_amount',
      message: 'validation.discount_above_items',
      fields: ['discount_amount', 'order_items'],
      // A discount that is no amount at all is its own field's error, not this one.
      check: (o) => !money.isAmount(o.discount_amount as string) || money.compare(o.discount_amount as string, MONEY_MAX) > 0 || money.compare(o.discount_amount as string, linesTotal(o, 'order_items', 'price')) <= 0,
    },
  ],
  numbering: { field: 'order_no', prefix: 'OR', reset: 'day', date: 'order_date' },
  workflow: {
    field: 'status',
    initial: 'pending',
    // A confirmed order's items may still change (its stock and sale follow); once packed, no more.
    editableIn: ['pending', 'processing', 'confirmed'],
    // The contract's `order_status: {id, name}`: the lookup's row of the same name.
    lookup: { field: 'order_status' },
    transitions: {
      process: { from: ['pending'], to: 'processing' },
      confirm: {
        from: ['pending', 'processing'],
        to: 'confirmed',
        confirm: 'action.confirm_order_question',
        stamp: 'confirmed_at',
        input: {
          pay_amount: f.money({ min: '0', default: '0.00', label: 'field.paid_now' }),
          payment_method: f.ref('payment_method'),
          ledger: f.ref('ledger_account', { label: 'field.received_into' }),
          // The wallet's transaction id (`bkash`, `rocket`, `nagad` in the contract's body).
          bkash: f.text({ max: 100, label: 'field.transaction_id' }),
          rocket: f.text({ max: 100, label: 'field.transaction_id' }),
          nagad: f.text({ max: 100, label: 'field.transaction_id' }),
        },
      },
      pack: { from: ['confirmed'], to: 'packaging' },
      ship: { from: ['packaging'], to: 'on_the_way' },
      deliver: { from: ['on_the_way'], to: 'delivered', stamp: 'delivered_at' },
      cancel: { from: ['pending', 'processing', 'confirmed', 'packaging', 'on_the_way'], to: 'cancelled', confirm: true, tone: 'danger' },
    },
  },
  // The invoice as a PDF, mailed through the outbox (server/domain/orders/invoice-mail.ts): to `to`, else the customer.
  actions: { send_email: { label: 'action.send_invoice', input: { to: f.email({ label: 'field.email' }) } } },
  moves: { number: 'order_no', on: 'confirm', reverseOn: ['cancel'], date: 'confirmed_at', lineCost: { lines: 'order_items', field: 'unit_cost' } },
  posts: { as: 'sales', number: 'sales_no', on: 'confirm', reverseOn: ['cancel'], date: 'confirmed_at' },
  print: {
    header: ['order_no', 'order_date', 'status', 'payment_status', 'sales_no', 'discount_amount', 'shipping_price', 'tax_price', 'net_amount', 'paid_amount'],
    party: { label: 'print.billed_to', of: (o) => ((o._labels as Record<string, unknown> | undefined)?.user as string | undefined) ?? null },
    lines: { field: 'order_items', columns: ['product_name', 'color', 'size', 'quantity', 'price', 'total_price'] },
    totals: ['total_price'],
    amount: 'net_amount',
    signatures: ['print.prepared_by', 'print.received_by'],
    blocks: [
      { entity: 'billingaddress', via: 'order', label: 'print.bill_to', fields: ['name', 'street_address', 'thana', 'city', 'zip_code', 'phone', 'email'] },
      { entity: 'shippingaddress', via: 'order', label: 'print.ship_to', fields: ['name', 'street_address', 'thana', 'city', 'zip_code', 'phone', 'email'] },
    ],
  },
  // `order-managements/orders/{paymentStatus?}` (the spec) — sales, as the dashboard counts them — and the orders still on their way to the customer.
  views: {
    paid: { route: { area: 'order-managements', list: 'orders/paid' }, filter: { status: [...CONFIRMED_STATES], payment_status: 'paid' }, nav: false },
    unpaid: { route: { area: 'order-managements', list: 'orders/unpaid' }, filter: { status: [...CONFIRMED_STATES], payment_status: ['unpaid', 'partial'] }, nav: false },
    incomplete: { route: { area: 'order-managements', list: 'orders/incomplete' }, filter: { status: ['processing', 'confirmed', 'packaging', 'on_the_way'] }, nav: false },
  },
  // Its timeline under its form: who moved it and when, what was paid and refunded, the invoice mailed.
  history: true,
  related: [
    { entity: 'order_payment', via: 'order', columns: ['voucher_no', 'payment_date', 'amount', 'payment_method', 'ledger'] },
    { entity: 'order_refund', via: 'order', columns: ['voucher_no', 'refund_date', 'amount', 'ledger'] },
  ],
  // The storefront's app (`/customerorder/api/v1/customerorder/…`) serves the same orders, but its `create/` adds to a cart (server/domain/orders).
  alsoApi: [{ name: 'customerorder', except: ['create'] }],
  routeAliases: { update_order: 'update', get_a_customer_order: 'read' },
  nav: { group: 'e-commerce', icon: 'receipt', order: 5 },
})

/**
 * Money received for an order (domain-anchors §3.3, checklist 50): a receipt voucher posted
 * under `voucher_no` — Dr the cash or bank ledger it came into (the payment method's, unless
 * named), Cr the customer's ledger. Never more than the order still owes, never for a
 * cancelled one; the order's paid amount and status follow, in the same transaction.
 */
export const orderPayment = defineEntity({
  name: 'order_payment',
  module: 'orders',
  listKey: 'order_payments',
  labelField: 'voucher_no',
  ordering: '-id',
  confidential: true,
  route: { area: 'order-managements', list: 'payments' },
  fields: {
    order: f.ref('order', { required: true, search: true }),
    payment_date: f.date({ initial: 'today' }),
    amount: f.money({ required: true, gt: '0', messages: { above_value: 'validation.amount_above_zero' } }),
    payment_method: f.ref('payment_method'),
    ledger: f.ref('ledger_account', { label: 'field.received_into' }),
    reference: f.text({ max: 100, label: 'field.transaction_id' }),
    voucher_no: f.text({ max: 50, readOnly: true, code: true, search: true }),
  },
  search: ['voucher_no', 'order'],
  listColumns: ['voucher_no', 'payment_date', 'order', 'amount', 'payment_method', 'ledger'],
  filters: ['order', 'payment_method', 'payment_date'],
  rules: [cashOrBankLedger('ledger', 'validation.cash_bank_ledger')],
  posts: { as: 'receipt_voucher', number: 'voucher_no', date: 'payment_date' },
  nav: { group: 'e-commerce', icon: 'payments', order: 6 },
})

/**
 * Money given back for an order (a cancelled order's payments, checklist 48): a payment
 * voucher under `voucher_no` — Dr the customer's ledger, Cr the cash or bank ledger it was
 * paid from. Made by the order's cancellation (read-only over the API), never more than was paid.
 */
export const orderRefund = defineEntity({
  name: 'order_refund',
  module: 'orders',
  listKey: 'order_refunds',
  labelField: 'voucher_no',
  ordering: '-id',
  confidential: true,
  route: { area: 'order-managements', list: 'refunds' },
  fields: {
    order: f.ref('order', { required: true, search: true }),
    refund_date: f.date({ initial: 'today' }),
    amount: f.money({ required: true, gt: '0', messages: { above_value: 'validation.amount_above_zero' } }),
    ledger: f.ref('ledger_account', { required: true, label: 'field.paid_from' }),
    voucher_no: f.text({ max: 50, readOnly: true, code: true, search: true }),
  },
  search: ['voucher_no', 'order'],
  listColumns: ['voucher_no', 'refund_date', 'order', 'amount', 'ledger'],
  filters: ['order', 'refund_date'],
  rules: [cashOrBankLedger('ledger', 'validation.cash_or_bank')],
  posts: { as: 'payment_voucher', number: 'voucher_no', date: 'refund_date' },
  // Made by an order's cancellation, and kept: read-only over the API.
  routes: { create: false, update: false, delete: false, delete_multiple: false },
  nav: { group: 'e-commerce', icon: 'payments', order: 7 },
})
