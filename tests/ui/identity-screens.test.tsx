import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { groupPermissions } from '../../src/modules/identity/permission-groups'
import { accessTokenAnswers, adminUser, api, envelope, menuNode, storeSessionOf, validToken } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The identity screens (issue 3): users and employees with uniqueness checks as one
 * types and a password confirmation, roles with permissions grouped by entity, role
 * menus as documents with lines, menu items nested, /register and /pages/profile (the
 * Inbox: inbox.test.tsx).
 */
const userBase = registry.user.api.base
const roleBase = registry.role.api.base
const permissionBase = registry.permission.api.base
const menuBase = registry.menu_item.api.base
const roleMenuBase = registry.role_menu.api.base

const stored = { id: 5, first_name: 'Sadia', last_name: 'Rahman', username: 'sadia', email: 'sadia@example.com', password: undefined, gender: 'female', primary_phone: '+8801711000001', secondary_phone: null, role: 2, is_active: true, is_admin: false, image: null, settings: { layout: {} } }

/** Answers the eight uniqueness checks: `taken` values exist (and `seen` records what was asked). */
function uniquenessChecks(taken: Record<string, string>, seen: string[]) {
  return http.get(api(`${userBase}/:check`), ({ params, request }) => {
    const m = /^check_(username|email|primary_phone|secondary_phone)_when_(create|update)$/.exec(String(params.check))
    if (!m) return undefined
    const url = new URL(request.url)
    const field = m[1]!
    seen.push(`${m[2]}:${field}=${url.searchParams.get(field)}${url.searchParams.has('user') ? `&user=${url.searchParams.get('user')}` : ''}`)
    return HttpResponse.json({ [`${field}_exists`]: taken[field] === url.searchParams.get(field) })
  })
}

/** The reference selects' options (districts, roles, …): empty lists. */
const anyLookup = http.get(api('/:entity/api/v1/:same/all/'), ({ params }) => HttpResponse.json(envelope(`${String(params.entity)}s`, [])))

const roleOptions = http.get(api(`${roleBase}/all/`), () => HttpResponse.json(envelope('roles', [{ id: 2, name: 'STAFF' }, { id: 3, name: 'CLERK' }])))

beforeEach(() => {
  storeSessionOf(adminUser)
})

