import type { MaterialIcon, NavEntry } from '../../schema/navigation'
import type { Report } from '../../schema/kit/report'
import type { AnyEntity } from '../engine/entity-api'
import type { IconName } from '../engine/ui/icons'
import { paths } from '../app/paths'
import { isOwnAction } from '../auth/access'
import { languages } from '../i18n'

/**
 * The navigation, as data (spec §2 item shape: id, title, translate, type, icon, url,
 * badge, children, exact, target). It comes from the server's menu for the user's role
 * (`nested_menu_item_by_user_role/`, api-contract §3.4), adapted to this shape and filtered
 * again by the user's permissions; the shell's own pages follow. When the menu cannot be
 * read, the registry gives one (`registryNavigation` of `navigationEntries`), filtered the
 * same way.
 *
 * Types: a `group` is a heading over its children; a `collapse` opens and closes its
 * children; an `item` is a route of the app; a `link` is a plain address (`target` may
 * open it in a new tab); a `divider` is a rule.
 */
export type NavigationType = 'group' | 'collapse' | 'item' | 'link' | 'divider'

export type NavigationBadge = { title: string; bg?: string; fg?: string }

export type NavigationItem = {
  id: string
  title: string
  translate?: string
  type: NavigationType
  icon?: IconName
  url?: string
  badge?: NavigationBadge
  children?: NavigationItem[]
  exact?: boolean
  target?: string
  /** Roles that see the item; absent = everyone (spec §6). */
  auth?: readonly string[]
}

/**
 * The template's demonstration pages (Example, Documentation › Multi language) are a
 * developer's, not the product's: their routes stay (spec), their menu entries only with
 * `VITE_TEMPLATE_PAGES=true` at build time.
 */
const showsTemplatePages = import.meta.env.VITE_TEMPLATE_PAGES === 'true'

/**
 * The sidebar of someone the back-office gives nothing to list (a registered USER: their
 * role has no menu): their welcome page, the lists of their own rows (their tickets) and
 * their profile, not an empty bar (issues 20, 23).
 */
export function personalItems(entries: readonly NavEntry[] = []): NavigationItem[] {
  // The lists every user has of their own rows (`own`: their tickets), which need no permission.
  const own = entries.filter((e) => e.type === 'item' && e.permission === undefined && e.url !== undefined && e.url !== paths.dashboard)
  return [
    { id: 'home', title: 'Home', translate: 'nav.home', type: 'item', icon: 'dashboard', url: paths.dashboard },
    ...own.map(itemOf),
    { id: 'profile', title: 'My Profile', translate: 'profile.title', type: 'item', icon: 'userCircle', url: paths.profile },
  ]
}

/** The shell's own pages, after the modules: none in the product's menu (see showsTemplatePages). */
export function pageItems(withTemplatePages = showsTemplatePages): NavigationItem[] {
  if (!withTemplatePages) return []
  return [
    { id: 'divider-pages', title: '', type: 'divider' },
    {
      id: 'pages',
      title: 'Pages',
      translate: 'nav.pages',
      type: 'group',
      icon: 'document',
      children: [
        { id: 'example', title: 'Example', translate: 'nav.example', type: 'item', icon: 'document', url: paths.example },
        {
          id: 'documentation',
          title: 'Documentation',
          translate: 'nav.documentation',
          type: 'collapse',
          icon: 'book',
          children: [
            {
              id: 'documentation.multi-language',
              title: 'Multi language',
              translate: 'nav.multi_language',
              type: 'item',
              icon: 'language',
              url: paths.multiLanguageDocs,
              // How many interface languages there are.
              badge: { title: String(languages.length), bg: '#0d9488', fg: '#ffffff' },
            },
            { id: 'documentation.example-tab', title: 'Example in a new tab', translate: 'nav.example_new_tab', type: 'link', icon: 'arrowTopEnd', url: paths.example, target: '_blank' },
          ],
        },
      ],
    },
  ]
}

/** A registry navigation entry in the navigation's shape. */
const itemOf = (entry: NavEntry): NavigationItem => ({
  id: entry.menuId,
  title: entry.label,
  translate: entry.label,
  type: entry.type,
  icon: iconOf(entry.icon, entry.type),
  ...(entry.url ? { url: entry.url, exact: true } : {}),
})

/**
 * The registry's navigation (schema/navigation.ts) in the navigation's shape: its pages
 * (the dashboard) and groups at the top in their order, each group with its entities'
 * lists and reports in theirs — what the server seeds the menu with, for when the menu
 * cannot be read — then the shell's own pages. Ids are the menu ids the server's rows carry (`city`,
 * `report-staff_costs`), so pinned shortcuts find their item either way.
 */
export function registryNavigation(entries: readonly NavEntry[]): NavigationItem[] {
  const top = entries.filter((e) => e.parent === undefined)
  const items = top.flatMap((entry): NavigationItem[] => {
    if (entry.type !== 'group') return [itemOf(entry)]
    const children = entries.filter((e) => e.parent === entry.key).map(itemOf)
    return children.length > 0 ? [{ ...itemOf(entry), children }] : []
  })
  return [...items, ...pageItems()]
}

/** Spec §6: no auth list = everyone; an empty list = guests only; else the role must match. */
export function isVisibleTo(item: NavigationItem, role: string | null): boolean {
  if (!item.auth) return true
  if (item.auth.length === 0) return role === null
  return role !== null && item.auth.includes(role)
}

/** An item's label: its translation, or its title when the catalogue has no such key (a menu row an admin added). */
export function labelOf(t: (key: string, options: { defaultValue: string }) => string, item: Pick<NavigationItem, 'translate' | 'title'>): string {
  return item.translate ? t(item.translate, { defaultValue: item.title }) : item.title
}

