import { defineEntity, f } from '../../kit'

/**
 * A product's stock (api-contract §4.10 Inventory): what is on hand, its moving-average
 * rate and its value, and the day of its last movement — one row per product, whose id is
 * the product's (`inventory/{productId}`). The stock kernel (server/domain/inventory/stock.ts)
 * keeps it in the transaction that writes the stock ledger, under the row's lock; the
 * database refuses a quantity or a value below zero, whoever writes. Staff set only the
 * product's low-stock threshold (default 5); at or below it the product shows as low.
 */
export const inventory = defineEntity({
  name: 'inventory',
  module: 'inventory',
  confidential: true,
  listKey: 'inventories',
  labelField: 'product',
  ordering: 'product',
  idFrom: 'product',
  route: { area: 'inventory-management', list: 'inventories' },
  fields: {
    product: f.ref('product', { required: true, unique: true, onDelete: 'cascade', search: true }),
    quantity: f.integer({ big: true, min: 0, enforced: true, default: 0, readOnly: true }),
    valuation_rate: f.decimal({ precision: 18, scale: 4, min: '0', enforced: true, default: '0', readOnly: true }),
    stock_value: f.money({ min: '0', enforced: true, default: '0.00', readOnly: true }),
    last_movement_date: f.date({ readOnly: true }),
    // At or below it the product is low on stock (domain-anchors §2.5, checklist 43): the one thing staff set here.
    low_stock_threshold: f.integer({ min: 0, max: 1_000_000_000, default: 5 }),
    is_low_stock: f.boolean({ virtual: true, compute: (stock) => Number(stock.quantity ?? 0) <= Number(stock.low_stock_threshold ?? 5), sortable: false }),
  },
  listColumns: ['product', 'quantity', 'is_low_stock', 'stock_value', 'valuation_rate', 'low_stock_threshold', 'last_movement_date'],
  filters: ['quantity', 'last_movement_date'],
  // Kept by the stock kernel, but for the threshold.
  routes: { create: false, delete: false, delete_multiple: false },
  nav: { group: 'inventory', icon: 'inventory', order: 1 },
})
