import type { ScreenMap } from '../../engine/form/extension'

/**
 * The identity module's screens, by entity (issue 3): what the generic list and form do
 * not. Each part loads with its route.
 *
 * - users and employees: the generic form with uniqueness checks as one types;
 * - roles: the generic form with the permissions grouped by entity;
 * - role menus: the generic list and form — a role's menu is a document whose lines are its
 *   menu items, ticked in the engine's tree, which the menu gives its own order and words;
 * - menu items: the list as the nested menu.
 */
export const identityScreens: ScreenMap = {
  user: { formExtension: () => import('./user-form').then((m) => m.userFormExtension) },
  employee: { formExtension: () => import('./user-form').then((m) => m.userFormExtension) },
  role: { formExtension: () => import('./role-form').then((m) => m.roleFormExtension) },
  role_menu: { formExtension: () => import('./role-menu-form').then((m) => m.roleMenuFormExtension) },
  menu_item: { list: () => import('./MenuItemList').then((m) => m.MenuItemList) },
}
