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
  // The employees who hold it.
  related: [{ entity: 'employee', via: 'designation', columns: ['first_name', 'last_name', 'emp_id_no', 'department', 'branch', 'is_active'] }],
  nav: { group: 'employee-management', icon: 'badge', order: 3, label: 'nav.designations' },
  trash: true,
})
