import type { AnyEntity } from '../engine/entity-api'
import type { IconName } from '../engine/ui/icons'
import { paths } from '../app/paths'

/**
 * The side navigation, as data (spec §2 item shape). Built from the registry plus a small
 * grouping table; a registered entity that no group names still appears, under "Other".
 * The server's role menus will replace the grouping table without changing the shape.
 */
export type NavigationType = 'group' | 'collapse' | 'item' | 'link' | 'divider'

export type NavigationItem = {
  id: string
  title: string
  translate?: string
  type: NavigationType
  icon?: IconName
  url?: string
  badge?: { title: string; bg?: string; fg?: string }
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
  entities: readonly { name: string; icon: IconName }[]
}

export const navigationGroups: readonly NavigationGroup[] = [
  {
    id: 'employee-management',
    title: 'Employee Management',
    translate: 'nav.employee_management',
    entities: [
      { name: 'department', icon: 'building' },
      { name: 'designation', icon: 'badge' },
    ],
  },
  {
    id: 'settings',
    title: 'Settings',
    translate: 'nav.settings',
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

export function buildNavigation(entities: readonly AnyEntity[], groups: readonly NavigationGroup[] = navigationGroups): NavigationItem[] {
  const byName = new Map(entities.map((e) => [e.name, e]))
  const placed = new Set<string>()
  const items: NavigationItem[] = [
    { id: 'dashboards', title: 'Dashboards', translate: 'nav.dashboards', type: 'item', icon: 'dashboard', url: paths.dashboard },
  ]
  for (const group of groups) {
    const children = group.entities.flatMap(({ name, icon }) => {
      const entity = byName.get(name)
      if (!entity) return []
      placed.add(name)
      return [entityItem(entity, icon)]
    })
    if (children.length > 0) items.push({ id: group.id, title: group.title, translate: group.translate, type: 'group', children })
  }
  const rest = entities.filter((e) => !placed.has(e.name)).map((e) => entityItem(e, 'folder'))
  if (rest.length > 0) items.push({ id: 'other', title: 'Other', translate: 'nav.other', type: 'group', children: rest })
  return items
}

/** Spec §6: no auth list = everyone; an empty list = guests only; else the role must match. */
export function isVisibleTo(item: NavigationItem, role: string | null): boolean {
  if (!item.auth) return true
  if (item.auth.length === 0) return role === null
  return role !== null && item.auth.includes(role)
}
