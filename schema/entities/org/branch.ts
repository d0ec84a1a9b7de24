import { defineEntity, f } from '../../kit'

export const branch = defineEntity({
  name: 'branch',
  module: 'org',
  listKey: 'branches',
  ordering: 'name',
  route: { area: 'branch-management', list: 'branchs' },
  fields: {
    name: f.text({ max: 50, required: true, search: true, unique: true, normalize: 'capitalize' }),
    short_desc: f.text({ multiline: true, hideInList: true }),
    full_desc: f.text({ multiline: true, hideInList: true }),
    is_active: f.boolean({ default: true }),
    street_address_one: f.text({ max: 255, hideInList: true }),
    street_address_two: f.text({ max: 255, hideInList: true }),
    // Its address: deleting a police station, district or country clears it here rather than being refused.
    thana: f.ref('thana', { label: 'field.police_station', onDelete: 'setNull', within: { city: 'city' } }),
    city: f.ref('city', { label: 'field.district', onDelete: 'setNull', within: { country: 'country' } }),
    country: f.ref('country', { onDelete: 'setNull' }),
    postal_code: f.postalCode(),
  },
  sections: [
    { key: 'details', label: 'section.details', fields: ['name', 'short_desc', 'full_desc', 'is_active'] },
    { key: 'address', label: 'section.address', fields: ['street_address_one', 'street_address_two', 'country', 'city', 'thana', 'postal_code'] },
  ],
  nav: { group: 'settings', icon: 'store', order: 6, label: 'nav.branches', shortcut: true },
  trash: true,
})
