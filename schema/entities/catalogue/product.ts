import { defineEntity, f } from '../../kit'

/**
 * A product of the catalogue (api-contract §4.8), its name kept in Title Case (§2.6). Prices
 * are money: decimal strings on the wire, NUMERIC(20,2) in SQL (architecture §3). Its colours
 * and sizes are many-to-many links of the product itself; the contract's `productcolor` and
 * `productsize` resources are served over them (server/domain/catalogue/product-options.ts).
 * Its gallery is `productimage`, its discount `discount`.
 */
export const product = defineEntity({
  name: 'product',
  module: 'catalogue',
  listKey: 'products',
  // The spec's routes: the list at /apps/e-commerce/products, a product at /apps/e-commerce/product/{id}/{name?}.
  route: { area: 'e-commerce', list: 'products', form: 'product' },
  fields: {
    name: f.text({ max: 255, required: true, search: true, normalize: 'title' }),
    // The storefront's code (a SKU): no two products share one; reads left to right in Arabic.
    product_code: f.text({ max: 50, unique: true, search: true, code: true }),
    thumbnail: f.image(),
    short_desc: f.text({ multiline: true, hideInList: true }),
    full_desc: f.text({ multiline: true, hideInList: true }),
    condition: f.choice(['new', 'used']),
    // The original clears a product's brand or category when that row goes (SET_NULL): the product stays on sale.
    category: f.ref('category', { onDelete: 'setNull', search: true }),
    brand: f.ref('brand', { onDelete: 'setNull', search: true }),
    manufacturer: f.ref('manufacturer', { onDelete: 'setNull' }),
    // Who supplies it: a vendor with products cannot be deleted by surprise (the default, restrict).
    vendor: f.ref('vendor'),
    colors: f.refs('color'),
    sizes: f.refs('size'),
    unit_price: f.money({ default: '0.00', min: '0' }),
    old_price: f.money({ min: '0' }),
    // The low-stock threshold (decisions.md: default 5): the dashboard counts products at or below it.
    low_stock_alert: f.integer({ default: 5, min: 0 }),
    // Units on hand, from its stock row (server/domain/inventory): what an order's product search shows; the stock ledger audits it.
    in_stock: f.integer({ virtual: true, compute: () => null, sortable: false, hideInList: true, audited: false }),
    is_popular: f.boolean({ default: false }),
    is_new_arrival: f.boolean({ default: false }),
    is_under_discount: f.boolean({ default: false }),
    is_verified: f.boolean({ default: false }),
    // Who verified it: set by the server when the flag is turned on, cleared when it is turned off.
    verified_by: f.ref('user', { readOnly: true, onDelete: 'setNull', hideInList: true }),
  },
  listColumns: ['thumbnail', 'name', 'product_code', 'category', 'brand', 'unit_price', 'old_price', 'is_popular', 'is_new_arrival', 'is_under_discount', 'is_verified'],
  filters: ['category', 'brand', 'manufacturer', 'vendor', 'condition', 'unit_price', 'is_popular', 'is_new_arrival', 'is_under_discount', 'is_verified'],
  sections: [
    { key: 'details', label: 'section.details', fields: ['name', 'product_code', 'thumbnail', 'short_desc', 'full_desc', 'condition'] },
    { key: 'classification', label: 'section.classification', fields: ['category', 'brand', 'manufacturer', 'vendor', 'colors', 'sizes'] },
    { key: 'pricing', label: 'section.pricing', fields: ['unit_price', 'old_price', 'low_stock_alert'] },
    { key: 'flags', label: 'section.flags', fields: ['is_popular', 'is_new_arrival', 'is_under_discount', 'is_verified'] },
  ],
  // Its movement history (issue 21): the stock ledger's rows of the product, newest first.
  related: [{ entity: 'stock_ledger', via: 'product', columns: ['movement_date', 'reference_type', 'reference_no', 'quantity', 'unit_cost', 'quantity_after', 'stock_value_after'] }],
  nav: { group: 'e-commerce', icon: 'store', order: 1 },
})
