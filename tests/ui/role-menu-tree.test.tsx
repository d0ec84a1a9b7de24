import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { i18n } from '../../src/i18n'
import { adminUser, api, envelope, menuNode, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The role-menu form (issue 20): a role's menu items ticked in the navigation's tree — each
 * group once, as the parent of its items, with a tick for all of them (all, some, none) —
 * filtered, opened and closed with the pointer or the keyboard; saved as the document's lines.
 */
const menuBase = registry.menu_item.api.base
const roleMenuBase = registry.role_menu.api.base
const roleBase = registry.role.api.base

const menu = [
  menuNode(1, { translate: 'nav.dashboards', url: '/apps/dashboards/project' }),
  // The group and its first item share a name in the seeded menu: "Blogs".
  menuNode(4, { translate: 'nav.blogs', type: 'group', children: [menuNode(13, { translate: 'nav.blogs', url: '/apps/blog-management/blogs' }), menuNode(23, { translate: 'entity.cms_blog_category.other', url: '/apps/blogCategory-management/blogCategories' })] }),
  menuNode(7, { translate: 'nav.settings', type: 'group', children: [menuNode(36, { translate: 'nav.districts', url: '/apps/city-management/cities' }), menuNode(47, { translate: 'nav.police_stations', url: '/apps/thana-management/thanas' })] }),
]
const clerkMenu = {
  id: 3,
  role: 3,
  menu_items: [
    { id: 31, menu_item: 7, _labels: { menu_item: 'Settings' } },
    { id: 32, menu_item: 47, _labels: { menu_item: 'Police Stations' } },
  ],
  item_count: 2,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-02T10:00:00.000Z',
  created_by: 1,
  updated_by: 1,
  _labels: { role: 'CLERK' },
}

const menuTree = http.get(api(`${menuBase}/nested_menu_item_without_pagination/all/`), () => HttpResponse.json({ menu_items: menu }))
const roleOptions = http.get(api(`${roleBase}/all/`), () => HttpResponse.json(envelope('roles', [{ id: 2, name: 'STAFF' }, { id: 3, name: 'CLERK' }])))

beforeEach(() => {
  storeSessionOf(adminUser)
})

const tree = () => screen.getByRole('tree', { name: 'Menu Items' })
/** The items at one level of the tree (or of a group), by name, with their ticks. */
function level(holder: HTMLElement): Array<[string | null, string | null]> {
  const list = holder.getAttribute('role') === 'tree' ? holder : holder.querySelector(':scope > [role=group]')!
  return [...list.children].map((item) => [document.getElementById(item.getAttribute('aria-labelledby')!)!.textContent, item.getAttribute('aria-checked')])
}
const group = (name: string) => within(tree()).getAllByRole('treeitem', { name }).find((item) => item.getAttribute('aria-expanded') !== null)!

async function openClerk() {
  const view = await renderApp('/apps/roleMenu-management/roleMenus/3/CLERK')
  await within(await screen.findByRole('tree', { name: 'Menu Items' })).findByRole('treeitem', { name: 'Settings' })
  return view
}

describe('the role-menu tree', () => {
  it('draws the navigation as a tree: each group once, as the parent of its items, ticked all, some or none', async () => {
    server.use(roleOptions, menuTree, http.get(api(`${roleMenuBase}/3`), () => HttpResponse.json(clerkMenu)))
    const { user } = await openClerk()
    expect(level(tree())).toEqual([
      ['Dashboards', 'false'],
      ['Blogs', 'false'],
      ['Settings', 'mixed'],
    ])
    // Closed, a group says how many of its items are ticked; no table of pickers.
    expect(screen.queryByRole('table')).toBeNull()
    expect(within(group('Settings')).getByText('1 of 2')).toBeInTheDocument()
    expect(screen.getByText('2 of 7 chosen')).toBeInTheDocument()

    // Opened, "Blogs" the group holds "Blogs" the item: one parent, one entry of its own.
    await user.click(screen.getByRole('button', { name: 'Expand all' }))
    expect(within(tree()).getAllByRole('treeitem', { name: 'Blogs' }).map((i) => i.getAttribute('aria-expanded'))).toEqual(['true', null])
    expect(level(group('Blogs'))).toEqual([
      ['Blogs', 'false'],
      ['Blog Categories', 'false'],
    ])
    expect(level(group('Settings'))).toEqual([
      ['Districts', 'false'],
      ['Police Stations', 'true'],
    ])
  })

  it('ticks a group’s items all at once, and shows it mixed when only some are ticked', async () => {
    server.use(roleOptions, menuTree, http.get(api(`${roleMenuBase}/3`), () => HttpResponse.json(clerkMenu)))
    const { user } = await openClerk()
    await user.click(screen.getByRole('button', { name: 'Expand all' }))
    await user.click(within(group('Blogs')).getAllByText('Blogs')[0]!)
    expect(group('Blogs')).toHaveAttribute('aria-checked', 'true')
    expect(level(group('Blogs'))).toEqual([
      ['Blogs', 'true'],
      ['Blog Categories', 'true'],
    ])
    expect(screen.getByTestId('computed-item_count')).toHaveTextContent('5')

    // The item named as its group: only its own entry.
    const item = within(group('Blogs')).getByRole('treeitem', { name: 'Blogs' })
    await user.click(within(item).getByText('Blogs'))
    expect(item).toHaveAttribute('aria-checked', 'false')
    expect(group('Blogs')).toHaveAttribute('aria-checked', 'mixed')
    expect(within(group('Blogs')).getByText('1 of 2')).toBeInTheDocument()

    // The mixed group's tick ticks the rest; again, it unticks all, its own entry with them.
    await user.click(within(group('Settings')).getAllByText('Settings')[0]!)
    expect(group('Settings')).toHaveAttribute('aria-checked', 'true')
    await user.click(within(group('Settings')).getAllByText('Settings')[0]!)
    expect(level(group('Settings'))).toEqual([
      ['Districts', 'false'],
      ['Police Stations', 'false'],
    ])
    expect(group('Settings')).toHaveAttribute('aria-checked', 'false')
  })

  it('filters the tree by name, each match in its opened group', async () => {
    server.use(roleOptions, menuTree, http.get(api(`${roleMenuBase}/3`), () => HttpResponse.json(clerkMenu)))
    const { user } = await openClerk()
    await user.type(screen.getByRole('searchbox', { name: 'Filter Menu Items' }), 'políce')
    // A group's tick speaks for what the filter shows: what ticking it would change.
    expect(level(tree())).toEqual([['Settings', 'true']])
    expect(level(group('Settings'))).toEqual([['Police Stations', 'true']])
    expect(within(group('Settings')).getByText('1 of 1')).toBeInTheDocument()
    await user.clear(screen.getByRole('searchbox', { name: 'Filter Menu Items' }))
    await user.type(screen.getByRole('searchbox', { name: 'Filter Menu Items' }), 'nothing like it')
    expect(screen.queryByRole('tree')).toBeNull()
    expect(screen.getByText('Nothing matches “nothing like it”.')).toBeInTheDocument()
  })

  it('moves, opens and ticks with the keyboard: one tab stop, arrows, Space', async () => {
    server.use(roleOptions, menuTree, http.get(api(`${roleMenuBase}/3`), () => HttpResponse.json(clerkMenu)))
    const { user } = await openClerk()
    await user.click(screen.getByRole('button', { name: 'Collapse all' }))
    // Into the tree from the button before it: its first item takes the focus.
    await user.tab()
    expect(document.activeElement).toBe(within(tree()).getByRole('treeitem', { name: 'Dashboards' }))
    expect(within(tree()).getAllByRole('treeitem').filter((i) => i.tabIndex === 0)).toHaveLength(1)
    await user.keyboard(' ')
    expect(document.activeElement).toHaveAttribute('aria-checked', 'true')
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowRight}')
    expect(group('Settings')).toHaveAttribute('aria-expanded', 'true')
    await user.keyboard('{ArrowRight}')
    expect(document.activeElement).toBe(within(tree()).getByRole('treeitem', { name: 'Districts' }))
    await user.keyboard('{Enter}')
    expect(group('Settings')).toHaveAttribute('aria-checked', 'true')
    await user.keyboard('{ArrowLeft}')
    expect(document.activeElement).toBe(group('Settings'))
    await user.keyboard('{ArrowLeft}')
    expect(group('Settings')).toHaveAttribute('aria-expanded', 'false')
    await user.keyboard('{Home}')
    expect(document.activeElement).toBe(within(tree()).getByRole('treeitem', { name: 'Dashboards' }))
  })

  it('saves the ticks as the document’s lines, in the menu’s order, stored lines with their ids', async () => {
    let body: Record<string, unknown> | undefined
    server.use(
      roleOptions,
      menuTree,
      http.get(api(`${roleMenuBase}/3`), () => HttpResponse.json(clerkMenu)),
      http.put(api(`${roleMenuBase}/update/3`), async ({ request }) => ((body = (await request.json()) as Record<string, unknown>), HttpResponse.json(clerkMenu))),
      http.get(api(`${roleMenuBase}/all/`), () => HttpResponse.json(envelope('role_menus', []))),
    )
    const { user } = await openClerk()
    await user.click(within(tree()).getByText('Dashboards'))
    await user.click(screen.getByRole('button', { name: 'Expand all' }))
    await user.click(within(group('Blogs')).getByText('Blog Categories'))
    await user.click(within(group('Settings')).getByText('Districts'))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(body).toBeDefined())
    expect(body).toEqual({
      role: 3,
      menu_items: [{ menu_item: 1 }, { menu_item: 4 }, { menu_item: 23 }, { id: 31, menu_item: 7 }, { menu_item: 36 }, { id: 32, menu_item: 47 }],
      updated_at: clerkMenu.updated_at,
    })
  })

  it('asks for a role before saving a new menu', async () => {
    server.use(roleOptions, menuTree)
    const { user } = await renderApp('/apps/roleMenu-management/roleMenus/new')
    await screen.findByRole('heading', { name: 'New Role Menu' })
    await user.click(await within(await screen.findByRole('tree', { name: 'Menu Items' })).findByText('Dashboards'))
    expect(within(tree()).getByRole('treeitem', { name: 'Dashboards' })).toHaveAttribute('aria-checked', 'true')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Role is required')).toBeInTheDocument()
  })
})

