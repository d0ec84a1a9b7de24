import type { Entity, Fields } from './kit'
import type { Report } from './kit/report'

/**
 * The navigation, derived from the registry (spec §2): the groups of the sidebar and the
 * shell's own pages are declared here; every entity and report places itself in a group
 * with its `nav`. The server keeps the menu rows in step with this at every start (adding
 * what is missing, leaving what admins edited); the browser falls back to it when the menu
 * cannot be read. Icons are Material icon names, as the original's menu rows held.
 */
/**
 * The Material icon names the shell can draw (src/shell/navigation.ts maps each to its own
 * icon; the type makes it map them all). A registry `nav.icon` must be one of them: the
 * start-up check says so.
 */
export const materialIcons = [
  'dashboard', 'people', 'person', 'person_outline', 'account_circle', 'manage_accounts', 'business', 'badge', 'school',
  'article', 'description', 'receipt', 'menu', 'menu_open', 'list', 'image', 'label', 'rss_feed', 'settings', 'tune',
  'category', 'folder', 'public', 'location_city', 'local_police', 'store', 'vpn_key', 'admin_panel_settings', 'support',
  'support_agent', 'slideshow', 'point_of_sale', 'account_balance', 'local_shipping', 'assessment', 'history', 'payments', 'map', 'warehouse', 'inventory',
] as const
export type MaterialIcon = (typeof materialIcons)[number]

export type NavGroup = { readonly id: string; readonly label: string; readonly icon: string; readonly order: number }

/** The spec's sidebar groups, in its order; `other` takes entities that name no group. */
export const navGroups: readonly NavGroup[] = [
  { id: 'employee-management', label: 'nav.employee_management', icon: 'people', order: 10 },
  { id: 'content-management', label: 'nav.content_management', icon: 'article', order: 20 },
  { id: 'blogs-group', label: 'nav.blogs', icon: 'rss_feed', order: 30 },
  { id: 'e-commerce', label: 'nav.e_commerce', icon: 'store', order: 35 },
  { id: 'purchasing', label: 'nav.purchasing', icon: 'local_shipping', order: 36 },
  { id: 'inventory', label: 'nav.inventory', icon: 'warehouse', order: 37 },
  { id: 'membership', label: 'nav.membership', icon: 'people', order: 38 },
  { id: 'settings', label: 'nav.settings', icon: 'settings', order: 40 },
  { id: 'accounting', label: 'nav.accounting', icon: 'account_balance', order: 45 },
  { id: 'user-config', label: 'nav.user_config', icon: 'manage_accounts', order: 50 },
  { id: 'support-ticket', label: 'nav.support_ticket', icon: 'support', order: 60 },
  { id: 'reports', label: 'nav.reports', icon: 'assessment', order: 70 },
  { id: 'other', label: 'nav.other', icon: 'folder', order: 90 },
]

/** Pages of the shell that stand in the menu at the top level. */
export type NavPage = { readonly id: string; readonly label: string; readonly icon: string; readonly url: string; readonly order: number; readonly shortcut?: boolean }

export const navPages: readonly NavPage[] = [{ id: 'dashboards', label: 'nav.dashboards', icon: 'dashboard', url: '/apps/dashboards/project', order: 0, shortcut: true }]

/**
 * One menu entry as the registry declares it. `key` identifies it across starts: the server
 * adds an entry once and then leaves it to the admins (who may move, rename or remove it).
 * `permission` is what a user needs to see it (none for groups and shell pages).
 */
export type NavEntry = {
  key: string
  menuId: string
  label: string
  icon: string
  type: 'group' | 'item'
  url?: string
  /** The group's `key`, for items inside a group. */
  parent?: string
  order: number
  permission?: string
  isShortcut: boolean
}

/** What a user needs to see an entity's list in the menu: its LIST permission, or nothing where every user lists their own rows (`own`). */
const listPermissionOf = (e: Entity<string, Fields>): string | undefined => (e.own?.actions.includes('LIST') ? undefined : e.permissions.LIST)

export function navigationEntries(entities: readonly Entity<string, Fields>[], reports: readonly Report[] = []): NavEntry[] {
  const items: NavEntry[] = [
    ...entities.flatMap((e): NavEntry[] =>
      e.nav
        ? [{ key: `entity:${e.name}`, menuId: e.name, label: e.nav.label ?? `${e.labelKey}.other`, icon: e.nav.icon, type: 'item', url: e.ui.listPath, parent: `group:${e.nav.group}`, order: e.nav.order ?? 100, permission: listPermissionOf(e), isShortcut: e.nav.shortcut ?? false }]
        : [],
    ),
    // An entity's list views (`views`): each its own entry, for those who may list the entity.
    ...entities.flatMap((e): NavEntry[] =>
      Object.values(e.views).flatMap((v) =>
        v.nav ? [{ key: `view:${e.name}.${v.name}`, menuId: `${e.name}-${v.name}`, label: v.label, icon: v.nav.icon, type: 'item', url: v.ui.listPath, parent: `group:${v.nav.group}`, order: v.nav.order ?? 100, permission: e.permissions.LIST, isShortcut: v.nav.shortcut ?? false }] : [],
      ),
    ),
    ...reports.flatMap((r): NavEntry[] =>
      r.nav
        ? [{ key: `report:${r.name}`, menuId: `report-${r.name}`, label: r.nav.label ?? r.labelKey, icon: r.nav.icon, type: 'item', url: r.ui.path, parent: `group:${r.nav.group}`, order: r.nav.order ?? 100, permission: r.permission, isShortcut: r.nav.shortcut ?? false }]
        : [],
    ),
  ]
  const used = new Set(items.map((i) => i.parent))
  const groups = navGroups
    .filter((g) => used.has(`group:${g.id}`))
    .map((g): NavEntry => ({ key: `group:${g.id}`, menuId: g.id, label: g.label, icon: g.icon, type: 'group', order: g.order, isShortcut: false }))
  const pages = navPages.map((p): NavEntry => ({ key: `page:${p.id}`, menuId: p.id, label: p.label, icon: p.icon, type: 'item', url: p.url, order: p.order, isShortcut: p.shortcut ?? false }))
  const byOrder = (a: NavEntry, b: NavEntry) => a.order - b.order || a.key.localeCompare(b.key)
  return [...[...pages, ...groups].sort(byOrder), ...items.sort(byOrder)]
}
