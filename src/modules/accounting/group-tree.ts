/**
 * The chart of accounts as a tree (issue 10): each primary group at the root, its groups
 * under it, each group under its head group. Built from the two plain lists the API gives
 * (`without_pagination/all/`), heads nested as `{id, name}` or given as a raw id.
 */
export type GroupNode = { id: number; name: string; kind: 'primary_group' | 'group'; children: GroupNode[] }

type Head = { id: number } | number | null | undefined
export type GroupRow = { id: number; name: string; head_group?: Head; head_primarygroup?: Head }
export type PrimaryRow = { id: number; name: string }

const idOf = (head: Head): number | null => (head === null || head === undefined ? null : typeof head === 'number' ? head : head.id)
const byName = (a: GroupNode, b: GroupNode) => a.name.localeCompare(b.name)

export function buildGroupTree(primaries: readonly PrimaryRow[], groups: readonly GroupRow[]): GroupNode[] {
  const nodes = new Map(groups.map((g) => [g.id, { id: g.id, name: g.name, kind: 'group' as const, children: [] as GroupNode[] }]))
  const roots = primaries.map((p): GroupNode => ({ id: p.id, name: p.name, kind: 'primary_group', children: [] }))
  const rootOf = new Map(roots.map((r) => [r.id, r]))
  for (const g of groups) {
    const node = nodes.get(g.id)!
    const parent = nodes.get(idOf(g.head_group) ?? Number.NaN) ?? rootOf.get(idOf(g.head_primarygroup) ?? Number.NaN)
    parent?.children.push(node)
  }
  const sort = (list: GroupNode[]): GroupNode[] => {
    list.sort(byName)
    list.forEach((n) => sort(n.children))
    return list
  }
  // Primary groups keep their seeded order (Assets, Liabilities, Expenses, Incomes).
  roots.forEach((r) => sort(r.children))
  return roots
}

/** The nodes whose name contains `needle`, with their ancestors (so that each is seen in its place). */
export function filterGroupTree(nodes: readonly GroupNode[], needle: string): GroupNode[] {
  const text = needle.trim().toLowerCase()
  if (text === '') return [...nodes]
  return nodes.flatMap((n) => {
    const children = filterGroupTree(n.children, text)
    return n.name.toLowerCase().includes(text) || children.length > 0 ? [{ ...n, children }] : []
  })
}
