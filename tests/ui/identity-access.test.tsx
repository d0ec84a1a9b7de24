import { QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import { createQueryClient } from '../../src/app/query-client'
import { can, levelOf, meets } from '../../src/auth/access'
import { session, userOf } from '../../src/auth/session'
import { loadNamespaces } from '../../src/i18n'
import { adaptMenu, filterNavigation, type MenuItemNode } from '../../src/shell/navigation'
import { UserMenu } from '../../src/shell/UserMenu'
import {
  accessTokenAnswers,
  adminUser,
  api,
  clerkUser,
  envelope,
  menuNode,
  registryMenu,
  storeSessionOf,
  thanaBase,
  thanaRows,
  userMenuAnswers,
  type ServerUser,
} from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * Who sees what in the browser (spec §4, §6; decisions.md): levels and permissions, the
 * route guard, the navigation from the role's menu filtered by permission, the buttons a
 * user may use, and the user menu for a user and a guest.
 */
const thanaList = http.get(api(`${thanaBase}/all/`), () => HttpResponse.json(envelope('thanas', thanaRows)))
const anyCount = http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('x', [], 1, 1, 3)))
const noDemo = http.get(api('/api/auth/demo-credentials'), () => HttpResponse.json({ detail: 'Not in demo mode.' }, { status: 404 }))

function signedInAs(user: ServerUser) {
  storeSessionOf(user)
  server.use(accessTokenAnswers(user))
}

const sessionUser = (user: ServerUser) => userOf(user)

describe('levels and permissions (spec §6)', () => {
  it('maps ADMIN, STAFF and USER to the levels, any other role to staff, no role to a guest', () => {
    expect(levelOf(sessionUser({ ...adminUser, is_admin: false }))).toBe('admin')
    expect(levelOf(sessionUser({ ...clerkUser, role: 'STAFF' }))).toBe('staff')
    expect(levelOf(sessionUser(clerkUser))).toBe('staff')
    expect(levelOf(sessionUser({ ...clerkUser, role: 'USER' }))).toBe('user')
    expect(levelOf(sessionUser({ ...clerkUser, role: null }))).toBeNull()
    // is_admin passes whatever the role (api-contract §3.4).
    expect(levelOf(sessionUser({ ...clerkUser, role: null, is_admin: true }))).toBe('admin')
    expect(levelOf(null)).toBeNull()
  })

  it('allows admin pages to admins, staff pages to admins and staff, user pages to all three', () => {
    const admin = sessionUser(adminUser)
    const staff = sessionUser(clerkUser)
    const user = sessionUser({ ...clerkUser, role: 'USER', permissions: [] })
    expect([admin, staff, user].map((u) => meets(u, { level: 'admin' }))).toEqual([true, false, false])
    expect([admin, staff, user].map((u) => meets(u, { level: 'staff' }))).toEqual([true, true, false])
    expect([admin, staff, user].map((u) => meets(u, { level: 'user' }))).toEqual([true, true, true])
    expect(can(staff, 'THANA_LIST')).toBe(true)
    expect(can(staff, 'USER_LIST')).toBe(false)
    expect(can(admin, 'ANYTHING_AT_ALL')).toBe(true)
  })
})

