import { describe, expect, it } from 'vitest'
import { checkedOf, filterNodes, linesOf, nodesOfRows, stateOf, tickCount, toggle, visibleNodes, type CheckNode } from '../../../src/engine/check-tree'

/** A menu as the role-menu form ticks it: a page at the top, a group of two, a group holding a collapse. */
const node = (id: number, label: string, children: CheckNode[] = []): CheckNode => ({ id, label, children })
const blogs = node(4, 'Blogs', [node(13, 'Blogs'), node(23, 'Blog Categories')])
const settings = node(7, 'Settings', [node(36, 'Districts'), node(80, 'Places', [node(47, 'Police Stations'), node(31, 'Countries')])])
const tree = [node(1, 'Dashboards'), blogs, settings]

describe('a tree of ticks', () => {
  it('says a group is ticked when it and all under it are, mixed when some are, unticked when none', () => {
    expect(stateOf(blogs, new Set([4, 13, 23]))).toBe('checked')
    expect(stateOf(blogs, new Set([4, 13]))).toBe('mixed')
    expect(stateOf(blogs, new Set())).toBe('unchecked')
    expect(tickCount(blogs.children, new Set([4, 13]))).toEqual({ count: 1, total: 2 })
  })

  it('ticks a group with everything under it, its own entry included, and unticks them together', () => {
    const all = toggle(tree, new Set([1]), settings)
    expect([...all].sort((a, b) => a - b)).toEqual([1, 7, 31, 36, 47, 80])
    expect([...toggle(tree, all, settings)]).toEqual([1])
    // A group partly ticked is ticked whole by its tick.
    expect(stateOf(settings, toggle(tree, new Set([7, 36]), settings))).toBe('checked')
  })

  it('keeps a group’s own entry with its items: in when one of them is, out when none is, up to the root', () => {
    const one = toggle(tree, new Set(), node(47, 'Police Stations'))
    expect([...one].sort((a, b) => a - b)).toEqual([7, 47, 80])
    expect(stateOf(settings, one)).toBe('mixed')
    expect([...toggle(tree, one, node(47, 'Police Stations'))]).toEqual([])
    // The item that shares its group's name is its own entry: ticking it leaves its sibling alone.
    expect([...toggle(tree, new Set(), blogs.children[0]!)].sort((a, b) => a - b)).toEqual([4, 13])
  })

  it('ticks with a filter only what the filter shows', () => {
    const shown = filterNodes(tree, 'police')
    expect(shown.map((n) => n.label)).toEqual(['Settings'])
    expect(shown[0]!.children.map((n) => n.label)).toEqual(['Places'])
    const ticked = toggle(tree, new Set(), shown[0]!)
    expect([...ticked].sort((a, b) => a - b)).toEqual([7, 47, 80])
    // A matching group keeps all its items; any case, accents ignored.
    expect(filterNodes(tree, 'BLÓG').map((n) => n.children.length)).toEqual([2])
  })

  it('draws the open branches only, each node with its depth and parent', () => {
    expect(visibleNodes(tree, new Set([7])).map((v) => [v.node.id, v.depth, v.parent])).toEqual([
      [1, 0, null],
      [4, 0, null],
      [7, 0, null],
      [36, 1, 7],
      [80, 1, 7],
    ])
  })

  it('makes the lines of the ticks in the tree’s order, keeping stored lines with their ids and lines the tree does not hold', () => {
    const lines = [{ id: 9, menu_item: 13 }, { id: 10, menu_item: 99 }, { id: 11, menu_item: 4 }]
    expect(checkedOf(lines, 'menu_item')).toEqual(new Set([13, 99, 4]))
    const next = linesOf({ tree, checked: new Set([1, 4, 13, 99]), lines, column: 'menu_item', emptyLine: () => ({ menu_item: null }) })
    expect(next).toEqual([{ menu_item: 1 }, { id: 11, menu_item: 4 }, { id: 9, menu_item: 13 }, { id: 10, menu_item: 99 }])
  })

  it('builds the default tree from an entity’s rows, each under its parent, siblings by name', () => {
    const rows = [
      { id: 1, name: 'Root B', parent: null },
      { id: 2, name: 'Root A', parent: null },
      { id: 3, name: 'Zeta', parent: { id: 2, name: 'Root A' } },
      { id: 4, name: 'Alpha', parent: 2 },
    ]
    const nodes = nodesOfRows(rows, 'parent', (r) => String(r.name))
    expect(nodes.map((n) => [n.label, n.children.map((c) => c.label)])).toEqual([
      ['Root A', ['Alpha', 'Zeta']],
      ['Root B', []],
    ])
  })
})