describe('users and employees', () => {
  it('checks username, e-mail and phones as the user types, with the contract’s messages, and keeps the save until they are free', async () => {
    const seen: string[] = []
    let posts = 0
    server.use(
      roleOptions,
      uniquenessChecks({ username: 'admin', email: 'admin@example.com', primary_phone: '+8801711000001', secondary_phone: '+8801711000002' }, seen),
      anyLookup,
      http.post(api(`${userBase}/create/`), () => ((posts += 1), HttpResponse.json({ id: 9 }, { status: 201 }))),
    )
    const { user } = await renderApp('/apps/users-management/userslist/new')
    await screen.findByRole('heading', { name: 'New User' })
    await user.type(screen.getByRole('textbox', { name: 'User Name' }), 'admin')
    expect(await screen.findByText('Username already exists')).toBeInTheDocument()
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'admin@example.com')
    expect(await screen.findByText('Email already exists')).toBeInTheDocument()
    await user.type(screen.getByRole('textbox', { name: 'Phone' }), '+8801711000001')
    expect(await screen.findByText('Primary phone already exists')).toBeInTheDocument()
    await user.type(screen.getByRole('textbox', { name: 'Mobile' }), '+8801711000002')
    expect(await screen.findByText('Secondary phone already exists')).toBeInTheDocument()
    // Asked once typing stopped, never for each keystroke.
    expect(seen).toEqual(['create:username=admin', 'create:email=admin@example.com', 'create:primary_phone=+8801711000001', 'create:secondary_phone=+8801711000002'])

    await user.type(screen.getByRole('textbox', { name: /^First Name/ }), 'Nadia')
    await user.type(screen.getByRole('textbox', { name: /^Last Name/ }), 'Akter')
    await user.type(screen.getByLabelText(/^Password/), 'secret1')
    await user.type(screen.getByLabelText(/^Confirm Password/), 'secret1')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Username already exists')).toBeInTheDocument()
    expect(posts).toBe(0)

    await user.type(screen.getByRole('textbox', { name: 'User Name' }), '2')
    await waitFor(() => expect(screen.queryByText('Username already exists')).not.toBeInTheDocument())
  })

  it('asks the _when_update checks with the user’s id on an edit, not for the values it already has', async () => {
    const seen: string[] = []
    server.use(roleOptions, anyLookup, uniquenessChecks({ username: 'admin' }, seen), http.get(api(`${userBase}/5`), () => HttpResponse.json(stored)), http.get(api(`${roleBase}/2`), () => HttpResponse.json({ id: 2, name: 'STAFF', permissions: [] })))
    const { user } = await renderApp('/apps/users-management/userslist/5/sadia')
    const username = await screen.findByRole('textbox', { name: 'User Name' })
    expect(username).toHaveValue('sadia')
    await user.clear(username)
    await user.type(username, 'admin')
    expect(await screen.findByText('Username already exists')).toBeInTheDocument()
    expect(seen).toEqual(['update:username=admin&user=5'])
  })

  it('confirms the password on create (“Passwords must match”), and lets both stay blank on an edit', async () => {
    let body: Record<string, unknown> | undefined
    server.use(
      roleOptions,
      anyLookup,
      uniquenessChecks({}, []),
      http.get(api(`${userBase}/5`), () => HttpResponse.json(stored)),
      http.get(api(`${roleBase}/2`), () => HttpResponse.json({ id: 2, name: 'STAFF', permissions: [] })),
      http.put(api(`${userBase}/update/5`), async ({ request }) => ((body = (await request.json()) as Record<string, unknown>), HttpResponse.json(stored))),
      http.get(api(`${userBase}/all/`), () => HttpResponse.json(envelope('users', []))),
    )
    const created = await renderApp('/apps/users-management/userslist/new')
    await created.user.type(await screen.findByLabelText(/^Password/), 'secret1')
    await created.user.type(screen.getByLabelText(/^Confirm Password/), 'secret2')
    await created.user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument()
    expect(screen.getByLabelText(/^Confirm Password/)).toHaveAttribute('aria-invalid', 'true')
    created.unmount()

    const edited = await renderApp('/apps/users-management/userslist/5/sadia')
    const password = await screen.findByLabelText(/^Password/)
    expect(password).not.toHaveAttribute('aria-required')
    expect(screen.queryByRole('textbox', { name: 'Settings' })).not.toBeInTheDocument()
    // A person is named by their name on their own screen, not by their e-mail or username (issue 20).
    expect(screen.getByText('Sadia Rahman')).toBeInTheDocument()
    expect(screen.queryByText('sadia@example.com', { selector: 'p' })).not.toBeInTheDocument()
    // One vocabulary (issue 20): the user form names the address as the employee form and the contract do.
    expect(screen.getByRole('textbox', { name: 'Primary address' })).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Secondary address' })).toBeInTheDocument()
    // (A save sends only a changed record: something changes, the passwords stay blank.)
    await edited.user.type(screen.getByRole('textbox', { name: /^First Name/ }), 'h')
    await edited.user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(body).toBeDefined())
    expect(body).not.toHaveProperty('password')
    expect(body).not.toHaveProperty('confirm_password')
    expect(body).not.toHaveProperty('settings')
    expect(body).toMatchObject({ first_name: 'Sadiah', username: 'sadia', role: 2 })
  })

  it('labels the employee form as the contract does and checks its uniqueness on the user’s routes', async () => {
    const seen: string[] = []
    server.use(anyLookup, uniquenessChecks({ username: 'admin' }, seen))
    const { user } = await renderApp('/apps/employee-management/employees/new')
    await screen.findByRole('heading', { name: 'New Employee' })
    expect(screen.getByRole('textbox', { name: /^Primary address/ })).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Secondary address' })).toBeInTheDocument()
    await user.type(screen.getByRole('textbox', { name: /^User Name/ }), 'admin')
    expect(await screen.findByText('Username already exists')).toBeInTheDocument()
    await user.type(screen.getByRole('textbox', { name: /^First Name/ }), 'Ali')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Branch is required')).toBeInTheDocument()
    // Any name is a name: no minimum length on a first name.
    expect(screen.queryByText(/First name must be at least/)).not.toBeInTheDocument()
    expect(seen).toEqual(['create:username=admin'])
  })
})

