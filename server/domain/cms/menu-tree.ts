import type { Row } from '../../db/types'

/** A menu of the nested tree the site reads (api-contract §4.4, `get_all_nested_cms_menu/`). */
export type NestedMenu = { id: number; name: string; parent: number | null; children: NestedMenu[]; position: number | null }

const parentIdOf = (row: Row): number | null => {
  const parent = row.parent as { id: number } | number | null
  return parent === null || parent === undefined ? null : typeof parent === 'object' ? parent.id : parent
}

/**
 * The menus as a tree: the roots, each with its sub menus, recursively, every level in the
 * order of the rows given (by position). A row whose parent is not among them (another
 * caller's scope, say) is left out with its branch; a cycle cannot be stored, and a walk
 * that met one would still end (each menu is placed once).
 */
export function nestMenus(rows: readonly Row[]): NestedMenu[] {
  const childrenOf = new Map<number | null, Row[]>()
  for (const row of rows) {
    const parent = parentIdOf(row)
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), row])
  }
  const placed = new Set<number>()
  const build = (row: Row): NestedMenu => {
    const id = Number(row.id)
    placed.add(id)
    const children = (childrenOf.get(id) ?? []).filter((c) => !placed.has(Number(c.id))).map(build)
    return { id, name: String(row.name), parent: parentIdOf(row), children, position: (row.position as number | null) ?? null }
  }
  return (childrenOf.get(null) ?? []).map(build)
}