/** A shop window's featured categories: a document of this test only, whose lines each name a category (a tree). */
const featuredCategory = defineEntity({ name: 'featured_category', module: 'test', lineOf: 'featured', fields: { category: f.ref('category', { required: true }) } })
const featured = defineEntity({
  name: 'featured',
  module: 'test',
  listKey: 'featureds',
  route: { area: 'featured-management', list: 'featureds' },
  fields: { name: f.text({ max: 50, required: true }), categories: f.lines(featuredCategory) },
})

describe('the engine’s tree of ticks', () => {
  it('draws any document’s lines that name rows of a tree as that tree (siblings by name), and saves the ticks as lines', async () => {
    i18n.addResourceBundle('en', 'translation', { entity: { featured: { one: 'Featured', other: 'Featured' } }, field: { categories: 'Categories' } }, true, true)
    let sent: Record<string, unknown> | undefined
    server.use(
      http.get(api(`${registry.category.api.base}/without_pagination/all/`), () =>
        HttpResponse.json({
          categorys: [
            { id: 1, name: 'Men', parent: null },
            { id: 2, name: 'Women', parent: null },
            { id: 3, name: 'Shoes', parent: { id: 2, name: 'Women' } },
            { id: 4, name: 'Bags', parent: { id: 2, name: 'Women' } },
          ],
        }),
      ),
      http.post(api('/featured/api/v1/featured/create/'), async ({ request }) => ((sent = (await request.json()) as Record<string, unknown>), HttpResponse.json({ id: 9, ...sent }, { status: 201 }))),
      http.get(api('/featured/api/v1/featured/9'), () => HttpResponse.json({ id: 9, ...sent })),
    )
    const { user } = await renderApp('/apps/featured-management/featureds/new', { entities: [...entities, featured] })
    const categories = await screen.findByRole('tree', { name: 'Categories' })
    await within(categories).findByRole('treeitem', { name: 'Women' })
    expect(level(categories)).toEqual([
      ['Men', 'false'],
      ['Women', 'false'],
    ])
    await user.click(screen.getByRole('button', { name: 'Expand all' }))
    expect(level(within(categories).getByRole('treeitem', { name: 'Women' }))).toEqual([
      ['Bags', 'false'],
      ['Shoes', 'false'],
    ])
    await user.click(within(categories).getByText('Shoes'))
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Autumn')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toBeDefined())
    expect(sent).toEqual({ name: 'Autumn', categories: [{ category: 2 }, { category: 3 }] })
  })
})
