import { defineEntity, f } from '../../kit'

/**
 * Which menu items a role sees (api-contract §3.4). `create/` replaces a role's rows,
 * `all/` lists one row per role and `delete/{role_id}` removes a role's rows: the identity
 * module serves those; there is no update (the form posts `create/` again).
 */
export const roleMenu = defineEntity({
  name: 'role_menu',
  module: 'identity',
  listKey: 'role_menus',
  labelField: 'role',
  route: { area: 'roleMenu-management', list: 'roleMenus' },
  fields: {
    role: f.ref('role', { required: true, onDelete: 'cascade' }),
    menu_item: f.ref('menu_item', { required: true, onDelete: 'cascade' }),
  },
  routes: { all: 'bespoke', create: 'bespoke', delete: 'bespoke', update: false, delete_multiple: false },
})