describe('navigation from the role menu', () => {
  it('adapts the server’s menu and keeps only what the user may open', () => {
    const menu: MenuItemNode[] = [
      menuNode(1, { translate: 'nav.dashboards', url: '/apps/dashboards/project', icon: 'dashboard' }),
      menuNode(2, {
        translate: 'nav.settings',
        type: 'group',
        icon: 'settings',
        children: [
          menuNode(3, { translate: 'nav.police_stations', url: '/apps/thana-management/thanas', icon: 'local_police' }),
          menuNode(4, { translate: 'nav.countries', url: '/apps/country-management/countries', icon: 'public' }),
          // A module not built yet: no screen to open.
          menuNode(5, { translate: 'nav.customers', url: '/apps/customer-management/customers' }),
        ],
      }),
      menuNode(6, { translate: 'nav.user_config', type: 'group', children: [menuNode(7, { translate: 'nav.users', url: '/apps/users-management/userslist' })] }),
      menuNode(8, { translate: 'nav.docs', type: 'link', url: 'https://example.com/docs' }),
    ]
    const items = filterNavigation(adaptMenu(menu), { entities, can: (p) => can(sessionUser(clerkUser), p) })
    expect(items.map((i) => i.id)).toEqual(['m1', 'm2', 'm8'])
    expect(items[1]!.children!.map((c) => c.translate)).toEqual(['nav.police_stations'])
    expect(items[0]).toMatchObject({ type: 'item', url: '/apps/dashboards/project', icon: 'dashboard', exact: true })
    expect(items[1]!.children![0]!.icon).toBe('shield')
  })

  it('shows a STAFF-like user exactly the menu items of their role they may list', async () => {
    signedInAs(clerkUser)
    server.use(thanaList, anyCount, userMenuAnswers(registryMenu()))
    await renderApp('/apps/dashboards/project')
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' })
    await within(nav).findByRole('link', { name: 'Police Stations' })
    const links = within(nav)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'))
    expect(links.filter((href) => href?.startsWith('/apps/'))).toEqual(['/apps/dashboards/project', '/apps/city-management/cities', '/apps/thana-management/thanas'])
    expect(within(nav).queryByText('User Config')).not.toBeInTheDocument()
    expect(within(nav).queryByRole('link', { name: 'Users' })).not.toBeInTheDocument()
  })

  it('falls back to the registry’s navigation, filtered the same way, when the menu cannot be read', async () => {
    signedInAs(clerkUser)
    server.use(anyCount, http.get(api('/menu_item/api/v1/menu_item/nested_menu_item_by_user_role/'), () => HttpResponse.json({ detail: 'Boom' }, { status: 500 })))
    await renderApp('/apps/dashboards/project')
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' })
    expect(await within(nav).findByRole('link', { name: 'Police Stations' })).toBeInTheDocument()
    expect(within(nav).queryByRole('link', { name: 'Countries' })).not.toBeInTheDocument()
  })

  it('shows only the dashboard cards of what the user may list; a USER sees no back-office data', async () => {
    let counted = 0
    server.use(
      // The server counts what the caller may list; the cards are the lists the caller may open.
      http.get(api('/api/quick-panel/data'), () => {
        counted += 1
        return HttpResponse.json({ date: '2026-05-04', counts: { thanas: 3, cities: 4 }, recent: [] })
      }),
    )
    signedInAs(clerkUser)
    const clerk = await renderApp('/apps/dashboards/project')
    expect(await screen.findByTestId('count-thana')).toHaveTextContent('3')
    expect(await screen.findByTestId('count-city')).toHaveTextContent('4')
    expect(screen.queryByTestId('count-user')).not.toBeInTheDocument()
    expect(counted).toBe(1)
    clerk.unmount()

    counted = 0
    signedInAs({ ...clerkUser, id: 9, role: 'USER', permissions: [] })
    server.use(userMenuAnswers([]), http.get(api('/user/api/v1/user/9'), () => HttpResponse.json({ id: 9, first_name: 'Ula', last_name: 'User' })))
    await renderApp('/apps/dashboards/project')
    expect(await screen.findByTestId('dashboard-welcome')).toBeInTheDocument()
    expect(screen.queryByTestId('count-thana')).not.toBeInTheDocument()
    expect(counted).toBe(0)
  })
})

describe('route guard (spec §4, §6)', () => {
  it('sends a user without the permission for a page to / (their dashboard) and says why', async () => {
    signedInAs(clerkUser)
    server.use(anyCount)
    const { router } = await renderApp('/apps/users-management/userslist')
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/dashboards/project'))
    expect(await screen.findByText('You do not have permission to open that page.')).toBeInTheDocument()
  })

  it('sends a user without a role to /login, remembering the page, and lets them sign in there', async () => {
    signedInAs({ ...clerkUser, role: null, permissions: [] })
    server.use(noDemo)
    const { router } = await renderApp('/apps/thana-management/thanas')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(router.state.location.search).toEqual({ redirect: '/apps/thana-management/thanas' })
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument()
    expect(await screen.findByText('Your account has no role yet. Ask an administrator to give it one.')).toBeInTheDocument()
  })

  it('guards forms: a new record needs CREATE, a record DETAILS', async () => {
    signedInAs(clerkUser)
    server.use(anyCount)
    const { router } = await renderApp('/apps/thana-management/thanas/new')
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/dashboards/project'))
  })

  it('hides New, delete and selection without CREATE and DELETE, and Save without UPDATE', async () => {
    signedInAs(clerkUser)
    server.use(
      thanaList,
      http.get(api(`${thanaBase}/11`), () => HttpResponse.json({ id: 11, name: 'Gulshan', bn_name: null, url: null, city: 1 })),
      http.get(api('/city/api/v1/city/:id'), () => HttpResponse.json({ id: 1, name: 'Dhaka', country: 18 })),
      http.get(api('/city/api/v1/city/all/'), () => HttpResponse.json(envelope('cities', []))),
    )
    const { user, router } = await renderApp('/apps/thana-management/thanas')
    const row = (await screen.findByText('Gulshan')).closest('tr')!
    expect(screen.queryByRole('link', { name: 'New' })).not.toBeInTheDocument()
    expect(screen.queryByRole('checkbox', { name: 'Select all rows on this page' })).not.toBeInTheDocument()
    expect(within(row).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument()

    await user.click(row)
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/thana-management/thanas/11/Gulshan'))
    expect(await screen.findByRole('heading', { name: 'Edit Police Station' })).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /^Name/ })).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument()
  })
})

