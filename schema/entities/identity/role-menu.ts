import { defineEntity, f, rules } from '../../kit'

/** One item of a role's menu: a line of the role menu. */
export const roleMenuItem = defineEntity({
  name: 'role_menu_item',
  module: 'identity',
  lineOf: 'role_menu',
  labelField: 'menu_item',
  fields: {
    menu_item: f.ref('menu_item', { required: true, onDelete: 'cascade' }),
  },
})

/**
 * Which menu items a role sees (api-contract §3.4): a document per role — its id is the
 * role's, so the contract's `delete/{role_id}` and the list's ids name the same record —
 * whose lines are the menu items. The contract's list shows the role by name;
 * `create/` `{role, menu_items: [ids]}` replaces the role's menu and `delete/{role_id}`
 * removes it, with the contract's messages (the identity module serves those two).
 */
export const roleMenu = defineEntity({
  name: 'role_menu',
  module: 'identity',
  listKey: 'role_menus',
  labelField: 'role',
  ordering: 'role',
  idFrom: 'role',
  route: { area: 'roleMenu-management', list: 'roleMenus' },
  fields: {
    role: f.ref('role', { required: true, unique: true, onDelete: 'cascade', search: true, listAs: 'label' }),
    menu_items: f.lines(roleMenuItem, { scalar: 'menu_item' }),
    item_count: f.integer({ compute: (menu) => (Array.isArray(menu.menu_items) ? menu.menu_items.length : 0) }),
  },
  rules: [rules.distinct('menu_items', 'menu_item', 'validation.duplicate_line')],
  routes: { create: 'bespoke', delete: 'bespoke' },
  nav: { group: 'user-config', icon: 'menu_open', order: 4, label: 'nav.role_menus' },
})
