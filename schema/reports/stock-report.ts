import { defineReport, f, rules } from '../kit'

/**
 * The stock report (spec `/apps/report-management/stocks-reports`; api-contract §6, also at
 * `summary_report/…/inventory_summary_report/filter/`): ERPNext's stock balance
 * (domain-anchors §2.5, checklist 43–44) — per product its opening, ins, outs and closing in
 * units and value over a period, and the rate of what is left, from the stock ledger's day
 * totals (server/domain/inventory/stock-balance.ts). Beside them what is available now and
 * whether it is low, by the same condition as the dashboard's low-stock count. Orders take
 * their goods out of stock when confirmed rather than reserving them, so nothing is reserved:
 * available is what is on hand. The period is this month up to today unless asked otherwise.
 */
export const stockReport = defineReport({
  name: 'stock_report',
  module: 'inventory',
  route: 'stocks-reports',
  contract: { path: '/summary_report/api/v1/inventory_summary_report/filter/', key: 'inventories' },
  params: {
    date_after: f.date({ label: 'field.date_after' }),
    date_before: f.date({ label: 'field.date_before' }),
    product: f.ref('product'),
    // A category takes in its sub-categories.
    category: f.ref('category'),
    low_stock_only: f.boolean({ default: false, label: 'field.low_stock_only' }),
  },
  columns: {
    product_name: f.text({ label: 'field.product' }),
    product_code: f.text({ code: true }),
    category: f.text(),
    opening_quantity: f.integer({ label: 'field.opening_quantity' }),
    opening_value: f.money({ label: 'field.opening_value' }),
    in_quantity: f.integer({ label: 'field.in_quantity' }),
    in_value: f.money({ label: 'field.in_value' }),
    out_quantity: f.integer({ label: 'field.out_quantity' }),
    out_value: f.money({ label: 'field.out_value' }),
    closing_quantity: f.integer({ label: 'field.closing_quantity' }),
    closing_value: f.money({ label: 'field.closing_value' }),
    valuation_rate: f.decimal({ precision: 18, scale: 4 }),
    available: f.integer({ label: 'field.available_now' }),
    is_low_stock: f.boolean(),
  },
  // A product opens its form (its stock history is on it); the chart shows where the stock's value lies.
  hidden: { product_id: f.integer() },
  drill: { product_name: { entity: 'product', id: 'product_id' } },
  chart: { kind: 'bar', label: 'product_name', values: ['closing_value'] },
  totals: ['opening_quantity', 'opening_value', 'in_quantity', 'in_value', 'out_quantity', 'out_value', 'closing_quantity', 'closing_value', 'available'],
  ordering: ['product_name', 'product_code'],
  rules: [rules.notAfter('date_after', 'date_before', 'validation.date_order')],
  nav: { group: 'reports', icon: 'inventory', order: 50 },
})
