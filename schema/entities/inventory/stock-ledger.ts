import { defineEntity, f } from '../../kit'

/**
 * What moved stock: the documents that write the stock ledger. A document that `moves` stock
 * (the engine writes its entity's name here) adds its name, and an `option.<name>` label; the
 * registry check refuses one that is not here.
 */
export const stockReferenceTypes = ['stock_adjustment', 'purchase_final', 'order'] as const

/**
 * The stock ledger (domain-anchors §2.2, checklist 39): one row per movement of a product —
 * its signed quantity, the unit cost it came in or left at, the value it changed by, and
 * the product's quantity, moving-average rate and stock value after it — written only by
 * the stock kernel (server/domain/inventory/stock.ts), in the transaction of the document
 * that moved it. Append-only, as the general ledger: a cancelled document is undone by
 * reversing rows (`reverses`, at most once each), and the database refuses any change.
 * (`stockLedgerOf`: the same ledger naming other documents — a test's own.)
 */
export const stockLedgerOf = (referenceTypes: readonly [string, ...string[]]) =>
  defineEntity({
    name: 'stock_ledger',
    module: 'inventory',
    confidential: true,
    appendOnly: true,
    listKey: 'stock_ledgers',
    labelField: 'reference_no',
    ordering: '-id',
    route: { area: 'stockLedger-management', list: 'stockLedgers' },
    fields: {
      product: f.ref('product', { required: true, search: true }),
      movement_date: f.date({ required: true }),
      // In (+) or out (−); never zero.
      quantity: f.integer({ required: true, big: true }),
      unit_cost: f.decimal({ precision: 18, scale: 4, min: '0', default: '0' }),
      value_change: f.money({ required: true }),
      quantity_after: f.integer({ required: true, big: true, min: 0, enforced: true }),
      valuation_rate_after: f.decimal({ precision: 18, scale: 4, min: '0', enforced: true, default: '0' }),
      stock_value_after: f.money({ required: true, min: '0', enforced: true }),
      reference_type: f.choice(referenceTypes, { required: true }),
      reference_id: f.integer({ big: true, min: 1, required: true, hideInList: true }),
      // The document's number (`SA20261127001`).
      reference_no: f.text({ max: 50, required: true, search: true, code: true }),
      // The row this one undoes; a row is undone at most once.
      reverses: f.ref('stock_ledger', { unique: true, hideInList: true }),
    },
    search: ['reference_no', 'product'],
    listColumns: ['movement_date', 'reference_no', 'reference_type', 'product', 'quantity', 'unit_cost', 'value_change', 'quantity_after', 'valuation_rate_after', 'stock_value_after'],
    filters: ['movement_date', 'reference_type', 'product'],
    // Written by the stock kernel only.
    routes: { create: false, update: false, delete: false, delete_multiple: false },
    nav: { group: 'inventory', icon: 'history', order: 2 },
  })

export const stockLedger = stockLedgerOf(stockReferenceTypes)
