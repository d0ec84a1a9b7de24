import type { ScreenMap } from '../../engine/form/extension'

/**
 * The identity module's screens, by entity (issue 3): what the generic list and form do
 * not. Each part loads with its route. (Role menus are the generic list and form: a role's
 * menu is a document whose lines are its menu items.)
 *
 * - users and employees: the generic form with uniqueness checks as one types;
 * - roles: the generic form with the permissions grouped by entity;
 * - menu items: the list as the nested menu.
 */
export const identityScreens: ScreenMap = {
  user: { formExtension: () => import('./user-form').then((m) => m.userFormExtension) },
  employee: { formExtension: () => import('./user-form').then((m) => m.employeeFormExtension) },
  role: { formExtension: () => import('./role-form').then((m) => m.roleFormExtension) },
  menu_item: { list: () => import('./MenuItemList').then((m) => m.MenuItemList) },
}
