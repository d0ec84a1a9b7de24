import { sql } from 'kysely'
import { can } from '../../auth/principal'
import type { Executor, Trx } from '../../db/types'
import type { Actor } from '../../engine/hooks'
import type { Registry } from '../../engine/list-query'
import { validateRecord } from '../../engine/validate'

/**
 * The navigation menu (api-contract §3.4, spec §2): its seed, and the trees the menu routes
 * answer. A menu node is `{id, parent, menu_id, title, translate, type, icon, url, exact,
 * children}` with `parent` the parent's id. Icons are Material icon names, as the original's
 * menu rows held; `translate` keys live in the browser's `nav` catalogue.
 */
export type MenuRow = {
  id: number
  parent: number | null
  menu_id: string | null
  title: string | null
  translate: string
  type: 'group' | 'collapse' | 'item' | 'link' | 'divider'
  icon: string | null
  url: string | null
  exact: boolean
}
export type MenuNode = MenuRow & { children: MenuNode[] }

type SeedItem = { menu_id: string; title: string; translate: string; type: MenuRow['type']; icon: string; url?: string; children?: SeedItem[] }

const item = (menu_id: string, title: string, key: string, icon: string, url: string): SeedItem => ({ menu_id, title, translate: `nav.${key}`, type: 'item', icon, url })
const group = (menu_id: string, title: string, key: string, icon: string, children: SeedItem[]): SeedItem => ({ menu_id, title, translate: `nav.${key}`, type: 'group', icon, children })

/**
 * The spec's sidebar (§2), in its order. Registered entities the spec's sidebar does not
 * name (designations, countries, customer types) join the group of their area so that every
 * screen stays reachable; menu items sit in User Config (decisions.md).
 */
export const MENU_SEED: readonly SeedItem[] = [
  item('dashboards', 'Dashboards', 'dashboards', 'dashboard', '/apps/dashboards/project'),
  group('employee-management', 'Employee Management', 'employee_management', 'people', [
    item('employees', 'Employees', 'employees', 'person', '/apps/employee-management/employees'),
    item('departments', 'Departments', 'departments', 'business', '/apps/department-management/departments'),
    item('designations', 'Designations', 'designations', 'badge', '/apps/designation-management/designations'),
    item('qualifications', 'Qualifications', 'qualifications', 'school', '/apps/qualification-management/qualifications'),
  ]),
  group('content-management', 'Content Management', 'content_management', 'article', [
    item('cms-menus', 'Cms Menus', 'cms_menus', 'menu', '/apps/menu-management/menus'),
    item('contents', 'Content', 'contents', 'description', '/apps/content-management/contents'),
    item('cms-images', 'Cms Image', 'cms_images', 'image', '/apps/image-management/images'),
    item('cms-meta-data', 'Cms Meta Data', 'cms_meta_data', 'label', '/apps/meta-management/metas'),
  ]),
  group('blogs-group', 'Blogs', 'blogs', 'rss_feed', [item('blogs', 'Blogs', 'blogs', 'rss_feed', '/apps/blog-management/blogs')]),
  group('settings', 'Settings', 'settings', 'settings', [
    item('customers', 'Customers', 'customers', 'person_outline', '/apps/customer-management/customers'),
    item('customer-types', 'Customer Types', 'customer_types', 'category', '/apps/customerType-management/customerTypes'),
    item('countries', 'Countries', 'countries', 'public', '/apps/country-management/countries'),
    item('districts', 'Districts', 'districts', 'location_city', '/apps/city-management/cities'),
    item('police-stations', 'Police Stations', 'police_stations', 'local_police', '/apps/thana-management/thanas'),
    item('branches', 'Branches', 'branches', 'store', '/apps/branch-management/branchs'),
    item('shipping-addresses', 'Shipping Address', 'shipping_addresses', 'local_shipping', '/apps/shippingAddress-management/shippingAddresses'),
    item('site-settings', 'Site Settings', 'site_settings', 'tune', '/apps/sitesettings-management/sitesettings'),
    item('slider-settings', 'Slider Setting', 'slider_settings', 'slideshow', '/apps/slidersetting-management/slidersettings'),
  ]),
  group('user-config', 'User Config', 'user_config', 'manage_accounts', [
    item('permissions', 'Permissions', 'permissions', 'vpn_key', '/apps/permission-management/permissions'),
    item('roles', 'Roles', 'roles', 'admin_panel_settings', '/apps/roles-management/roles'),
    item('users', 'User List', 'users', 'account_circle', '/apps/users-management/userslist'),
    item('role-menus', 'Role Menus', 'role_menus', 'menu_open', '/apps/roleMenu-management/roleMenus'),
    item('menu-items', 'Menu Items', 'menu_items', 'list', '/apps/menuItem-management/menuItems'),
  ]),
  group('support-ticket', 'Support Ticket', 'support_ticket', 'support', [
    item('supports', 'Supports', 'supports', 'support_agent', '/apps/support-management/supports'),
    item('sales', 'Sales', 'sales_tickets', 'point_of_sale', '/apps/sale-management/sales'),
    // The misspelling is the spec's route.
    item('accounts', 'Accounts', 'account_tickets', 'account_balance', '/apps/acccount-management/accounts'),
  ]),
]

