import { defineEntity, f } from '../../kit'

/** The roles access is built on (see server/domain/identity/access.ts), seeded at start. */
export const BUILT_IN_ROLES = ['ADMIN', 'STAFF', 'USER'] as const

/** A role and its permissions (api-contract §3.4); built-in ADMIN, STAFF and USER are seeded. */
export const role = defineEntity({
  name: 'role',
  module: 'identity',
  listKey: 'roles',
  ordering: 'name',
  route: { area: 'roles-management', list: 'roles' },
  fields: {
    name: f.text({ max: 255, required: true, unique: true, search: true, normalize: 'upper_snake' }),
    // The contract gives a role's permissions as ids, in lists too (the original client shows them as they come).
    permissions: f.refs('permission', { listAs: 'id' }),
  },
  // What access is built on: renaming or deleting them would strand every account that holds them.
  builtIn: { field: 'name', values: BUILT_IN_ROLES, message: 'detail.built_in_role' },
  nav: { group: 'user-config', icon: 'admin_panel_settings', order: 2, label: 'nav.roles' },
})
