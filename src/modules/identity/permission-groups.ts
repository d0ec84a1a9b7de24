import { actions } from '../../../schema/kit'
import type { AnyEntity } from '../../engine/entity-api'

/**
 * Permissions grouped by the entity they are about (the role form): `THANA_LIST` and
 * `THANA_CREATE` under Police Stations. A name is matched against the registry's
 * permission prefixes, the longest first (`USER_PARTIAL_UPDATE` is a user permission);
 * names of no registered entity group by what comes before their last `_`.
 */
export type PermissionRow = { id: number; name: string }
export type PermissionItem = PermissionRow & { action: string }
export type PermissionGroup = { key: string; entity: AnyEntity | null; items: PermissionItem[] }

const actionOrder = (action: string) => {
  const i = (actions as readonly string[]).indexOf(action)
  return i === -1 ? actions.length : i
}

export function groupPermissions(rows: readonly PermissionRow[], entities: readonly AnyEntity[]): PermissionGroup[] {
  const prefixes = [...entities].sort((a, b) => b.permission.length - a.permission.length)
  const groups = new Map<string, PermissionGroup>()
  for (const row of rows) {
    const entity = prefixes.find((e) => row.name.startsWith(`${e.permission}_`)) ?? null
    const cut = entity ? entity.permission.length : Math.max(row.name.lastIndexOf('_'), 0)
    const key = row.name.slice(0, cut) || row.name
    const action = row.name.slice(cut).replace(/^_/, '') || row.name
    const group = groups.get(key) ?? { key, entity, items: [] }
    group.items.push({ ...row, action })
    groups.set(key, group)
  }
  const registryOrder = (g: PermissionGroup) => (g.entity ? entities.indexOf(g.entity) : entities.length)
  return [...groups.values()]
    .map((g) => ({ ...g, items: g.items.sort((a, b) => actionOrder(a.action) - actionOrder(b.action) || a.action.localeCompare(b.action)) }))
    .sort((a, b) => registryOrder(a) - registryOrder(b) || a.key.localeCompare(b.key))
}

/** `PARTIAL_UPDATE` → "Partial update", `SALES_CLERK` → "Sales clerk". */
export function humanize(name: string): string {
  const words = name.toLowerCase().replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** Ticks every item of a group, or clears them all when all are ticked. */
export function toggleGroup(selected: readonly number[], group: PermissionGroup): number[] {
  const ids = group.items.map((i) => i.id)
  const isAll = ids.every((id) => selected.includes(id))
  const next = isAll ? selected.filter((id) => !ids.includes(id)) : [...new Set([...selected, ...ids])]
  return next.sort((a, b) => a - b)
}
