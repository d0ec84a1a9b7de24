import { describe, expect, it } from 'vitest'
import { entities, reports } from '../../../../schema'
import { nestMenu, roleMenu, visibleMenu, type MenuRow } from '../../../../server/domain/identity/menu'

/** The menu trees of api-contract §3.4, from rows. */
const row = (id: number, parent: number | null, type: MenuRow['type'], url: string | null = null): MenuRow => ({
  id, parent, menu_id: `m${id}`, title: `Item ${id}`, translate: `nav.m${id}`, type, icon: null, url, exact: true, position: 0,
})
const rows: MenuRow[] = [
  row(1, null, 'item', '/apps/dashboards/project'),
  row(2, null, 'group'),
  row(3, 2, 'item', '/apps/country-management/countries'),
  row(4, 2, 'item', '/apps/users-management/userslist'),
  row(5, null, 'group'),
  row(6, 5, 'collapse'),
  row(7, 6, 'item', '/apps/blog-management/blogs'),
]
const ids = (nodes: ReturnType<typeof nestMenu>): unknown[] => nodes.map((n) => (n.children.length > 0 ? [n.id, ids(n.children)] : n.id))

describe('menu trees', () => {
  it('nests the whole menu recursively, by id', () => {
    expect(ids(nestMenu(rows))).toEqual([1, [2, [3, 4]], [5, [[6, [7]]]]])
  })

  it("groups a role's items two levels deep: a parent appears once, with only its assigned children", () => {
    expect(ids(roleMenu(rows, new Set([3])))).toEqual([[2, [3]]])
    expect(ids(roleMenu(rows, new Set([1, 2, 3, 4])))).toEqual([1, [2, [3, 4]]])
    expect(ids(roleMenu(rows, new Set([4, 1])))).toEqual([1, [2, [4]]])
    expect(roleMenu(rows, new Set())).toEqual([])
  })

  it('leaves out the items whose list the caller may not read, and groups left empty', () => {
    const menu = roleMenu(rows, new Set([1, 2, 3, 4]))
    const staff = { id: 1, isAdmin: false, permissions: new Set(['COUNTRY_LIST']) }
    expect(ids(visibleMenu(menu, entities, staff))).toEqual([1, [2, [3]]])
    const nobody = { id: 2, isAdmin: false, permissions: new Set<string>() }
    expect(ids(visibleMenu(menu, entities, nobody))).toEqual([1])
    const admin = { id: 3, isAdmin: true, permissions: new Set<string>() }
    expect(ids(visibleMenu(menu, entities, admin))).toEqual([1, [2, [3, 4]]])
  })

  it("leaves out a report's item without the report's permission", () => {
    const report = reports[0]!
    const withReport: MenuRow[] = [row(10, null, 'group'), row(11, 10, 'item', report.ui.path)]
    const menu = roleMenu(withReport, new Set([10, 11]))
    expect(ids(visibleMenu(menu, entities, { id: 1, isAdmin: false, permissions: new Set(['COUNTRY_LIST']) }, reports))).toEqual([])
    expect(ids(visibleMenu(menu, entities, { id: 1, isAdmin: false, permissions: new Set([report.permission]) }, reports))).toEqual([[10, [11]]])
  })
})
