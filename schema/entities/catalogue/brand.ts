import { defineEntity, f } from '../../kit'

/** A product brand (api-contract §4.8); its name is kept in Title Case (§2.6). */
export const brand = defineEntity({
  name: 'brand',
  module: 'catalogue',
  listKey: 'brands',
  route: { area: 'brand-management', list: 'brands' },
  fields: {
    name: f.text({ max: 255, required: true, search: true, unique: true, normalize: 'title' }),
    image: f.image(),
    is_featured_brand: f.boolean({ default: false }),
  },
  listColumns: ['image', 'name', 'is_featured_brand'],
  // Its products.
  related: [{ entity: 'product', via: 'brand', columns: ['name', 'product_code', 'category', 'unit_price', 'is_verified'] }],
  nav: { group: 'e-commerce', icon: 'label', order: 3 },
  trash: true,
})