describe('forms follow the permissions too', () => {
  it('leaves out an optional reference whose target the user may not list (no roles to offer a staff member)', async () => {
    signedInAs({ ...clerkUser, permissions: ['EMPLOYEE_LIST', 'EMPLOYEE_CREATE', 'DEPARTMENT_LIST', 'BRANCH_LIST', 'THANA_LIST'] })
    server.use(anyCount)
    await renderApp('/apps/employee-management/employees/new')
    await screen.findByRole('heading', { name: 'New Employee' })
    expect(screen.getByRole('combobox', { name: 'Department' })).toBeInTheDocument()
    expect(screen.queryByRole('combobox', { name: 'Role' })).not.toBeInTheDocument()
    expect(screen.queryByRole('combobox', { name: 'Designation' })).not.toBeInTheDocument()
    // A required one stays: the server will say what is missing.
    expect(screen.getByRole('combobox', { name: /^Branch/ })).toBeInTheDocument()
  })
})

describe('what only an admin may set', () => {
  it('shows a staff member the Admin flag read-only, saying why, and offers it to an admin', async () => {
    signedInAs({ ...clerkUser, permissions: ['EMPLOYEE_LIST', 'EMPLOYEE_CREATE', 'DEPARTMENT_LIST', 'BRANCH_LIST', 'THANA_LIST'] })
    server.use(anyCount)
    await renderApp('/apps/employee-management/employees/new')
    await screen.findByRole('heading', { name: 'New Employee' })
    const flag = screen.getByRole('checkbox', { name: 'Admin' })
    expect(flag).toBeDisabled()
    expect(flag).toHaveAccessibleDescription('Only an admin can change this.')
  })

  it('lets an admin tick it', async () => {
    signedInAs(adminUser)
    server.use(anyCount)
    const { user } = await renderApp('/apps/employee-management/employees/new')
    await screen.findByRole('heading', { name: 'New Employee' })
    const flag = screen.getByRole('checkbox', { name: 'Admin' })
    expect(flag).toBeEnabled()
    await user.click(flag)
    expect(flag).toBeChecked()
  })
})

describe('user menu (spec §2)', () => {
  it('shows the role name with My Profile, Inbox and Logout to a signed-in user', async () => {
    signedInAs(clerkUser)
    server.use(anyCount)
    const { user } = await renderApp('/apps/dashboards/project')
    expect(await screen.findByTestId('user-role')).toHaveTextContent('clerk')
    await user.click(screen.getByRole('button', { name: /^User menu/ }))
    const menu = screen.getByRole('menu', { name: 'User menu' })
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['My Profile', 'Inbox', 'Logout'])
    expect(within(menu).getByRole('menuitem', { name: 'My Profile' })).toHaveAttribute('href', '/pages/profile')
    expect(within(menu).getByRole('menuitem', { name: 'Inbox' })).toHaveAttribute('href', '/apps/mail')
  })

  it('says Guest and offers Login and Register to a guest', async () => {
    await loadNamespaces('shell')
    session.restart()
    const rootRoute = createRootRoute({ component: UserMenu })
    const router = createRouter({ routeTree: rootRoute.addChildren([createRoute({ getParentRoute: () => rootRoute, path: '/' })]), history: createMemoryHistory() })
    const user = userEvent.setup()
    render(
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    )
    const button = await screen.findByRole('button', { name: /^User menu/ })
    expect(button).toHaveTextContent('Guest')
    expect(screen.getByTestId('default-avatar')).toBeInTheDocument()
    await user.click(button)
    const menu = screen.getByRole('menu', { name: 'User menu' })
    expect(within(menu).getAllByRole('menuitem').map((i) => [i.textContent, i.getAttribute('href')])).toEqual([
      ['Login', '/login'],
      ['Register', '/register'],
    ])
    await act(async () => undefined)
  })
})