/** Inserts the seed menu (through the registry's validation) and assigns every item to the given roles. */
export async function seedMenu(trx: Trx, registry: Registry, roleIds: readonly number[]): Promise<void> {
  const menuItem = registry.find((e) => e.name === 'menu_item')!
  const ids: number[] = []
  const insert = async (seed: SeedItem, parent: number | null) => {
    const { children, ...fields } = seed
    const values = validateRecord(menuItem, { ...fields, parent, exact: true })
    const r = await sql<{ id: number }>`
      insert into menu_item (parent, menu_id, title, translate, type, icon, url, exact)
      values (${values.parent as number | null}, ${values.menu_id as string}, ${values.title as string}, ${values.translate as string},
              ${values.type as string}, ${values.icon as string}, ${(values.url as string | null) ?? null}, ${values.exact as boolean})
      returning id`.execute(trx)
    const id = r.rows[0]!.id
    ids.push(id)
    for (const child of children ?? []) await insert(child, id)
  }
  for (const seed of MENU_SEED) await insert(seed, null)
  for (const roleId of roleIds) {
    await sql`insert into role_menu (role, menu_item) select ${roleId}, unnest(${ids}::bigint[])`.execute(trx)
  }
}

export async function menuRows(db: Executor): Promise<MenuRow[]> {
  const r = await sql<MenuRow>`select id, parent, menu_id, title, translate, type, icon, url, exact from menu_item order by id`.execute(db)
  return r.rows
}

/** The menu item ids assigned to a role. */
export async function roleMenuIds(db: Executor, roleId: number): Promise<Set<number>> {
  const r = await sql<{ menu_item: number }>`select menu_item from role_menu where role = ${roleId}`.execute(db)
  return new Set(r.rows.map((x) => x.menu_item))
}

const node = (row: MenuRow): MenuNode => ({ ...row, children: [] })

/** The whole menu as a tree: roots (no parent) with their children, recursively, by id. */
export function nestMenu(rows: readonly MenuRow[]): MenuNode[] {
  const nodes = new Map(rows.map((r) => [r.id, node(r)]))
  const roots: MenuNode[] = []
  for (const r of rows) {
    const parent = r.parent === null ? undefined : nodes.get(r.parent)
    if (parent) parent.children.push(nodes.get(r.id)!)
    else roots.push(nodes.get(r.id)!)
  }
  return roots
}

/**
 * A role's menu, grouped two levels deep (api-contract §3.4): each assigned root item, or the
 * parent of an assigned child, appears once, with the assigned children under it; by id.
 */
export function roleMenu(rows: readonly MenuRow[], assigned: ReadonlySet<number>): MenuNode[] {
  const byId = new Map(rows.map((r) => [r.id, r]))
  const tops = new Map<number, MenuNode>()
  for (const r of rows) {
    if (!assigned.has(r.id)) continue
    const parent = r.parent === null ? undefined : byId.get(r.parent)
    if (!parent) {
      if (!tops.has(r.id)) tops.set(r.id, node(r))
      continue
    }
    let top = tops.get(parent.id)
    if (!top) tops.set(parent.id, (top = node(parent)))
    top.children.push(node(r))
  }
  return [...tops.values()].sort((a, b) => a.id - b.id)
}

/**
 * The caller's sidebar: their role's menu, filtered again by permission (decisions.md): an
 * item that opens a registry entity's list is left out without that entity's LIST
 * permission, and a group or collapse left without children goes too.
 */
export function visibleMenu(menu: readonly MenuNode[], registry: Registry, principal: Actor): MenuNode[] {
  const listPermission = new Map(registry.map((e) => [e.ui.listPath, e.permissions.LIST]))
  const keep = (n: MenuNode): MenuNode | null => {
    const needed = n.url ? listPermission.get(n.url) : undefined
    if (needed && !can(principal, needed)) return null
    const children = n.children.map(keep).filter((c): c is MenuNode => c !== null)
    if ((n.type === 'group' || n.type === 'collapse') && children.length === 0) return null
    return { ...n, children }
  }
  return menu.map(keep).filter((n): n is MenuNode => n !== null)
}
