import type { ScreenMap } from '../../engine/form/extension'

/**
 * The identity module's screens, by entity (issue 3): what the generic list and form do
 * not. Each part loads with its route.
 *
 * - users and employees: the generic form with uniqueness checks as one types and a
 *   password confirmation on create;
 * - roles: the generic form with the permissions grouped by entity;
 * - role menus: a list of roles and a form that ticks items in the menu tree;
 * - menu items: the list as the nested menu.
 */
export const identityScreens: ScreenMap = {
  user: { formExtension: () => import('./user-form').then((m) => m.userFormExtension) },
  employee: { formExtension: () => import('./user-form').then((m) => m.employeeFormExtension) },
  role: { formExtension: () => import('./role-form').then((m) => m.roleFormExtension) },
  role_menu: {
    list: () => import('./RoleMenuList').then((m) => m.RoleMenuList),
    form: () => import('./RoleMenuForm').then((m) => m.RoleMenuForm),
  },
  menu_item: { list: () => import('./MenuItemList').then((m) => m.MenuItemList) },
}
