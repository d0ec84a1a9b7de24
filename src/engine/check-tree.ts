import type { AnyField } from '../../schema/kit'
import type { AnyEntity, Row } from './entity-api'
import type { LineValues } from './form/form-values'
import { selfParentField, treeRows } from './tree'

/**
 * A document's lines that each name one row of a tree-shaped entity (a role menu's menu
 * items) ticked in that tree: which lines fields are so, the ticks as a set of ids, what
 * ticking a node does, the filter, and the lines a set of ticks makes. Pure: the widget
 * (form/LinesCheckTree.tsx) and its hook draw and hold it.
 */
export type CheckNode = { readonly id: number; readonly label: string; readonly children: readonly CheckNode[] }
export type CheckState = 'checked' | 'mixed' | 'unchecked'

/** What makes a lines field a tree of ticks: its line is one reference, to an entity whose rows hang under one another. */
export type LinesTree = { readonly column: string; readonly target: AnyEntity; readonly parentField: string }

export function linesTreeOf(field: AnyField, entities: readonly AnyEntity[]): LinesTree | undefined {
  const line = field.kind === 'lines' ? field.lines?.entity : undefined
  if (!line) return undefined
  const inputs = line.fieldNames.filter((n) => !line.fields[n]!.isReadOnly && !line.fields[n]!.isTransient)
  const only = inputs.length === 1 ? line.fields[inputs[0]!]! : undefined
  const target = only?.kind === 'ref' ? entities.find((e) => e.name === only.ref?.target) : undefined
  const parentField = target && selfParentField(target)
  return target && parentField ? { column: inputs[0]!, target, parentField } : undefined
}

/** An entity's rows as nodes, each under its parent, siblings by label (the engine's default tree). */
export function nodesOfRows(rows: readonly Row[], parentField: string, labelOf: (row: Row) => string): CheckNode[] {
  const roots: Array<CheckNode & { children: CheckNode[] }> = []
  const stack: Array<CheckNode & { children: CheckNode[] }> = []
  for (const { row, label, depth } of treeRows(rows, parentField, labelOf)) {
    const node = { id: row.id, label, children: [] as CheckNode[] }
    stack.length = depth
    if (depth === 0) roots.push(node)
    else stack[depth - 1]!.children.push(node)
    stack.push(node)
  }
  return roots
}

/** The node and everything under it, depth first. */
export function subtreeIds(node: CheckNode): number[] {
  return [node.id, ...node.children.flatMap(subtreeIds)]
}

const depthFirst = (nodes: readonly CheckNode[]): CheckNode[] => nodes.flatMap((n) => [n, ...depthFirst(n.children)])

/** A node without children is ticked or not; one with children is ticked when it and all under it are, mixed when some are. */
export function stateOf(node: CheckNode, checked: ReadonlySet<number>): CheckState {
  const ids = subtreeIds(node)
  const count = ids.filter((id) => checked.has(id)).length
  return count === 0 ? 'unchecked' : count === ids.length ? 'checked' : 'mixed'
}

/** How many of the nodes under these are ticked, of how many: what a group's count (and the whole tree's) says. */
export function tickCount(nodes: readonly CheckNode[], checked: ReadonlySet<number>): { count: number; total: number } {
  const all = depthFirst(nodes)
  return { count: all.filter((n) => checked.has(n.id)).length, total: all.length }
}

/**
 * The ticks after `node` is ticked or unticked as it is shown (`node` may be the filtered
 * node: then only the children the filter shows follow it). A node with children ticks or
 * unticks itself with all of them — "tick all", and its own entry with them; a node's own
 * entry then follows its children in the whole tree (a group is in the menu exactly when
 * one of its items is: the sidebar shows no empty group), up to the root.
 */
export function toggle(tree: readonly CheckNode[], checked: ReadonlySet<number>, node: CheckNode): Set<number> {
  const next = new Set(checked)
  const isOn = stateOf(node, checked) !== 'checked'
  for (const id of subtreeIds(node)) {
    if (isOn) next.add(id)
    else next.delete(id)
  }
  const path = pathTo(tree, node.id)
  // Bottom up: the node itself (its hidden children may still be ticked), then its ancestors.
  for (const holder of [...path].reverse()) {
    if (holder.children.length === 0) continue
    if (depthFirst(holder.children).some((n) => next.has(n.id))) next.add(holder.id)
    else next.delete(holder.id)
  }
  return next
}

/** The nodes from a root down to the node of that id (itself included), in the whole tree. */
export function pathTo(tree: readonly CheckNode[], id: number): CheckNode[] {
  for (const node of tree) {
    if (node.id === id) return [node]
    const below = pathTo(node.children, id)
    if (below.length > 0) return [node, ...below]
  }
  return []
}

/** Text folded for matching: any case, accents ignored (as the list search is). */
export const foldText = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase()

/** The nodes whose label contains the text, each with its ancestors; a matching node keeps all its children. */
export function filterNodes(nodes: readonly CheckNode[], text: string): CheckNode[] {
  const needle = foldText(text.trim())
  if (needle === '') return [...nodes]
  const keep = (list: readonly CheckNode[]): CheckNode[] =>
    list.flatMap((node) => {
      if (foldText(node.label).includes(needle)) return [node]
      const children = keep(node.children)
      return children.length > 0 ? [{ ...node, children }] : []
    })
  return keep(nodes)
}

/** The ids of the nodes that have children (what "expand all" opens). */
export const parentIds = (nodes: readonly CheckNode[]): number[] => depthFirst(nodes).filter((n) => n.children.length > 0).map((n) => n.id)

/** A row of the tree as drawn: the nodes whose ancestors are all open, in order, with their place. */
export type VisibleNode = { readonly node: CheckNode; readonly depth: number; readonly parent: number | null }

export function visibleNodes(nodes: readonly CheckNode[], expanded: ReadonlySet<number>, depth = 0, parent: number | null = null): VisibleNode[] {
  return nodes.flatMap((node) => [{ node, depth, parent }, ...(expanded.has(node.id) ? visibleNodes(node.children, expanded, depth + 1, node.id) : [])])
}

const refId = (value: unknown): number | null => (typeof value === 'number' ? value : null)

/** The ids the lines name in their column. */
export function checkedOf(lines: readonly LineValues[], column: string): Set<number> {
  return new Set(lines.map((line) => refId(line[column])).filter((id): id is number => id !== null))
}

/**
 * The lines that make these ticks, in the tree's order: a stored line is kept (with its id)
 * for an id still ticked, a new one made for an id newly ticked; lines naming a row the tree
 * does not hold are kept as they were, after the others.
 */
export function linesOf({ tree, checked, lines, column, emptyLine }: { tree: readonly CheckNode[]; checked: ReadonlySet<number>; lines: readonly LineValues[]; column: string; emptyLine: () => LineValues }): LineValues[] {
  const byId = new Map(lines.flatMap((line) => (refId(line[column]) === null ? [] : [[refId(line[column])!, line] as const])))
  const inTree = depthFirst(tree)
  const known = new Set(inTree.map((n) => n.id))
  const ticked = inTree.filter((n) => checked.has(n.id)).map((n) => byId.get(n.id) ?? { ...emptyLine(), [column]: n.id })
  const others = lines.filter((line) => {
    const id = refId(line[column])
    return id !== null && !known.has(id)
  })
  return [...ticked, ...others]
}
