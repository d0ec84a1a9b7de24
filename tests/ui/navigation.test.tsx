import { createMemoryHistory } from '@tanstack/react-router'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { entities, registry, reportRegistry, reports } from '../../schema'
import { defineReport, f } from '../../schema/kit'
import type { Report } from '../../schema/kit/report'
import { materialIcons, navGroups, navigationEntries, navPages } from '../../schema/navigation'
import { App } from '../../src/app/App'
import { createQueryClient } from '../../src/app/query-client'
import { createAppRouter } from '../../src/app/router'
import { buildSignedInRoutes } from '../../src/app/signed-in-routes'
import { can } from '../../src/auth/access'
import { session } from '../../src/auth/session'
import { checkSession } from '../../src/auth/start-up'
import { i18n } from '../../src/i18n'
import { adaptMenu, filterNavigation, iconOfMaterial, registryNavigation } from '../../src/shell/navigation'
import { defaultSettings, normalizeSettings, SETTINGS_KEY } from '../../src/shell/settings/settings'
import { getSettings, reloadSettings, USER_UPDATE_PATH } from '../../src/shell/settings/store'
import { gadgetOrder, gadgetSales, throwawayCatalogue } from '../support/throwaway-registry'
import { accessTokenAnswers, api, clerkUser, envelope, menuNode, registryMenu, storeSession, storeSessionOf, USER_MENU_URL, userMenuAnswers, type ServerUser } from './support/fixtures'
import { server } from './support/server'

/**
 * The navigation and the shortcuts from the registry (schema/navigation.ts): the sidebar
 * the registry declares when the server's menu cannot be read — its groups in order, the
 * entities' lists and the reports, filtered by permission — the icons of its Material
 * names, and the pins a new user starts with.
 */
const { staff_costs: staffCosts, change_log: changeLog } = reportRegistry

async function renderAppWith(path: string, reportList: readonly Report[] = reports, entityList = entities) {
  const history = createMemoryHistory({ initialEntries: [path] })
  const queryClient = createQueryClient()
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: 0 } })
  const router = createAppRouter({ entities: entityList, reports: reportList, signedInRoutes: buildSignedInRoutes, history, queryClient })
  session.restart()
  const user = userEvent.setup()
  const view = render(<App router={router} />)
  await act(() => checkSession())
  return { ...view, router, user }
}

const menuFails = http.get(api(USER_MENU_URL), () => HttpResponse.json({ detail: 'Boom' }, { status: 500 }))
const anyList = http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('x', [], 1, 1, 0)))

/** A STAFF-like role that lists districts and police stations and may see the staff costs. */
const costClerk: ServerUser = { ...clerkUser, permissions: [...clerkUser.permissions, staffCosts.permission] }

async function mainNavigation() {
  return screen.findByRole('navigation', { name: 'Main navigation' })
}

/** The items of `expected` that `actual` has, in `actual`'s order. */
const inOrder = <T,>(actual: readonly T[], expected: readonly T[]) => actual.filter((x) => expected.includes(x))

const hrefsIn = (element: HTMLElement) =>
  within(element)
    .getAllByRole('link')
    .map((a) => a.getAttribute('href'))

beforeAll(() => {
  i18n.addResourceBundle('en', 'translation', throwawayCatalogue, true, true)
})

