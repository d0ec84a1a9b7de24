import { defineEntity, f } from '../../kit'

export const branch = defineEntity({
  name: 'branch',
  module: 'org',
  listKey: 'branches',
  ordering: 'name',
  route: { area: 'branch-management', list: 'branchs' },
  fields: {
    name: f.text({ max: 50, required: true, search: true, normalize: 'capitalize' }),
    short_desc: f.text({ multiline: true, hideInList: true }),
    full_desc: f.text({ multiline: true, hideInList: true }),
    is_active: f.boolean({ default: true }),
    street_address_one: f.text({ max: 255, hideInList: true }),
    street_address_two: f.text({ max: 255, hideInList: true }),
    thana: f.ref('thana', { label: 'field.police_station' }),
    city: f.ref('city', { label: 'field.district' }),
    country: f.ref('country'),
    postal_code: f.text({ max: 50 }),
  },
  nav: { group: 'settings', icon: 'store', order: 6, label: 'nav.branches', shortcut: true },
})