const permissions = [
  { id: 1, name: 'THANA_LIST' },
  { id: 2, name: 'THANA_DETAILS' },
  { id: 3, name: 'THANA_CREATE' },
  { id: 4, name: 'THANA_UPDATE' },
  { id: 5, name: 'THANA_DELETE' },
  { id: 6, name: 'CITY_LIST' },
  { id: 7, name: 'USER_LIST' },
  { id: 8, name: 'USER_PARTIAL_UPDATE' },
  { id: 9, name: 'REPORT_EXPORT' },
]

describe('roles', () => {
  it('groups permissions by entity, the longest prefix first, others by what precedes their last _', () => {
    const groups = groupPermissions(permissions, Object.values(registry))
    expect(groups.map((g) => [g.key, g.items.map((i) => i.action)])).toEqual([
      ['CITY', ['LIST']],
      ['THANA', ['LIST', 'DETAILS', 'CREATE', 'UPDATE', 'DELETE']],
      ['USER', ['LIST', 'PARTIAL_UPDATE']],
      ['REPORT', ['EXPORT']],
    ])
  })

  it('shows the permissions grouped by entity with a select-all per entity, and posts the ids', async () => {
    let body: unknown
    server.use(
      http.get(api(`${permissionBase}/without_pagination/all/`), () => HttpResponse.json({ permissions })),
      http.post(api(`${roleBase}/create/`), async ({ request }) => ((body = await request.json()), HttpResponse.json({ id: 4 }, { status: 201 }))),
      http.get(api(`${roleBase}/all/`), () => HttpResponse.json(envelope('roles', []))),
    )
    const { user } = await renderApp('/apps/roles-management/roles/new')
    const thanas = await screen.findByRole('group', { name: 'Police Stations' })
    expect(within(thanas).getAllByRole('checkbox').map((c) => c.closest('label')!.textContent)).toEqual(['Police Stations0/5', 'List', 'Details', 'Create', 'Update', 'Delete'])
    expect(screen.getByRole('group', { name: 'Users' })).toHaveTextContent('Partial update')
    expect(screen.getByText('0 of 9 selected')).toBeInTheDocument()

    await user.click(within(thanas).getByRole('checkbox', { name: 'Select all Police Stations permissions' }))
    expect(within(thanas).getAllByRole('checkbox').every((c) => (c as HTMLInputElement).checked)).toBe(true)
    await user.click(within(screen.getByRole('group', { name: 'Districts' })).getByRole('checkbox', { name: 'List' }))
    expect(screen.getByText('6 of 9 selected')).toBeInTheDocument()
    // Unticking one leaves the group's box half-ticked.
    await user.click(within(thanas).getByRole('checkbox', { name: 'Delete' }))
    expect(within(thanas).getByRole('checkbox', { name: 'Select all Police Stations permissions' })).toHaveProperty('indeterminate', true)

    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'station clerk')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(body).toEqual({ name: 'STATION_CLERK', permissions: [1, 2, 3, 4, 6] }))
  })
})

