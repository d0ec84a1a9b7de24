import { defineEntity, f, rules } from '../../kit'

/**
 * One product of a stock adjustment: either what was counted (`counted_quantity`: the
 * difference from what is on hand when it is confirmed moves) or a change of so many units
 * (`quantity`: + found, − lost or broken). Units found come in at `unit_cost`, or at the
 * product's moving average when it gives none.
 */
export const stockAdjustmentItem = defineEntity({
  name: 'stock_adjustment_item',
  module: 'inventory',
  lineOf: 'stock_adjustment',
  labelField: 'product',
  fields: {
    product: f.ref('product', { required: true }),
    counted_quantity: f.integer({ min: 0, max: 1_000_000_000 }),
    quantity: f.integer({ min: -1_000_000_000, max: 1_000_000_000, label: 'field.quantity_change' }),
    unit_cost: f.decimal({ precision: 18, scale: 4, min: '0' }),
  },
  rules: [
    rules.exactlyOne(['counted_quantity', 'quantity'], 'validation.count_or_change'),
    { field: 'quantity', message: 'validation.stock_quantity', params: () => ({ max: 1_000_000_000 }), fields: ['quantity'], check: (v) => v.quantity === null || v.quantity === undefined || v.quantity !== 0 },
  ],
})

/**
 * A stock adjustment (issue 21; ERPNext's Stock Reconciliation and Material Issue/Receipt
 * in one): a draft names products and what was counted or changed, with a reason; confirming
 * it moves the stock (server/domain/inventory, the kernel — never below zero) and posts the
 * value it changed as a journal: Dr Stock In Hand / Cr Stock Adjustment when stock was found,
 * the other way when it was lost; a count that found what was on hand posts nothing.
 * Cancelling a confirmed one undoes both, refused once what it brought in has gone out.
 */
export const stockAdjustment = defineEntity({
  name: 'stock_adjustment',
  module: 'inventory',
  listKey: 'stock_adjustments',
  labelField: 'number',
  ordering: '-id',
  route: { area: 'stockAdjustment-management', list: 'stockAdjustments' },
  fields: {
    number: f.text({ max: 30, readOnly: true, search: true, code: true, label: 'field.invoice_no' }),
    adjustment_date: f.date({ initial: 'today', label: 'field.date' }),
    reason: f.text({ max: 255, required: true, search: true }),
    status: f.choice(['draft', 'confirmed', 'cancelled'], { default: 'draft' }),
    journal_no: f.text({ max: 50, readOnly: true, code: true }),
    items: f.lines(stockAdjustmentItem, { min: 1, label: 'field.items' }),
  },
  search: ['number', 'reason'],
  listColumns: ['number', 'adjustment_date', 'reason', 'status', 'journal_no'],
  filters: ['status', 'adjustment_date'],
  rules: [rules.distinct('items', 'product', 'validation.duplicate_line')],
  numbering: { field: 'number', prefix: 'ADJ', reset: 'day', date: 'adjustment_date' },
  workflow: {
    field: 'status',
    initial: 'draft',
    editableIn: ['draft'],
    transitions: {
      confirm: { from: ['draft'], to: 'confirmed', confirm: true },
      cancel: { from: ['draft', 'confirmed'], to: 'cancelled', confirm: true, tone: 'danger' },
    },
  },
  moves: { number: 'number', on: 'confirm', reverseOn: ['cancel'], date: 'adjustment_date' },
  posts: { as: 'journal', number: 'journal_no', on: 'confirm', reverseOn: ['cancel'], date: 'adjustment_date' },
  nav: { group: 'inventory', icon: 'tune', order: 3 },
})
