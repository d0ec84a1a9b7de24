import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { filterTree, treeRows } from '../../src/engine/tree'
import { adminUser, api, envelope, menuNode, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * A reference of an entity to itself (a group's head group, a category's parent) is picked
 * in the tree of its rows (issue 11): indented under their parents, siblings by name,
 * filtered with the matches' ancestors kept, the choice shown with its path.
 */
const groupBase = registry.group.api.base
const head = (id: number, name: string) => ({ id, name })
const groups = [
  { id: 10, name: 'Current Assets', head_group: null },
  { id: 13, name: 'Bank Accounts', head_group: head(10, 'Current Assets') },
  { id: 11, name: 'Sundry Debtors', head_group: head(10, 'Current Assets') },
  { id: 12, name: 'Customers', head_group: head(11, 'Sundry Debtors') },
  { id: 20, name: 'Capital Account', head_group: null },
]

beforeEach(() => {
  storeSessionOf(adminUser)
  server.use(
    http.get(api(`${groupBase}/without_pagination/all/`), () => HttpResponse.json({ groups })),
    http.get(api(`${groupBase}/all/`), () => HttpResponse.json(envelope('groups', groups))),
    http.get(api(`${registry.primary_group.api.base}/all/`), () => HttpResponse.json(envelope('primary_groups', [{ id: 1, name: 'Assets' }], 1, 20))),
  )
})

describe('tree select', () => {
  it('lays rows out depth first under their parents, and keeps the ancestors of what matches', () => {
    const tree = treeRows(groups, 'head_group', (r) => String(r.name))
    expect(tree.map((n) => [n.label, n.depth])).toEqual([
      ['Capital Account', 0],
      ['Current Assets', 0],
      ['Bank Accounts', 1],
      ['Sundry Debtors', 1],
      ['Customers', 2],
    ])
    expect(filterTree(tree, 'CUST').map((n) => n.label)).toEqual(['Current Assets', 'Sundry Debtors', 'Customers'])
    // A cycle stored by someone else loses no row.
    const cycle = [{ id: 1, name: 'A', parent: 2 }, { id: 2, name: 'B', parent: 1 }]
    expect(treeRows(cycle, 'parent', (r) => String(r.name)).map((n) => n.label).sort()).toEqual(['A', 'B'])
  })

  it('picks a group’s head group in the tree on the generic form, and saves its id', async () => {
    let body: unknown
    server.use(
      http.post(api(`${groupBase}/create/`), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json({ id: 99, name: 'Retail', head_group: head(12, 'Customers') }, { status: 201 })
      }),
    )
    const { user } = await renderApp(`${registry.group.ui.formPath}/new`)
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Retail')
    const input = screen.getByRole('combobox', { name: 'Head Group' })
    await user.click(screen.getAllByRole('button', { name: 'Show options' })[0]!)
    const options = await screen.findAllByRole('option')
    expect(options.map((o) => o.textContent)).toEqual(['Capital Account', 'Current Assets', 'Bank Accounts, Current Assets', 'Sundry Debtors, Current Assets', 'Customers, Current Assets › Sundry Debtors'])
    expect(options[4]).toHaveStyle({ paddingInlineStart: '3.25rem' })
    await user.type(input, 'cust')
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3))
    await user.click(screen.getByRole('option', { name: /^Customers/ }))
    expect(input).toHaveValue('Current Assets › Sundry Debtors › Customers')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(body).toMatchObject({ name: 'Retail', head_group: 12 }))
    expect(within(document.body).queryByText('Loading…')).toBeNull()
  })

  it('offers every menu item as a parent after the nested menu list was opened: the two keep apart in the cache', async () => {
    const base = registry.menu_item.api.base
    const settings = menuNode(2, { translate: 'nav.settings', title: 'Settings', type: 'group', children: [menuNode(3, { translate: 'nav.districts', title: 'Districts', url: '/apps/city-management/cities' })] })
    server.use(
      http.get(api(`${base}/nested_menu_item_without_pagination/all/`), () => HttpResponse.json({ menu_items: [settings] })),
      http.get(api(`${base}/without_pagination/all/`), () => HttpResponse.json({ menu_items: [{ ...settings, children: undefined }, { ...settings.children[0], parent: 2, children: undefined }] })),
      http.get(api(`${base}/3`), () => HttpResponse.json({ ...settings.children[0], parent: 2, children: undefined, _labels: { parent: 'Settings' } })),
    )
    const { user } = await renderApp(registry.menu_item.ui.listPath)
    await user.click(await screen.findByRole('link', { name: 'Districts' }))
    await screen.findByRole('combobox', { name: 'Parent' })
    await user.click(screen.getAllByRole('button', { name: 'Show options' })[0]!)
    expect(within(await screen.findByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Settings', 'Districts, Settings'])
  })
})
