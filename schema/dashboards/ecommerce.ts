import { defineWidget } from '../kit/widget'

/**
 * The e-commerce dashboards (api-contract §6; domain-anchors §3.5): the contract's routes as
 * widgets over confirmed, not cancelled orders — each a query of server/domain/orders/widgets.ts.
 */
const orderRow = { order_no: 'text', customer: 'text', status: 'status', net_amount: 'money' } as const
const dueRow = { order_no: 'text', customer: 'text', status: 'status', due_amount: 'money' } as const

export const ecommerceWidgets = [
  defineWidget({ name: 'paid_orders', dashboard: 'project', kind: 'figure', reads: 'order', route: 'get_total_count_of_paid_orders', link: { entity: 'order', view: 'paid' }, format: 'integer', order: 10 }),
  defineWidget({ name: 'unpaid_orders', dashboard: 'project', kind: 'figure', reads: 'order', route: 'get_total_count_of_unpaid_orders', link: { entity: 'order', view: 'unpaid' }, format: 'integer', order: 20 }),
  defineWidget({ name: 'customers', dashboard: 'project', kind: 'figure', reads: 'customer', route: 'get_total_count_of_customers', link: { entity: 'customer' }, order: 30 }),
  defineWidget({ name: 'low_stock_products', dashboard: 'project', kind: 'figure', reads: 'inventory', route: 'get_total_count_of_low_stock_products', link: { entity: 'inventory' }, order: 40 }),
  defineWidget({ name: 'order_totals', dashboard: 'project', kind: 'pie', reads: 'order', route: 'get_order_totals', answerKey: 'order_totals', format: 'integer', order: 50 }),
  defineWidget({ name: 'best_sellers_by_amount', dashboard: 'project', kind: 'bar', reads: 'order', route: 'get_best_seller_by_amount', answerKey: 'best_sellers', format: 'money', order: 60 }),
  defineWidget({ name: 'best_sellers_by_quantity', dashboard: 'project', kind: 'bar', reads: 'order', route: 'get_best_seller_by_quantity', answerKey: 'best_sellers', format: 'integer', order: 70 }),
  defineWidget({ name: 'categorized_order_items', dashboard: 'project', kind: 'pie', reads: 'order', route: 'get_all_categorized_order_item_count', answerKey: 'categories', format: 'integer', order: 80 }),
  defineWidget({ name: 'latest_orders', dashboard: 'project', kind: 'list', reads: 'order', route: 'get_all_latest_orders', answerKey: 'orders', link: { entity: 'order' }, columns: orderRow, order: 90 }),
  defineWidget({ name: 'incomplete_orders', dashboard: 'project', kind: 'list', reads: 'order', route: 'get_all_incomplete_orders', answerKey: 'orders', link: { entity: 'order', view: 'incomplete' }, columns: orderRow, order: 100 }),
  defineWidget({ name: 'paid_order_list', dashboard: 'project', kind: 'list', reads: 'order', route: 'get_all_paid_orders', answerKey: 'orders', link: { entity: 'order', view: 'paid' }, columns: orderRow, order: 110 }),
  defineWidget({ name: 'unpaid_order_list', dashboard: 'project', kind: 'list', reads: 'order', route: 'get_all_unpaid_orders', answerKey: 'orders', link: { entity: 'order', view: 'unpaid' }, columns: dueRow, order: 120 }),
  defineWidget({ name: 'low_stock_list', dashboard: 'project', kind: 'list', reads: 'inventory', route: 'get_all_low_stock_products', answerKey: 'products', link: { entity: 'inventory' }, columns: { name: 'text', quantity: 'integer', low_stock_alert: 'integer' }, order: 130 }),
  defineWidget({ name: 'sales_over_time', dashboard: 'analytics', kind: 'line', reads: 'order', format: 'money', order: 10, span: 4 }),
  defineWidget({ name: 'sales_by_category', dashboard: 'analytics', kind: 'bar', reads: 'order', format: 'money', order: 20, span: 2 }),
  defineWidget({ name: 'orders_by_status', dashboard: 'analytics', kind: 'pie', reads: 'order', format: 'integer', order: 30, span: 2 }),
]
