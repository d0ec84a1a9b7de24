import { defineEntity, f } from '../../kit'

export const department = defineEntity({
  name: 'department',
  module: 'org',
  listKey: 'departments',
  ordering: 'name',
  route: { area: 'department-management', list: 'departments' },
  fields: {
    name: f.text({ max: 255, required: true, search: true, unique: true, normalize: 'capitalize' }),
  },
  // Its employees.
  related: [{ entity: 'employee', via: 'department', columns: ['first_name', 'last_name', 'emp_id_no', 'designation', 'branch', 'is_active'] }],
  nav: { group: 'employee-management', icon: 'business', order: 2, label: 'nav.departments' },
  trash: true,
})