describe('the navigation from the registry, when the menu cannot be read', () => {
  it('shows the registry’s groups in their order, each with its lists and reports in theirs', async () => {
    storeSession()
    server.use(menuFails, anyList)
    await renderAppWith('/apps/dashboards/project')
    const nav = await mainNavigation()
    const reportsGroup = await within(nav).findByRole('list', { name: 'Reports' })
    // The product's own entries in the spec's order (an entity or report added later may join them).
    expect(inOrder(hrefsIn(reportsGroup), [staffCosts.ui.path, changeLog.ui.path])).toEqual([staffCosts.ui.path, changeLog.ui.path])
    expect(within(reportsGroup).getByRole('link', { name: 'Staff costs by branch' })).toBeInTheDocument()
    const groups = within(nav)
      .getAllByRole('list')
      .map((list) => list.getAttribute('aria-label'))
      .filter((label): label is string => label !== null)
    const specGroups = ['Employee Management', 'Settings', 'User Config', 'Reports']
    expect(inOrder(groups, specGroups)).toEqual(specGroups)
    // The template's demonstration pages are a developer's (VITE_TEMPLATE_PAGES), not the product's menu.
    expect(groups).not.toContain('Pages')
    const { customer_type, country, city, thana, branch, general_setting, homepage_slider } = registry
    const settings = [customer_type, country, city, thana, branch, general_setting, homepage_slider].map((e) => e.ui.listPath)
    expect(inOrder(hrefsIn(within(nav).getByRole('list', { name: 'Settings' })), settings)).toEqual(settings)
    // And nothing but the registry's entries.
    const registered = new Set(navigationEntries(entities, reports).map((e) => e.url))
    expect(hrefsIn(nav).filter((href) => href?.startsWith('/apps/') && !registered.has(href))).toEqual([])
    // The dashboard comes first, at the top level, as the server's menu has it.
    expect(hrefsIn(nav)[0]).toBe('/apps/dashboards/project')
  })

  it('keeps only what the user may open: the lists they may read and the reports they may see', async () => {
    storeSessionOf(costClerk)
    server.use(accessTokenAnswers(costClerk), menuFails, anyList)
    await renderAppWith('/apps/dashboards/project')
    const nav = await mainNavigation()
    await within(nav).findByRole('link', { name: 'Staff costs by branch' })
    // The tickets' list is everyone's: they list their own tickets there (`own`), not the departments' queues.
    expect(hrefsIn(nav).filter((href) => href?.startsWith('/apps/'))).toEqual(['/apps/dashboards/project', '/apps/city-management/cities', '/apps/thana-management/thanas', registry.ticket.ui.listPath, staffCosts.ui.path])
    expect(within(nav).queryByRole('link', { name: 'Change log' })).not.toBeInTheDocument()
    expect(within(nav).queryByRole('list', { name: 'User Config' })).not.toBeInTheDocument()
  })

  it('leaves out a report whose screen the app does not have', async () => {
    storeSession()
    server.use(menuFails, anyList)
    await renderAppWith('/apps/dashboards/project', [staffCosts])
    const nav = await mainNavigation()
    const reportsGroup = await within(nav).findByRole('list', { name: 'Reports' })
    expect(hrefsIn(reportsGroup)).toEqual([staffCosts.ui.path])
  })

  it('places a report and an entity defined at run time where their nav says', () => {
    const items = registryNavigation(navigationEntries([...entities, gadgetOrder], [gadgetSales, ...reports]))
    const settings = items.find((i) => i.id === 'settings')!
    // After the app's settings entries (its order, 50, is past theirs).
    const ids = settings.children!.map((c) => c.id)
    expect(ids.indexOf('gadget_order')).toBeGreaterThan(ids.indexOf('homepage_slider'))
    expect(settings.children!.find((c) => c.id === 'gadget_order')).toMatchObject({ url: gadgetOrder.ui.listPath, icon: 'receipt', translate: 'entity.gadget_order.other' })
    const reportItems = items.find((i) => i.id === 'reports')!.children!
    // First by its order (1), ahead of the app's own reports.
    expect(inOrder(reportItems.map((i) => i.id), ['report-gadget_sales', 'report-staff_costs', 'report-change_log'])).toEqual(['report-gadget_sales', 'report-staff_costs', 'report-change_log'])
    expect(reportItems[0]).toMatchObject({ url: '/apps/report-management/gadget-sales', translate: 'report.gadget_sales', icon: 'report' })
  })
})

describe('the server’s menu', () => {
  it('keeps a report item for the holders of the report’s permission only', () => {
    const menu = adaptMenu([
      menuNode(1, { translate: 'nav.reports', type: 'group', icon: 'assessment', children: [menuNode(2, { translate: 'report.staff_costs', url: staffCosts.ui.path, icon: 'payments' }), menuNode(3, { translate: 'report.change_log', url: changeLog.ui.path, icon: 'history' })] }),
    ])
    const forUser = (permissions: string[]) =>
      filterNavigation(menu, { entities, reports, can: (p) => can({ ...costClerk, isAdmin: false, permissions } as never, p) })
    expect(forUser([staffCosts.permission])[0]!.children!.map((c) => c.url)).toEqual([staffCosts.ui.path])
    expect(forUser([staffCosts.permission])[0]!.children![0]!.icon).toBe('banknotes')
    expect(forUser([])).toEqual([])
    // Without the report's screen, it is an address this app does not serve.
    expect(filterNavigation(menu, { entities, can: () => true })).toEqual([])
  })

  it('shows a report item of the role’s menu in the sidebar', async () => {
    storeSession()
    server.use(anyList, userMenuAnswers([...registryMenu(), menuNode(90, { translate: 'nav.reports', type: 'group', children: [menuNode(91, { translate: 'report.staff_costs', url: staffCosts.ui.path, icon: 'payments' })] })]))
    await renderAppWith('/apps/dashboards/project')
    const nav = await mainNavigation()
    expect(await within(nav).findByRole('link', { name: 'Staff costs by branch' })).toHaveAttribute('href', staffCosts.ui.path)
  })
})

