import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { registry } from '../../schema'
import { buildGroupTree } from '../../src/modules/accounting/group-tree'
import { adminUser, api, envelope, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The groups screen (issue 10): the generic list, and the chart of accounts as a tree —
 * each group under its head group or primary group, folded and filtered, a group opening
 * its form.
 */
const groupBase = registry.group.api.base
const primaryBase = registry.primary_group.api.base

const primaries = [
  { id: 1, name: 'Assets' },
  { id: 2, name: 'Liabilities' },
]
const head = (id: number, name: string) => ({ id, name })
const groups = [
  { id: 10, name: 'Current Assets', head_group: null, head_primarygroup: head(1, 'Assets'), is_deletable: false },
  { id: 11, name: 'Sundry Debtors', head_group: head(10, 'Current Assets'), head_primarygroup: null, is_deletable: false },
  { id: 12, name: 'Customers', head_group: head(11, 'Sundry Debtors'), head_primarygroup: null, is_deletable: false },
  { id: 13, name: 'Bank Accounts', head_group: head(10, 'Current Assets'), head_primarygroup: null, is_deletable: false },
  { id: 20, name: 'Salary', head_group: null, head_primarygroup: head(2, 'Liabilities'), is_deletable: false },
]

beforeEach(() => {
  storeSessionOf(adminUser)
  server.use(
    http.get(api(`${groupBase}/all/`), () => HttpResponse.json(envelope('groups', groups))),
    http.get(api(`${groupBase}/without_pagination/all/`), () => HttpResponse.json({ groups })),
    http.get(api(`${primaryBase}/without_pagination/all/`), () => HttpResponse.json({ primary_groups: primaries })),
  )
})

const shape = (items: HTMLElement[]) => items.map((i) => [i.getAttribute('aria-label'), i.getAttribute('aria-level')])

describe('the group tree', () => {
  it('builds the tree from the two lists: primary groups at the root, each group under its head, by name', () => {
    const tree = buildGroupTree(primaries, groups)
    const names = (nodes: typeof tree): unknown[] => nodes.map((n) => (n.children.length ? [n.name, names(n.children)] : n.name))
    expect(names(tree)).toEqual([
      ['Assets', [['Current Assets', ['Bank Accounts', ['Sundry Debtors', ['Customers']]]]]],
      ['Liabilities', ['Salary']],
    ])
  })

  it('shows the groups as a tree on the groups screen, folds a branch, filters by name and opens a group', async () => {
    const { user, router } = await renderApp('/apps/group-management/groups')
    // The list first: the generic one, where a seeded group offers no delete.
    const row = (await screen.findByRole('link', { name: 'Customers' })).closest('tr')!
    expect(within(row).queryByRole('button', { name: /delete/i })).toBeNull()

    // The List/Tree switch sits in the page's header, beside its title, in both views.
    const inHeader = () => expect(screen.getByRole('tablist').closest('header')).toContainElement(screen.getByRole('heading', { level: 1, name: 'Groups' }))
    inHeader()
    await user.click(screen.getByRole('tab', { name: 'Tree' }))
    const tree = await screen.findByRole('tree', { name: 'Chart of accounts' })
    inHeader()
    await within(tree).findByRole('treeitem', { name: 'Customers' })
    expect(shape(within(tree).getAllByRole('treeitem'))).toEqual([
      ['Assets', '1'],
      ['Current Assets', '2'],
      ['Bank Accounts', '3'],
      ['Sundry Debtors', '3'],
      ['Customers', '4'],
      ['Liabilities', '1'],
      ['Salary', '2'],
    ])

    await user.click(within(tree).getByRole('button', { name: 'Collapse Current Assets' }))
    expect(within(tree).getByRole('treeitem', { name: 'Current Assets' })).toHaveAttribute('aria-expanded', 'false')
    expect(within(tree).queryByRole('treeitem', { name: 'Customers' })).toBeNull()
    await user.click(within(tree).getByRole('button', { name: 'Expand Current Assets' }))

    await user.type(screen.getByRole('searchbox', { name: 'Search Groups' }), 'custom')
    expect(shape(within(tree).getAllByRole('treeitem'))).toEqual([
      ['Assets', '1'],
      ['Current Assets', '2'],
      ['Sundry Debtors', '3'],
      ['Customers', '4'],
    ])

    server.use(http.get(api(`${groupBase}/12`), () => HttpResponse.json({ ...groups[2], head_group: 11, _labels: { head_group: 'Sundry Debtors' } })))
    await user.click(within(tree).getByRole('link', { name: 'Customers' }))
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/apps/group-management/groups/12/Customers'))
  })
})
