import type { MenuItemNode } from '../../shell/navigation'

/**
 * The menu tree of the role-menu form (api-contract §3.4). What one ticks are the tree's
 * leaves (items, and groups with nothing under them); a group's box shows whether all,
 * some or none of its leaves are ticked. A role's rows are the ticked leaves and every
 * ancestor of one, which is what the server's nested menu by role groups under.
 */
export type TickState = 'checked' | 'mixed' | 'unchecked'

/** The leaves under a node, or the node itself when it has no children. */
export function leafIds(node: MenuItemNode): number[] {
  return node.children.length === 0 ? [node.id] : node.children.flatMap(leafIds)
}

export function allLeafIds(nodes: readonly MenuItemNode[]): number[] {
  return nodes.flatMap(leafIds)
}

export function tickState(node: MenuItemNode, ticked: ReadonlySet<number>): TickState {
  const leaves = leafIds(node)
  const count = leaves.filter((id) => ticked.has(id)).length
  return count === 0 ? 'unchecked' : count === leaves.length ? 'checked' : 'mixed'
}

/** Ticks every leaf under the node, or clears them when all are ticked. */
export function toggleNode(ticked: ReadonlySet<number>, node: MenuItemNode): Set<number> {
  const leaves = leafIds(node)
  const next = new Set(ticked)
  const isAll = leaves.every((id) => ticked.has(id))
  for (const id of leaves) {
    if (isAll) next.delete(id)
    else next.add(id)
  }
  return next
}

/** The leaves of `tree` that a role's (prefilled) menu holds. */
export function tickedOf(tree: readonly MenuItemNode[], roleMenu: readonly MenuItemNode[]): Set<number> {
  const held = new Set<number>()
  const walk = (nodes: readonly MenuItemNode[]) => {
    for (const n of nodes) {
      held.add(n.id)
      walk(n.children)
    }
  }
  walk(roleMenu)
  return new Set(allLeafIds(tree).filter((id) => held.has(id)))
}

/** The rows to save: the ticked leaves and their ancestors, in id order. */
export function assignedIds(tree: readonly MenuItemNode[], ticked: ReadonlySet<number>): number[] {
  const out = new Set<number>()
  const walk = (node: MenuItemNode, ancestors: readonly number[]): void => {
    if (node.children.length === 0) {
      if (ticked.has(node.id)) for (const id of [...ancestors, node.id]) out.add(id)
      return
    }
    for (const child of node.children) walk(child, [...ancestors, node.id])
  }
  for (const node of tree) walk(node, [])
  return [...out].sort((a, b) => a - b)
}

/** The nodes whose title or address contains the text, with their ancestors. */
export function filterTree(nodes: readonly MenuItemNode[], matches: (node: MenuItemNode) => boolean): MenuItemNode[] {
  return nodes.flatMap((node) => {
    if (matches(node)) return [node]
    const children = filterTree(node.children, matches)
    return children.length > 0 ? [{ ...node, children }] : []
  })
}
