import { ORDER_PAYMENT_STATUSES } from '../entities/orders/order'
import { ORDER_STATUSES } from '../entities/orders/order-status'
import { defineReport, f, rules } from '../kit'

/**
 * The order report with profit and its summary (issue 24; api-contract §6; domain-anchors
 * §3.4, rules 48 and 51; spec `/apps/report-management/order-reports`,
 * `order-summary-reports`). An order counts once it is a sale that stands — confirmed,
 * packed, on its way or delivered — the states its goods have left the stock in and each
 * line's `unit_cost` was snapshotted: a cart still pending or processing has no cost yet,
 * so its profit would be its whole revenue, and a cancelled order's sale is reversed
 * (rule 48). Revenue is the goods less the order's discount, tax and shipping excluded.
 */
export const SALE_STATUSES = ['confirmed', 'packaging', 'on_the_way', 'delivered'] as const satisfies readonly (typeof ORDER_STATUSES)[number][]

const filters = {
  date_after: f.date({ label: 'field.date_after' }),
  date_before: f.date({ label: 'field.date_before' }),
  status: f.choice(SALE_STATUSES, { label: 'field.status' }),
  payment_status: f.choice(ORDER_PAYMENT_STATUSES, { label: 'field.payment_status' }),
  user: f.ref('customer', { label: 'field.customer' }),
  branch: f.ref('branch'),
}

const figures = {
  revenue: f.money({ label: 'field.revenue' }),
  cost: f.money({ label: 'field.cost' }),
  profit: f.money({ label: 'field.profit' }),
  // Per cent to two places; none for an order (or a period) that brought in nothing.
  margin: f.decimal({ precision: 12, scale: 2, money: false, label: 'field.margin_percent' }),
}

const period = [rules.notAfter('date_after', 'date_before', 'validation.date_order')]

export const orderReport = defineReport({
  name: 'order_report',
  module: 'orders',
  route: 'order-reports',
  contract: { path: '/report/api/v1/order_report_with_profit/filter/', key: 'orders' },
  params: filters,
  columns: {
    order_no: f.text({ code: true, label: 'field.order_no' }),
    order_date: f.date({ label: 'field.order_date' }),
    customer: f.text({ label: 'field.customer' }),
    branch: f.text({ label: 'field.branch' }),
    status: f.choice(ORDER_STATUSES, { label: 'field.status' }),
    payment_status: f.choice(ORDER_PAYMENT_STATUSES, { label: 'field.payment_status' }),
    ...figures,
  },
  // An order's number opens the order.
  hidden: { order_id: f.integer() },
  drill: { order_no: { entity: 'order', id: 'order_id' } },
  totals: ['revenue', 'cost', 'profit'],
  ordering: ['order_date', 'order_no'],
  rules: period,
  nav: { group: 'reports', icon: 'point_of_sale', order: 40 },
})

export const orderSummaryReport = defineReport({
  name: 'order_summary_report',
  module: 'orders',
  route: 'order-summary-reports',
  contract: { path: '/summary_report/api/v1/order_summary_report/filter/', key: 'order_summary' },
  // A day or a month a row: a year of days is a few hundred rows, read whole.
  paged: false,
  params: { ...filters, group_by: f.choice(['day', 'month'], { default: 'day', label: 'field.group_by' }) },
  columns: {
    period: f.text({ code: true, label: 'field.period' }),
    orders: f.integer({ big: true, label: 'field.order_count' }),
    items_sold: f.integer({ big: true, label: 'field.items_sold' }),
    ...figures,
    paid_amount: f.money({ label: 'field.paid_amount' }),
  },
  totals: ['orders', 'items_sold', 'revenue', 'cost', 'profit', 'paid_amount'],
  chart: { kind: 'line', label: 'period', values: ['revenue', 'cost', 'profit'] },
  ordering: ['period'],
  rules: period,
  nav: { group: 'reports', icon: 'point_of_sale', order: 41 },
})
