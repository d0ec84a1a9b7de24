import type { MenuItemNode } from '../../shell/navigation'

/** The nodes whose title or address matches, with their ancestors (the menu item list's search). */
export function filterTree(nodes: readonly MenuItemNode[], matches: (node: MenuItemNode) => boolean): MenuItemNode[] {
  return nodes.flatMap((node) => {
    if (matches(node)) return [node]
    const children = filterTree(node.children, matches)
    return children.length > 0 ? [{ ...node, children }] : []
  })
}