describe('icons', () => {
  it('draws every Material icon the registry may name, and the ones it names are among them', () => {
    const drawn = iconOfMaterial as Readonly<Record<string, string | undefined>>
    expect(materialIcons.filter((name) => drawn[name] === undefined)).toEqual([])
    const named = [
      ...navigationEntries([...entities, gadgetOrder], [...reports, gadgetSales]).map((e) => e.icon),
      ...navGroups.map((g) => g.icon),
      ...navPages.map((p) => p.icon),
    ]
    expect([...new Set(named)].filter((name) => drawn[name] === undefined)).toEqual([])
  })
})

describe('default shortcuts', () => {
  it('are not chosen in the settings the login screen knows, and old saved settings still parse', () => {
    expect(defaultSettings.shortcuts).toBeNull()
    expect(normalizeSettings(undefined).shortcuts).toBeNull()
    expect(normalizeSettings({ shortcuts: 'city' }).shortcuts).toBeNull()
    // The former hand-written default, saved with every settings change: read as not chosen.
    expect(normalizeSettings({ shortcuts: ['dashboards.project', 'city', 'thana', 'branch'] }).shortcuts).toBeNull()
    expect(normalizeSettings({ shortcuts: ['role', 7, 'city'] }).shortcuts).toEqual(['role', 'city'])
    expect(normalizeSettings({ shortcuts: [] }).shortcuts).toEqual([])
  })

  it('pin the registry’s shortcuts for a new user, a report among them when its nav says so', async () => {
    storeSession()
    const pinnedReport = defineReport({ name: 'gadget_sales', module: 'test', route: 'gadget-sales', params: {}, columns: { gadget: f.text() }, nav: { group: 'reports', icon: 'assessment', shortcut: true } })
    server.use(menuFails, anyList)
    await renderAppWith('/apps/dashboards/project', [...reports, pinnedReport])
    const pinned = await screen.findByRole('list', { name: 'Pinned shortcuts' })
    await waitFor(() => expect(within(pinned).getAllByRole('link').map((a) => a.getAttribute('aria-label'))).toEqual(['Dashboards', 'Districts', 'Police Stations', 'Branches', 'Gadget sales']))
    const expected = navigationEntries(entities, [...reports, pinnedReport])
      .filter((e) => e.isShortcut)
      .map((e) => e.menuId)
    expect(expected).toEqual(['dashboards', 'city', 'thana', 'branch', 'report-gadget_sales'])
  })

  it('keep a user’s own pins as they are, and start a first change from the registry’s', async () => {
    storeSession()
    localStorage.setItem(SETTINGS_KEY, JSON.stringify({ shortcuts: ['role', 'report-staff_costs'] }))
    reloadSettings()
    server.use(anyList, http.post(api(USER_UPDATE_PATH), () => HttpResponse.json({})), userMenuAnswers([...registryMenu(), menuNode(90, { translate: 'nav.reports', type: 'group', children: [{ ...menuNode(91, { translate: 'report.staff_costs', url: staffCosts.ui.path, icon: 'payments' }), menu_id: 'report-staff_costs' }] })]))
    const { unmount } = await renderAppWith('/apps/dashboards/project')
    const pinned = await screen.findByRole('list', { name: 'Pinned shortcuts' })
    await waitFor(() => expect(within(pinned).getAllByRole('link').map((a) => a.getAttribute('aria-label'))).toEqual(['Roles', 'Staff costs by branch']))
    unmount()

    localStorage.removeItem(SETTINGS_KEY)
    reloadSettings()
    const { user } = await renderAppWith('/apps/dashboards/project')
    await user.click(await screen.findByRole('button', { name: 'Shortcuts' }))
    const panel = await screen.findByRole('dialog', { name: 'Shortcuts' })
    await user.click(await within(panel).findByRole('button', { name: 'Unpin Police Stations' }))
    expect(getSettings().shortcuts).toEqual(['dashboards', 'city', 'branch'])
  })
})
