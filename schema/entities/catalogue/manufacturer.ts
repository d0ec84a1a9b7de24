import { defineEntity, f } from '../../kit'

/**
 * A product's manufacturer (api-contract §4.8, fields inferred). §2.6 gives it no rule: its
 * name keeps its own capitals ("LG Electronics"), only the first letter is raised.
 */
export const manufacturer = defineEntity({
  name: 'manufacturer',
  module: 'catalogue',
  listKey: 'manufacturers',
  route: { area: 'manufacturer-management', list: 'manufacturers' },
  fields: {
    name: f.text({ max: 255, required: true, search: true, unique: true, normalize: 'capitalize' }),
    image: f.image(),
    details: f.text({ multiline: true, hideInList: true }),
  },
  listColumns: ['image', 'name'],
  // Its products.
  related: [{ entity: 'product', via: 'manufacturer', columns: ['name', 'product_code', 'category', 'brand', 'unit_price'] }],
  nav: { group: 'e-commerce', icon: 'business', order: 4 },
  trash: true,
})