describe('role menus (the generic list and form: a role’s menu is a document whose lines are its items)', () => {
  const clerkMenu = {
    id: 3,
    role: 3,
    menu_items: [{ id: 31, menu_item: 4, _labels: { menu_item: 'Police Stations' } }],
    item_count: 1,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-02T10:00:00.000Z',
    created_by: 1,
    updated_by: 1,
    _labels: { role: 'CLERK' },
  }

  // The form itself, its items ticked in the menu's tree: role-menu-tree.test.tsx.
  it('lists one row per role with its item count, and opens the role’s menu', async () => {
    server.use(http.get(api(`${roleMenuBase}/all/`), () => HttpResponse.json(envelope('role_menus', [{ id: 2, role: 'STAFF', item_count: 3 }, { id: 3, role: 'CLERK', item_count: 2 }]))))
    const { user, router } = await renderApp('/apps/roleMenu-management/roleMenus')
    const row = (await screen.findByText('CLERK')).closest('tr')!
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['', '2', 'CLERK', '2', ''])
    server.use(
      roleOptions,
      http.get(api(`${menuBase}/nested_menu_item_without_pagination/all/`), () => HttpResponse.json({ menu_items: [menuNode(4, { translate: 'nav.police_stations' })] })),
      http.get(api(`${roleMenuBase}/3`), () => HttpResponse.json(clerkMenu)),
    )
    await user.click(within(row).getByText('CLERK'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/roleMenu-management/roleMenus/3/CLERK'))
    expect(await screen.findByRole('treeitem', { name: 'Police Stations' })).toHaveAttribute('aria-checked', 'true')
  })
})

describe('menu items', () => {
  it('lists the menu nested: each item under its parent, filtered by title', async () => {
    const nested = [
      menuNode(2, { translate: 'nav.settings', type: 'group', children: [menuNode(3, { translate: 'nav.districts', url: '/apps/city-management/cities' }), menuNode(4, { translate: 'nav.police_stations', url: '/apps/thana-management/thanas' })] }),
      menuNode(5, { translate: 'nav.user_config', type: 'group', children: [menuNode(6, { translate: 'nav.users', url: '/apps/users-management/userslist' })] }),
    ]
    server.use(http.get(api(`${menuBase}/nested_menu_item_without_pagination/all/`), () => HttpResponse.json({ menu_items: nested })))
    const { user } = await renderApp('/apps/menuItem-management/menuItems')
    await screen.findByRole('link', { name: 'Police Stations' })
    const rows = screen.getAllByRole('row').slice(1)
    expect(rows.map((r) => [within(r).getAllByRole('cell')[0]!.textContent, r.getAttribute('data-depth')])).toEqual([
      ['Settings', '0'],
      ['Districts', '1'],
      ['Police Stations', '1'],
      ['User Config', '0'],
      ['User List', '1'],
    ])
    await user.type(screen.getByRole('searchbox', { name: 'Search Menu Items' }), 'police')
    expect(screen.getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['Settings', 'Police Stations'])
  })
})

describe('register', () => {
  beforeEach(() => localStorage.clear())

  it('creates a USER account, signs it in and opens the dashboard, where it sees no back-office data', async () => {
    let body: unknown
    const token = validToken()
    server.use(
      http.post(api('/api/auth/register'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json({ user: { id: 12, email: 'nadia@example.com', username: 'nadia', role: 'USER', is_admin: false, permissions: [], image: null }, access_token: token }, { status: 201 })
      }),
      accessTokenAnswers({ ...adminUser, id: 12, role: 'USER', is_admin: false }),
      http.get(api('/menu_item/api/v1/menu_item/nested_menu_item_by_user_role/'), () => HttpResponse.json({ menu_items: [] })),
      http.get(api(`${userBase}/12`), () => HttpResponse.json({ id: 12, first_name: 'Nadia', last_name: 'Akter', username: 'nadia', email: 'nadia@example.com' })),
    )
    const { user, router } = await renderApp('/register')
    await user.type(await screen.findByRole('textbox', { name: /^First Name/ }), 'Nadia')
    await user.type(screen.getByRole('textbox', { name: /^Last Name/ }), 'Akter')
    await user.type(screen.getByRole('textbox', { name: 'User Name' }), 'nadia')
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'Nadia@Example.com')
    await user.type(screen.getByLabelText(/^Password/), 'secret1')
    await user.type(screen.getByLabelText(/^Confirm Password/), 'secret2')
    await user.click(screen.getByRole('button', { name: 'Register' }))
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument()
    expect(body).toBeUndefined()

    await user.clear(screen.getByLabelText(/^Confirm Password/))
    await user.type(screen.getByLabelText(/^Confirm Password/), 'secret1')
    await user.click(screen.getByRole('button', { name: 'Register' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/dashboards/project'))
    expect(body).toEqual({ first_name: 'Nadia', last_name: 'Akter', username: 'nadia', email: 'nadia@example.com', password: 'secret1', confirm_password: 'secret1' })
    expect(localStorage.getItem('jwt_access_token')).toBe(`Bearer ${token}`)
    expect(localStorage.getItem('user_id')).toBe('12')
    expect(await screen.findByRole('heading', { name: 'Welcome, Nadia Akter' })).toBeInTheDocument()
    expect(screen.getByTestId('user-role')).toHaveTextContent('User')
  })

  it('shows the server’s detail when registration is closed, and its field messages on their fields', async () => {
    let calls = 0
    server.use(
      http.post(api('/api/auth/register'), () => {
        calls += 1
        return calls === 1 ? HttpResponse.json({ email: ['User with this Email already exists.'] }, { status: 400 }) : HttpResponse.json({ detail: 'Registration is closed.' }, { status: 403 })
      }),
    )
    const { user } = await renderApp('/register')
    await user.type(await screen.findByRole('textbox', { name: /^First Name/ }), 'Nadia')
    await user.type(screen.getByRole('textbox', { name: /^Last Name/ }), 'Akter')
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'admin@example.com')
    await user.type(screen.getByLabelText(/^Password/), 'secret1')
    await user.type(screen.getByLabelText(/^Confirm Password/), 'secret1')
    await user.click(screen.getByRole('button', { name: 'Register' }))
    expect(await screen.findByText('User with this Email already exists.')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /^Email/ })).toHaveAttribute('aria-invalid', 'true')
    await user.click(screen.getByRole('button', { name: 'Register' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Registration is closed.')
    expect(localStorage.getItem('jwt_access_token')).toBeNull()
  })

  it('is for guests: a signed-in user with a role goes to the dashboard', async () => {
    storeSessionOf(adminUser)
    server.use(http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('x', [], 1, 1, 0))))
    const { router } = await renderApp('/register')
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/dashboards/project'))
  })
})

describe('profile', () => {
  const me = { ...stored, id: 1, first_name: 'Ada', last_name: 'Admin', username: 'admin', email: 'admin@example.com', role: 1, is_admin: true }

  it('edits one’s own details through /api/auth/user/update and updates the toolbar', async () => {
    let body: Record<string, unknown> | undefined
    server.use(
      http.get(api(`${userBase}/1`), () => HttpResponse.json(me)),
      http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('x', []))),
      http.post(api('/api/auth/user/update'), async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>
        return HttpResponse.json({ user: { ...adminUser, username: 'ada', first_name: 'Adaline' } })
      }),
    )
    const { user } = await renderApp('/pages/profile')
    const first = await screen.findByRole('textbox', { name: /^First Name/ })
    expect(first).toHaveValue('Ada')
    // Role, admin flag, activity and the password are not one's own to set here.
    expect(screen.queryByRole('checkbox', { name: 'Admin' })).not.toBeInTheDocument()
    expect(screen.queryByRole('combobox', { name: 'Role' })).not.toBeInTheDocument()
    await user.clear(first)
    await user.type(first, 'Adaline')
    await user.clear(screen.getByRole('textbox', { name: 'User Name' }))
    await user.type(screen.getByRole('textbox', { name: 'User Name' }), 'ada')
    await user.click(screen.getByRole('button', { name: 'Save details' }))
    await waitFor(() => expect(body).toBeDefined())
    expect(body).toMatchObject({ first_name: 'Adaline', username: 'ada', email: 'admin@example.com' })
    expect(Object.keys(body!).sort()).toEqual(
      ['city', 'country', 'date_of_birth', 'email', 'first_name', 'gender', 'last_name', 'nid', 'postal_code', 'primary_phone', 'secondary_phone', 'street_address_one', 'street_address_two', 'thana', 'username'].sort(),
    )
    expect(await screen.findByText('Your profile is saved.')).toBeInTheDocument()
    await waitFor(() => expect(within(screen.getByTestId('toolbar')).getByText('ada')).toBeInTheDocument())
  })

  it('changes the password with passwordchange/{id} after asking for the current one and confirming the new one', async () => {
    let body: unknown
    server.use(
      http.get(api(`${userBase}/1`), () => HttpResponse.json(me)),
      http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('x', []))),
      http.patch(api(`${userBase}/passwordchange/1`), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json({ detail: "User Id - 1's password has been changed successfully." })
      }),
    )
    const { user } = await renderApp('/pages/profile')
    const form = await screen.findByRole('form', { name: 'Password' })
    // Without the current password nothing is sent.
    await user.type(within(form).getByLabelText(/^New password/), 'newpass1')
    await user.type(within(form).getByLabelText(/^Confirm Password/), 'newpass1')
    await user.click(within(form).getByRole('button', { name: 'Change password' }))
    expect(await within(form).findByText('Current Password is required')).toBeInTheDocument()
    expect(within(form).getByLabelText(/^Current Password/)).toHaveAttribute('aria-invalid', 'true')
    expect(body).toBeUndefined()
    await user.type(within(form).getByLabelText(/^Current Password/), 'oldpass1')
    await user.clear(within(form).getByLabelText(/^New password/))
    await user.clear(within(form).getByLabelText(/^Confirm Password/))
    await user.type(within(form).getByLabelText(/^New password/), 'newpass1')
    await user.type(within(form).getByLabelText(/^Confirm Password/), 'newpass2')
    await user.click(within(form).getByRole('button', { name: 'Change password' }))
    expect(await within(form).findByText('Passwords must match')).toBeInTheDocument()
    expect(body).toBeUndefined()
    await user.clear(within(form).getByLabelText(/^Confirm Password/))
    await user.type(within(form).getByLabelText(/^Confirm Password/), 'newpass1')
    await user.click(within(form).getByRole('button', { name: 'Change password' }))
    await waitFor(() => expect(body).toEqual({ current_password: 'oldpass1', password: 'newpass1', confirm_password: 'newpass1' }))
    expect(await screen.findByText("User Id - 1's password has been changed successfully.")).toBeInTheDocument()
    expect(within(form).getByLabelText(/^New password/)).toHaveValue('')
    expect(within(form).getByLabelText(/^Current Password/)).toHaveValue('')
  })

  it('shows the server’s refusal of a wrong current password on that field', async () => {
    server.use(
      http.get(api(`${userBase}/1`), () => HttpResponse.json(me)),
      http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('x', []))),
      http.patch(api(`${userBase}/passwordchange/1`), () => HttpResponse.json({ current_password: ['Current Password is not correct.'] }, { status: 400 })),
    )
    const { user } = await renderApp('/pages/profile')
    const form = await screen.findByRole('form', { name: 'Password' })
    await user.type(within(form).getByLabelText(/^Current Password/), 'not-mine')
    await user.type(within(form).getByLabelText(/^New password/), 'newpass1')
    await user.type(within(form).getByLabelText(/^Confirm Password/), 'newpass1')
    await user.click(within(form).getByRole('button', { name: 'Change password' }))
    expect(await within(form).findByText('Current Password is not correct.')).toBeInTheDocument()
    expect(within(form).getByLabelText(/^Current Password/)).toHaveAttribute('aria-invalid', 'true')
    // The new password stays typed, to try again with the right current one.
    expect(within(form).getByLabelText(/^New password/)).toHaveValue('newpass1')
  })

  it('shows the default avatar without a photo, and uploads one with uploadimage/{id}', async () => {
    let sent: File | null = null
    server.use(
      http.get(api(`${userBase}/1`), () => HttpResponse.json(me)),
      http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('x', []))),
      http.post(api(`${userBase}/uploadimage/1`), async ({ request }) => {
        sent = (await request.formData()).get('image') as File
        return HttpResponse.json({ image: '/media/user/ada.png' })
      }),
    )
    const { user } = await renderApp('/pages/profile')
    const card = await screen.findByRole('region', { name: 'Profile photo' })
    expect(within(card).getByTestId('default-avatar')).toHaveTextContent('AD')
    await user.upload(within(card).getByLabelText('Change photo'), new File(['png'], 'ada.png', { type: 'image/png' }))
    // A multipart body with the `image` part (jsdom's File does not survive Node's fetch whole).
    await waitFor(() => expect(sent).not.toBeNull())
    await waitFor(() => expect(card.querySelector('img')).toHaveAttribute('src', '/media/user/ada.png'))
    expect(await screen.findByText('Your photo is updated.')).toBeInTheDocument()
  })
})
