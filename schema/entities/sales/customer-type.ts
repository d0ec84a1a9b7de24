import { defineEntity, f } from '../../kit'

export const customerType = defineEntity({
  name: 'customer_type',
  module: 'sales',
  listKey: 'customer_types',
  route: { area: 'customerType-management', list: 'customerTypes' },
  fields: {
    name: f.text({ max: 20, required: true, search: true, unique: true, normalize: 'capitalize' }),
  },
  nav: { group: 'settings', icon: 'category', order: 2, label: 'nav.customer_types' },
  trash: true,
})
