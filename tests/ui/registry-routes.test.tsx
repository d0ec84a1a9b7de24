import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { entities, registry, reports } from '../../schema'
import { navigationEntries } from '../../schema/navigation'
import { defineEntity, f } from '../../schema/kit'
import { createMemoryHistory } from '@tanstack/react-router'
import { createAppRouter } from '../../src/app/router'
import { buildSignedInRoutes } from '../../src/app/signed-in-routes'
import { changeLanguage, i18n } from '../../src/i18n'
import { pageItems, registryNavigation, type NavigationItem } from '../../src/shell/navigation'
import { api, cityHandlers, envelope, menuNode, registryMenu, storeSession, userMenuAnswers } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/** An entity that exists only in this test: nothing else in src/ knows about it. */
const gadget = defineEntity({
  name: 'gadget',
  module: 'test',
  listKey: 'gadgets',
  ordering: 'name',
  route: { area: 'gadget-management', list: 'gadgets' },
  fields: {
    name: f.text({ max: 40, required: true, search: true }),
    price: f.money({ required: true }),
    is_active: f.boolean({ default: true }),
    size: f.choice(['small', 'large'] as const),
    city: f.ref('city', { label: 'field.district' }),
    released_on: f.date(),
  },
})
const withGadget = [...entities, gadget]

const gadgetRows = [
  { id: 1, name: 'Sprocket', price: '1250.50', is_active: true, size: 'small', city: { id: 1, name: 'Dhaka' }, released_on: '2026-03-01' },
  { id: 2, name: 'Widget', price: '7.00', is_active: false, size: null, city: null, released_on: null },
]


describe('routes and screens come from the entity list', () => {
  beforeEach(() => {
    storeSession()
    i18n.addResourceBundle('en', 'translation', { entity: { gadget: { one: 'Gadget', other: 'Gadgets' } }, field: { price: 'Price', size: 'Size', released_on: 'Released' }, option: { small: 'Small', large: 'Large' } }, true, true)
  })
  afterEach(() => changeLanguage('en'))

  it('gives every entity a list, a form and, alone in its area, an area form route', () => {
    const router = createAppRouter({ entities: withGadget, signedInRoutes: buildSignedInRoutes, history: createMemoryHistory() })
    const paths = Object.keys(router.routesByPath)
    const screens = withGadget.filter((e) => !e.isLine)
    for (const entity of screens) {
      expect(paths).toContain(entity.ui.listPath)
      expect(paths).toContain(`${entity.ui.formPath}/$id/{-$name}`)
      const isAlone = screens.filter((e) => e.ui.areaPath === entity.ui.areaPath).length === 1
      if (isAlone) expect(paths).toContain(`${entity.ui.areaPath}/$id`)
      else expect(paths).not.toContain(`${entity.ui.areaPath}/$id`)
    }
    // The spec's voucher screens share `accounts/` (product-spec "Extra routes").
    expect(paths).toEqual(expect.arrayContaining(['/apps/accounts/paymentvouchers', '/apps/accounts/paymentvoucher/$id/{-$name}', '/apps/accounts/receiptvouchers', '/apps/accounts/receivable_bills', '/apps/accounts/payable_bills', '/apps/contra-management/contras', '/apps/journal-management/journals']))
    expect(paths).toEqual(expect.arrayContaining(['/login', '/', '/pages/errors/error-404', '/apps/dashboards/project']))
  })

  it('lists and edits a throwaway entity with no other change', async () => {
    let created: unknown
    server.use(
      ...cityHandlers,
      http.get(api('/gadget/api/v1/gadget/all/'), () => HttpResponse.json(envelope('gadgets', gadgetRows))),
      http.post(api('/gadget/api/v1/gadget/create/'), async ({ request }) => {
        created = await request.json()
        return HttpResponse.json({ id: 3 }, { status: 201 })
      }),
      // The role's menu names it like any other screen.
      userMenuAnswers([...registryMenu(), menuNode(90, { translate: 'entity.gadget.other', url: gadget.ui.listPath })]),
    )
    const { user, router } = await renderApp('/apps/gadget-management/gadgets', { entities: withGadget })
    expect(await screen.findByRole('heading', { name: 'Gadgets' })).toBeInTheDocument()
    const sprocket = (await screen.findByText('Sprocket')).closest('tr')!
    expect(within(sprocket).getByText('1,250.50')).toHaveClass('text-end')
    expect(within(sprocket).getByText('Dhaka')).toBeInTheDocument()
    expect(within(sprocket).getByText('Small')).toBeInTheDocument()
    expect(within(sprocket).getByText('Yes')).toBeInTheDocument()
    expect(within(sprocket).getByText('Mar 1, 2026')).toBeInTheDocument()
    // It is in the navigation too, where the role's menu puts it.
    expect(within(screen.getByRole('navigation')).getByRole('link', { name: 'Gadgets' })).toHaveAttribute('href', '/apps/gadget-management/gadgets')

    await user.click(screen.getByRole('link', { name: 'New' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/gadget-management/gadgets/new'))
    expect(await screen.findByRole('heading', { name: 'New Gadget' })).toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'Active' })).toBeChecked()
    expect(screen.getByRole('combobox', { name: 'Size' })).toBeInTheDocument()
    expect(screen.getByRole('combobox', { name: 'District' })).toBeInTheDocument()
    // A date: typed as YYYY-MM-DD or picked from the app's own calendar (not the browser's date input).
    expect(screen.getByRole('textbox', { name: 'Released' })).toHaveAttribute('placeholder', 'YYYY-MM-DD')
    expect(screen.getByRole('button', { name: 'Choose Released from a calendar' })).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Name is required')).toBeInTheDocument()
    expect(screen.getByText('Price is required')).toBeInTheDocument()

    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Gizmo')
    await user.type(screen.getByRole('textbox', { name: /^Price/ }), '12.5')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Size' }), 'large')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(created).toEqual({ name: 'Gizmo', price: '12.50', is_active: true, size: 'large', city: null, released_on: null }),
    )
  })
})

