import { defineEntity, f } from '../../kit'

/**
 * A permission name `ENTITY_ACTION` (api-contract §3.4). The server seeds one per registry
 * entity and action at every start; admins may add others. A seeded one is not deletable
 * (`is_deletable`, kept by the server): it would come back at the next start.
 */
export const permission = defineEntity({
  name: 'permission',
  module: 'identity',
  listKey: 'permissions',
  ordering: 'name',
  route: { area: 'permission-management', list: 'permissions' },
  fields: {
    name: f.text({ max: 255, required: true, unique: true, search: true, normalize: 'upper_snake' }),
    is_deletable: f.boolean({ default: true, readOnly: true, hideInList: true }),
  },
  builtIn: { field: 'is_deletable', values: [false], message: 'detail.built_in_permission' },
  nav: { group: 'user-config', icon: 'vpn_key', order: 1, label: 'nav.permissions' },
})
