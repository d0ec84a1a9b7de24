import { defineEntity, f } from '../../kit'

export const designation = defineEntity({
  name: 'designation',
  module: 'org',
  listKey: 'designations',
  ordering: 'name',
  route: { area: 'designation-management', list: 'designations' },
  fields: {
    name: f.text({ max: 255, required: true, search: true, unique: true, normalize: 'title' }),
  },
  nav: { group: 'employee-management', icon: 'badge', order: 3, label: 'nav.designations' },
})
