import { defineEntity, f, rules } from '../../kit'

/**
 * A product's discount (api-contract §4.8): one per product (the reference is unique), a
 * whole percent from 0 to 100, and a period whose end is not before its start. The contract's
 * `get_a_discount_by_product_id/{id}` is server/domain/catalogue/discount-routes.ts.
 */
export const discount = defineEntity({
  name: 'discount',
  module: 'catalogue',
  listKey: 'discounts',
  labelField: 'product',
  route: { area: 'discount-management', list: 'discounts' },
  fields: {
    product: f.ref('product', { required: true, unique: true, onDelete: 'cascade', search: true }),
    discount_percent: f.integer({ required: true, min: 0, max: 100 }),
    start_date: f.date(),
    end_date: f.date(),
  },
  rules: [rules.notAfter('start_date', 'end_date', 'validation.discount_dates')],
  nav: { group: 'e-commerce', icon: 'payments', order: 8 },
})