describe('navigation', () => {
  it('groups the registry’s entities and reports as its navigation declares, then the shell’s pages', () => {
    const items = registryNavigation(navigationEntries(entities, reports))
    // The product's own entries in the spec's order; an entity or report added later may join them.
    const inOrder = <T,>(actual: readonly T[], expected: readonly T[]) => expect(actual.filter((x) => expected.includes(x))).toEqual(expected)
    const group = (id: string) => items.find((i) => i.id === id)!
    inOrder(items.map((i) => i.id), ['dashboards', 'employee-management', 'settings', 'user-config', 'reports'])
    // The template's demonstration pages are a developer's, not in the product's menu.
    expect(items.map((i) => i.id)).not.toContain('pages')
    expect(pageItems(true).map((i) => i.id)).toEqual(['divider-pages', 'pages'])
    expect(items[0]).toMatchObject({ type: 'item', url: '/apps/dashboards/project', translate: 'nav.dashboards', icon: 'dashboard' })
    inOrder(group('employee-management').children!.map((c) => c.url), [registry.employee, registry.department, registry.designation, registry.qualification].map((e) => e.ui.listPath))
    inOrder(group('settings').children!.map((c) => c.translate), [
      'nav.customer_types',
      'nav.countries',
      'nav.districts',
      'nav.police_stations',
      'nav.branches',
      'nav.site_settings',
      'nav.slider_settings',
    ])
    inOrder(group('reports').children!.map((c) => c.id), ['report-staff_costs', 'report-change_log'])
    expect(group('reports').children).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'report-staff_costs', translate: 'report.staff_costs', url: '/apps/report-management/staff-cost-reports', icon: 'banknotes' }),
        expect.objectContaining({ id: 'report-change_log', translate: 'report.change_log', url: '/apps/report-management/change-log-reports', icon: 'clock' }),
      ]),
    )
    const all = (list: readonly NavigationItem[]): NavigationItem[] => list.flatMap((i) => [i, ...all(i.children ?? [])])
    for (const item of all(items)) {
      expect(item).toMatchObject({ id: expect.any(String), title: expect.any(String), type: expect.stringMatching(/^(group|collapse|item|link|divider)$/) })
    }
    // Every type of the spec's item shape is used (the developer's pages show the rest), and a badge too.
    const withDeveloperPages = [...items, ...pageItems(true)]
    expect(new Set(all(withDeveloperPages).map((i) => i.type))).toEqual(new Set(['group', 'collapse', 'item', 'link', 'divider']))
    expect(all(withDeveloperPages).some((i) => i.badge)).toBe(true)
  })

  it('switches the interface to Arabic, right to left, from the language menu', async () => {
    storeSession()
    server.use(http.get(api('/:entity/api/v1/:same/all/'), () => HttpResponse.json(envelope('x', [], 1, 1, 0))))
    const { user } = await renderApp('/apps/dashboards/project')
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' })
    expect(await within(nav).findByText('Employee Management')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: /^Language/ }))
    await user.click(screen.getByRole('menuitemradio', { name: /العربية/ }))
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'))
    expect(document.documentElement).toHaveAttribute('lang', 'ar')
    expect(await within(screen.getByRole('navigation')).findByText('مراكز الشرطة')).toBeInTheDocument()
    expect(localStorage.getItem('language')).toBe('ar')
  })
})

