import { defineEntity, f } from '../../kit'

/**
 * A product's stock (api-contract §4.10 Inventory): what is on hand, its moving-average
 * rate and its value, and the day of its last movement — one row per product, whose id is
 * the product's (`inventory/{productId}`). The stock kernel (server/domain/inventory/stock.ts)
 * keeps it in the transaction that writes the stock ledger, under the row's lock; the
 * database refuses a quantity or a value below zero, whoever writes. At or below the
 * product's low-stock alert (default 5) it shows as low.
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
    // The product's own threshold (its `low_stock_alert`, default 5) and whether what is on hand is at or
    // below it (domain-anchors §2.5, checklist 43): read with the row (server/domain/inventory, afterRead).
    low_stock_alert: f.integer({ virtual: true, compute: () => null, sortable: false }),
    is_low_stock: f.boolean({ virtual: true, compute: () => false, sortable: false }),
  },
  listColumns: ['product', 'quantity', 'is_low_stock', 'stock_value', 'valuation_rate', 'low_stock_alert', 'last_movement_date'],
  filters: ['quantity', 'last_movement_date'],
  // Kept by the stock kernel only.
  routes: { create: false, update: false, delete: false, delete_multiple: false },
  nav: { group: 'inventory', icon: 'inventory', order: 1 },
})
