import type { AnyEntity, Row } from './entity-api'

/**
 * Rows of an entity that refers to itself (a category's `parent`, a group's `head_group`, a
 * menu item's `parent`) laid out as a tree: the rows in depth-first order, each with its
 * depth and the names of its ancestors, siblings by name. A row whose parent is not among
 * the rows (or that a stored cycle would hide) stands at the root.
 */
export type TreeRow = { row: Row; label: string; depth: number; path: readonly string[] }

/** The field through which an entity's rows hang under one another, if it has one. */
export function selfParentField(entity: AnyEntity): string | undefined {
  return entity.fieldNames.find((n) => entity.fields[n]!.kind === 'ref' && entity.fields[n]!.ref?.target === entity.name)
}

const idOf = (value: unknown): number | null =>
  typeof value === 'number' ? value : typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'number' ? value.id : null

export function treeRows(rows: readonly Row[], parentField: string, labelOf: (row: Row) => string): TreeRow[] {
  const ids = new Set(rows.map((r) => r.id))
  const children = new Map<number | null, Row[]>()
  for (const row of rows) {
    const parent = idOf(row[parentField])
    const key = parent !== null && ids.has(parent) && parent !== row.id ? parent : null
    children.set(key, [...(children.get(key) ?? []), row])
  }
  const out: TreeRow[] = []
  const seen = new Set<number>()
  const visit = (parent: number | null, depth: number, path: readonly string[]) => {
    const list = [...(children.get(parent) ?? [])].sort((a, b) => labelOf(a).localeCompare(labelOf(b)))
    for (const row of list) {
      if (seen.has(row.id)) continue
      seen.add(row.id)
      const label = labelOf(row)
      out.push({ row, label, depth, path })
      visit(row.id, depth + 1, [...path, label])
    }
  }
  visit(null, 0, [])
  // Rows only a cycle reaches (never stored by the server's rules, but not lost if they were).
  for (const row of rows) if (!seen.has(row.id)) out.push({ row, label: labelOf(row), depth: 0, path: [] })
  return out
}

/** The rows whose label contains `text` (any case), with their ancestors so each is seen in its place. */
export function filterTree(tree: readonly TreeRow[], text: string): TreeRow[] {
  const needle = text.trim().toLocaleLowerCase()
  if (needle === '') return [...tree]
  const keep = new Set<number>()
  tree.forEach((node, i) => {
    if (!node.label.toLocaleLowerCase().includes(needle)) return
    keep.add(i)
    // Its ancestors: the nearest earlier rows of each smaller depth.
    let depth = node.depth
    for (let j = i - 1; j >= 0 && depth > 0; j--) {
      if (tree[j]!.depth < depth) {
        keep.add(j)
        depth = tree[j]!.depth
      }
    }
  })
  return tree.filter((_, i) => keep.has(i))
}
