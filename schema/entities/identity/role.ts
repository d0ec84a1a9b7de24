import { defineEntity, f } from '../../kit'

/** A role and its permissions (api-contract §3.4); built-in ADMIN, STAFF and USER are seeded. */
export const role = defineEntity({
  name: 'role',
  module: 'identity',
  listKey: 'roles',
  ordering: 'name',
  route: { area: 'roles-management', list: 'roles' },
  fields: {
    name: f.text({ max: 255, required: true, unique: true, search: true, normalize: 'upper_snake' }),
    permissions: f.refs('permission'),
  },
  nav: { group: 'user-config', icon: 'admin_panel_settings', order: 2, label: 'nav.roles' },
})