describe('second addresses of a screen', () => {
  beforeEach(() => storeSession())

  it('gives the spec’s “acccount-management/accounts” to the accounts department’s tickets (issue 23), search kept', async () => {
    const asked: URLSearchParams[] = []
    server.use(
      http.get(api(`${registry.ticket.api.base}/all/`), ({ request }) => {
        asked.push(new URL(request.url).searchParams)
        return HttpResponse.json(envelope('tickets', []))
      }),
    )
    const { router } = await renderApp('/apps/acccount-management/accounts?q=card')
    expect(await screen.findByRole('heading', { level: 1, name: 'Accounts' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/apps/acccount-management/accounts')
    await waitFor(() => expect(asked.at(-1)?.get('view')).toBe('accounts'))
    expect(asked.at(-1)?.get('q')).toBe('card')
  })
})

describe('other addresses of a form (route.formAt)', () => {
  beforeEach(() => storeSession())

  it('opens a content picture’s form from the spec’s content-management-image/{imageId}/{contentName}/{menuName?}, with or without the names', async () => {
    const image = registry.cms_menu_content_image
    server.use(http.get(api(`${image.api.base}/9`), () => HttpResponse.json({ id: 9, cms_menu: 1, head: 'banner', image: null, _labels: { cms_menu: 'Tours' } })))
    const { router } = await renderApp('/apps/content-management-image/9/Sajek%20Valley/Tours')
    await waitFor(() => expect(router.state.location.pathname).toBe(`${image.ui.formPath}/9`))
    await router.navigate({ to: '/apps/content-management-image/9' })
    await waitFor(() => expect(router.state.location.pathname).toBe(`${image.ui.formPath}/9`))
    await router.navigate({ to: '/apps/cause-content-management-image/4' })
    await waitFor(() => expect(router.state.location.pathname).toBe(`${registry.cause_content_image.ui.formPath}/4`))
  })
})

describe('an area’s own address', () => {
  beforeEach(() => storeSession())

  it('opens the area’s first list: /apps/e-commerce leads to the products (spec §routes)', async () => {
    server.use(http.get(api(`${registry.product.api.base}/all/`), () => HttpResponse.json(envelope('products', []))))
    const { router } = await renderApp('/apps/e-commerce')
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/e-commerce/products'))
  })
})