/** Every item and link with an address, depth first (the shortcuts search runs over these). */
export function flattenNavigation(items: readonly NavigationItem[]): NavigationItem[] {
  return items.flatMap((item) => [...(item.url && (item.type === 'item' || item.type === 'link') ? [item] : []), ...flattenNavigation(item.children ?? [])])
}

/** Lower case without accents, so 'Türkçe' matches 'turkce' (spec §5). */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/ı/g, 'i')
    .toLocaleLowerCase('en')
}

export const MAX_SUGGESTIONS = 10

/** Spec §5: at most 10 matches, on the title, ignoring case and accents. */
export function searchNavigation<T extends { title: string }>(items: readonly T[], query: string, max: number = MAX_SUGGESTIONS): T[] {
  const needle = foldForSearch(query.trim())
  if (needle === '') return []
  return items.filter((item) => foldForSearch(item.title).includes(needle)).slice(0, max)
}

// ---------------------------------------------------------------- the server's menu

/** A row of the server's nested menu (api-contract §3.4). */
export type MenuItemNode = {
  id: number
  parent: number | null
  menu_id: string | null
  title: string | null
  translate: string
  type: NavigationType
  icon: string | null
  url: string | null
  exact: boolean
  children: MenuItemNode[]
}

/**
 * Menu rows and the registry's `nav` carry Material icon names (as the original's rows
 * did); the shell draws its own. Every name the registry uses is here (a test checks).
 */
export const iconOfMaterial: Readonly<Record<MaterialIcon, IconName>> = {
  dashboard: 'dashboard',
  people: 'users',
  person: 'user',
  person_outline: 'user',
  account_circle: 'userCircle',
  manage_accounts: 'users',
  business: 'building',
  badge: 'badge',
  school: 'book',
  article: 'document',
  description: 'document',
  receipt: 'receipt',
  menu: 'menu',
  menu_open: 'menu',
  list: 'list',
  image: 'camera',
  label: 'badge',
  rss_feed: 'document',
  settings: 'cog',
  tune: 'adjustments',
  category: 'folder',
  folder: 'folder',
  public: 'globe',
  location_city: 'map',
  local_police: 'shield',
  store: 'store',
  warehouse: 'building',
  inventory: 'list',
  vpn_key: 'key',
  admin_panel_settings: 'shield',
  support: 'info',
  support_agent: 'info',
  slideshow: 'camera',
  point_of_sale: 'store',
  account_balance: 'building',
  local_shipping: 'map',
  assessment: 'report',
  history: 'clock',
  payments: 'banknotes',
  map: 'map',
}

/** An item without a known icon gets a folder; a group may go without. */
function iconOf(name: string | null | undefined, type: string): IconName | undefined {
  return (name ? (iconOfMaterial as Readonly<Record<string, IconName>>)[name] : undefined) ?? (type === 'item' ? 'folder' : undefined)
}

const isNavigationType = (v: unknown): v is NavigationType => v === 'group' || v === 'collapse' || v === 'item' || v === 'link' || v === 'divider'

/** The server's menu in the navigation's shape. */
export function adaptMenu(nodes: readonly MenuItemNode[]): NavigationItem[] {
  return nodes.flatMap((node) => {
    if (!isNavigationType(node.type)) return []
    const children = adaptMenu(node.children ?? [])
    const item: NavigationItem = {
      id: node.menu_id || `menu-${node.id}`,
      title: node.title || node.translate,
      translate: node.translate || undefined,
      type: node.type,
      icon: iconOf(node.icon, node.type),
      url: node.url || undefined,
      exact: node.exact,
    }
    return [children.length > 0 ? { ...item, children } : item]
  })
}

export type NavigationAccess = {
  entities: readonly AnyEntity[]
  /** The reports with a screen; none when absent. */
  reports?: readonly Report[]
  can: (permission: string) => boolean
}

/** The shell's fixed pages any signed-in user with a role may open. */
const shellPages: ReadonlySet<string> = new Set([paths.dashboard, paths.example, paths.multiLanguageDocs, paths.profile, paths.inbox])

/**
 * What the user may open (decisions.md: the role's menu, filtered again by permission):
 * an item that opens a registry list needs that entity's LIST permission — none for its own
 * list when everyone lists their own rows of it (`own`: a customer's tickets), as the server's
 * menu has it — one
 * that opens a report the report's VIEW permission; an item whose address is no screen of
 * this app is left out (its module is not built yet); a group or collapse left without
 * children goes too. Links (plain addresses) and dividers stay.
 */
export function filterNavigation(items: readonly NavigationItem[], access: NavigationAccess): NavigationItem[] {
  const permissionOf = new Map([
    ...access.entities.flatMap((e) => [
      [e.ui.listPath, isOwnAction(e, 'LIST') ? null : e.permissions.LIST] as const,
      // A view is a department's queue (staff work): its permission, own rows or not.
      ...Object.values(e.views).map((v) => [v.ui.listPath, e.permissions.LIST] as const),
    ]),
    ...(access.reports ?? []).map((r) => [r.ui.path, r.permission] as const),
  ])
  const keep = (item: NavigationItem): NavigationItem | null => {
    if (item.type === 'group' || item.type === 'collapse') {
      const children = (item.children ?? []).map(keep).filter((c): c is NavigationItem => c !== null)
      return children.some((c) => c.type !== 'divider') ? { ...item, children } : null
    }
    if (item.type !== 'item' || !item.url) return item.type === 'link' && !item.url ? null : item
    const permission = permissionOf.get(item.url)
    if (permission === null) return item
    if (permission !== undefined) return access.can(permission) ? item : null
    return shellPages.has(item.url) ? item : null
  }
  return items.map(keep).filter((i): i is NavigationItem => i !== null)
}
