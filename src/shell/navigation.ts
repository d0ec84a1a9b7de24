import type { AnyEntity } from '../engine/entity-api'
import type { IconName } from '../engine/ui/icons'
import { paths } from '../app/paths'
import { languages } from '../i18n'

/**
 * The navigation, as data (spec §2 item shape: id, title, translate, type, icon, url,
 * badge, children, exact, target). Built from the registry plus a small grouping table; a
 * registered entity that no group names still appears, under "Other". The server's role
 * menus will replace the grouping table without changing the shape.
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

export type NavigationGroup = {
  id: string
  title: string
  translate: string
  icon: IconName
  entities: readonly { name: string; icon: IconName }[]
}

export const navigationGroups: readonly NavigationGroup[] = [
  {
    id: 'employee-management',
    title: 'Employee Management',
    translate: 'nav.employee_management',
    icon: 'users',
    entities: [
      { name: 'department', icon: 'building' },
      { name: 'designation', icon: 'badge' },
    ],
  },
  {
    id: 'settings',
    title: 'Settings',
    translate: 'nav.settings',
    icon: 'cog',
    entities: [
      { name: 'country', icon: 'globe' },
      { name: 'city', icon: 'map' },
      { name: 'thana', icon: 'shield' },
      { name: 'branch', icon: 'store' },
      { name: 'customer_type', icon: 'users' },
    ],
  },
]

function entityItem(entity: AnyEntity, icon: IconName): NavigationItem {
  return { id: entity.name, title: entity.name, translate: `${entity.labelKey}.other`, type: 'item', icon, url: entity.ui.listPath }
}

/** The shell's own pages, after the modules. */
function pageItems(): NavigationItem[] {
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

export function buildNavigation(entities: readonly AnyEntity[], groups: readonly NavigationGroup[] = navigationGroups): NavigationItem[] {
  const byName = new Map(entities.map((e) => [e.name, e]))
  const placed = new Set<string>()
  const items: NavigationItem[] = [
    {
      id: 'applications',
      title: 'Applications',
      translate: 'nav.applications',
      type: 'group',
      icon: 'dashboard',
      children: [
        {
          id: 'dashboards',
          title: 'Dashboards',
          translate: 'nav.dashboards',
          type: 'collapse',
          icon: 'dashboard',
          children: [{ id: 'dashboards.project', title: 'Project', translate: 'nav.project', type: 'item', icon: 'chart', url: paths.dashboard, exact: true }],
        },
      ],
    },
  ]
  for (const group of groups) {
    const children = group.entities.flatMap(({ name, icon }) => {
      const entity = byName.get(name)
      if (!entity) return []
      placed.add(name)
      return [entityItem(entity, icon)]
    })
    if (children.length > 0) items.push({ id: group.id, title: group.title, translate: group.translate, type: 'group', icon: group.icon, children })
  }
  const rest = entities.filter((e) => !placed.has(e.name)).map((e) => entityItem(e, 'folder'))
  if (rest.length > 0) items.push({ id: 'other', title: 'Other', translate: 'nav.other', type: 'group', icon: 'folder', children: rest })
  return [...items, ...pageItems()]
}

/** Spec §6: no auth list = everyone; an empty list = guests only; else the role must match. */
export function isVisibleTo(item: NavigationItem, role: string | null): boolean {
  if (!item.auth) return true
  if (item.auth.length === 0) return role === null
  return role !== null && item.auth.includes(role)
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
