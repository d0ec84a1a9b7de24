import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { dashboardWidgets } from '../../schema/dashboards'
import { accessTokenAnswers, api, clerkUser, QUICK_PANEL_URL, storeSessionOf, USER_MENU_URL, userMenuAnswers, type ServerUser } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The landing page (issue 20): the counts of every list in one request — the quick panel's,
 * so the two agree — with the sidebar's menu never waiting behind them; and for someone the
 * back-office gives no list, a welcome to what is theirs instead of an empty page of counts.
 */
const listed = entities.filter((e) => !e.isLine)
// Who may read a widget's data sees the shop's dashboard instead (below): the counts are for the others.
const widgetReads = new Set(dashboardWidgets.map((w) => w.reads))
const counted = listed.filter((e) => !widgetReads.has(e.name))
const countingClerk: ServerUser = { ...clerkUser, id: 11, permissions: counted.map((e) => e.permissions.LIST) }

function signedInAs(user: ServerUser) {
  storeSessionOf(user)
  server.use(accessTokenAnswers(user))
}

/** Every request the page makes for a list (`…/all/`), which the dashboard no longer makes to count. */
function watchListRequests(): string[] {
  const seen: string[] = []
  server.use(
    http.get(api('/:entity/api/v1/:same/all/'), ({ request }) => {
      seen.push(new URL(request.url).pathname)
      return HttpResponse.json({ detail: 'not expected' }, { status: 500 })
    }),
  )
  return seen
}

describe('the dashboard’s counts', () => {
  it('asks for every count in one request and shows each list’s count from it', async () => {
    let asked = 0
    server.use(
      http.get(api(QUICK_PANEL_URL), () => {
        asked += 1
        return HttpResponse.json({ date: '2026-05-04', counts: Object.fromEntries(listed.map((e) => [e.listKey, e.name.length * 100])), recent: [] })
      }),
    )
    const lists = watchListRequests()
    signedInAs(countingClerk)
    await renderApp('/apps/dashboards/project')
    for (const entity of counted) {
      expect(await screen.findByTestId(`count-${entity.name}`)).toHaveTextContent(new Intl.NumberFormat('en').format(entity.name.length * 100))
    }
    // A document's lines have no list, so no card; a voucher is counted as the panel counts it.
    for (const entity of entities.filter((e) => e.isLine)) expect(screen.queryByTestId(`count-${entity.name}`)).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Open Payment Vouchers' })).toHaveTextContent('1,500')
    expect(asked).toBe(1)
    expect(lists).toEqual([])
  })

  it('shows the sidebar’s menu while the counts are still on their way', async () => {
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const order: string[] = []
    server.use(
      http.get(api(QUICK_PANEL_URL), async () => {
        order.push('counts')
        await held
        return HttpResponse.json({ date: '2026-05-04', counts: { thanas: 3, cities: 2 }, recent: [] })
      }),
      http.get(api(USER_MENU_URL), () => {
        order.push('menu')
        return HttpResponse.json({
          menu_items: [
            { id: 1, parent: null, menu_id: 'thana', title: 'Police Stations', translate: `${registry.thana.labelKey}.other`, type: 'item', icon: null, url: registry.thana.ui.listPath, exact: true, children: [] },
          ],
        })
      }),
    )
    signedInAs(clerkUser)
    try {
      await renderApp('/apps/dashboards/project')
      const nav = await screen.findByRole('navigation', { name: 'Main navigation' })
      expect(await within(nav).findByRole('link', { name: 'Police Stations' })).toBeInTheDocument()
      // The counts are still pending: their cards wait, the menu did not.
      expect(screen.queryByTestId('count-thana')).not.toBeInTheDocument()
      expect(order.filter((x) => x === 'counts')).toHaveLength(1)
    } finally {
      release()
    }
    expect(await screen.findByTestId('count-thana')).toHaveTextContent('3')
    expect(screen.getByTestId('count-city')).toHaveTextContent('2')
    expect(order.filter((x) => x === 'counts')).toHaveLength(1)
  })

  it('says a count is unavailable when the counts cannot be read, and still links every list', async () => {
    server.use(http.get(api(QUICK_PANEL_URL), () => HttpResponse.json({ detail: 'Boom' }, { status: 500 })))
    signedInAs(clerkUser)
    await renderApp('/apps/dashboards/project')
    const card = await screen.findByRole('link', { name: 'Open Police Stations' })
    await waitFor(() => expect(card).toHaveTextContent('Unavailable'))
    expect(card).toHaveAttribute('href', registry.thana.ui.listPath)
  })
})

describe('the landing page of someone the back-office gives no list', () => {
  const member: ServerUser = { ...clerkUser, id: 12, email: 'nadia@example.com', username: 'nadia', role: 'USER', permissions: [] }

  it('welcomes them by name to their profile, password, language and look — no empty counts, no empty quick panel', async () => {
    let counted = 0
    let saved: unknown
    server.use(
      userMenuAnswers([]),
      http.post(api('/api/auth/user/update'), async ({ request }) => {
        saved = await request.json()
        return HttpResponse.json({ user: {} })
      }),
      http.get(api(QUICK_PANEL_URL), () => {
        counted += 1
        return HttpResponse.json({ date: '2026-05-04', counts: {}, recent: [] })
      }),
      http.get(api(`${registry.user.api.base}/12`), () => HttpResponse.json({ id: 12, first_name: 'Nadia', last_name: 'Akter', username: 'nadia', email: 'nadia@example.com' })),
    )
    const lists = watchListRequests()
    signedInAs(member)
    const { user } = await renderApp('/apps/dashboards/project')
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Nadia Akter' })).toBeInTheDocument()
    const welcome = screen.getByTestId('dashboard-welcome')
    expect(within(welcome).getByText('nadia@example.com')).toBeInTheDocument()
    expect(within(welcome).getByRole('link', { name: /My Profile/ })).toHaveAttribute('href', '/pages/profile')
    expect(within(welcome).getByRole('link', { name: /Change password/ })).toHaveAttribute('href', '/pages/profile#password')
    expect(within(welcome).getByRole('combobox', { name: 'Language' })).toHaveValue('en')
    expect(screen.queryByText(/Records per module/)).not.toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Project dashboard' })).not.toBeInTheDocument()
    expect(counted).toBe(0)
    expect(lists).toEqual([])
    // Their sidebar: their welcome page and their profile, not an empty bar.
    const sidebar = screen.getByRole('navigation', { name: 'Main navigation' })
    expect(await within(sidebar).findByRole('link', { name: 'Home' })).toHaveAttribute('href', '/apps/dashboards/project')
    expect(within(sidebar).getByRole('link', { name: 'My Profile' })).toHaveAttribute('href', '/pages/profile')

    // The look: dark in one click, as the toolbar's toggle does it.
    await user.click(within(welcome).getByRole('button', { name: 'Dark' }))
    await waitFor(() => expect(document.documentElement.classList.contains('dark')).toBe(true))
    expect(within(welcome).getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true')
    // …and kept with their account, as every change of the look is.
    await waitFor(() => expect(saved).toMatchObject({ settings: { theme: { main: 'default-dark' } } }))

    // Their quick panel: today, and no heading over nothing.
    await user.click(screen.getByRole('button', { name: 'Quick panel' }))
    const panel = await screen.findByRole('dialog', { name: 'Quick Panel' })
    expect(await within(panel).findByTestId('quick-panel-date')).toBeInTheDocument()
    expect(within(panel).queryByText('Records')).not.toBeInTheDocument()
    expect(within(panel).queryByText('Recent activity')).not.toBeInTheDocument()
  })

  it('opens My Profile at the password when they choose to change it', async () => {
    server.use(
      userMenuAnswers([]),
      http.get(api(`${registry.user.api.base}/12`), () => HttpResponse.json({ id: 12, first_name: 'Nadia', last_name: 'Akter', username: 'nadia', email: 'nadia@example.com' })),
    )
    const scrolled: string[] = []
    const original = Element.prototype.scrollIntoView
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id)
    }
    try {
      signedInAs(member)
      const { user, router } = await renderApp('/apps/dashboards/project')
      await user.click(await screen.findByRole('link', { name: /Change password/ }))
      await waitFor(() => expect(router.state.location.pathname).toBe('/pages/profile'))
      expect(await screen.findByRole('form', { name: 'Password' })).toBeInTheDocument()
      await waitFor(() => expect(scrolled).toContain('password'))
    } finally {
      Element.prototype.scrollIntoView = original
    }
  })
})

describe('the shop’s dashboard', () => {
  const WIDGETS_URL = '/dashboard/api/v1/widgets/'
  const answer = {
    widgets: {
      paid_orders: { count: 1234, amount: '56789.50' },
      unpaid_orders: { count: 2, amount: '640.00' },
      customers: { count: 41, amount: null },
      low_stock_products: { count: 3, amount: null },
      order_totals: { points: [{ label: 'option.confirmed', value: '3', key: 'confirmed', translate: true }] },
      latest_orders: { rows: [{ id: 9, order_no: 'OR20261127009', customer: 'farhana', status: 'on_the_way', net_amount: '1140.00' }] },
    },
  }

  it('asks for every widget in one request, after the menu, and links each figure to its list', async () => {
    const order: string[] = []
    server.use(
      http.get(api(USER_MENU_URL), () => {
        order.push('menu')
        return HttpResponse.json({ menu_items: [] })
      }),
      http.get(api(WIDGETS_URL), ({ request }) => {
        order.push(`widgets:${new URL(request.url).searchParams.get('dashboard')}`)
        return HttpResponse.json(answer)
      }),
    )
    const lists = watchListRequests()
    signedInAs({ ...clerkUser, id: 1, is_admin: true, role: 'ADMIN' })
    await renderApp('/apps/dashboards/project')
    expect(await screen.findByTestId('figure-paid_orders')).toHaveTextContent('1,234')
    expect(screen.getByTestId('amount-paid_orders')).toHaveTextContent('56,789.50')
    // Each figure opens the list that counts as it does: the paid sales, the unpaid ones.
    expect(screen.getByRole('link', { name: 'Open Paid Orders' })).toHaveAttribute('href', registry.order.views.paid!.ui.listPath)
    expect(screen.getByRole('link', { name: 'Open Unpaid Orders' })).toHaveAttribute('href', registry.order.views.unpaid!.ui.listPath)
    // A list widget's rows open their record; its status reads as the lists say it.
    const latest = screen.getByTestId('widget-latest_orders')
    expect(within(latest).getByRole('link', { name: 'OR20261127009' })).toHaveAttribute('href', `${registry.order.ui.formPath}/9`)
    expect(within(latest).getByText('On the Way')).toBeInTheDocument()
    expect(order.filter((o) => o.startsWith('widgets'))).toEqual(['widgets:project'])
    expect(order.indexOf('menu')).toBeLessThan(order.indexOf('widgets:project'))
    expect(lists).toEqual([])
  })

  it('shows only the cards whose data its user may read', async () => {
    server.use(
      http.get(api(USER_MENU_URL), () => HttpResponse.json({ menu_items: [] })),
      http.get(api(WIDGETS_URL), () => HttpResponse.json({ widgets: { paid_orders: { count: 1, amount: '10.00' } } })),
    )
    signedInAs({ ...clerkUser, id: 12, permissions: ['ORDER_LIST'] })
    await renderApp('/apps/dashboards/project')
    expect(await screen.findByTestId('figure-paid_orders', {}, { timeout: 3000 })).toHaveTextContent('1')
    expect(screen.queryByTestId('widget-customers')).not.toBeInTheDocument()
    expect(screen.queryByTestId('widget-low_stock_products')).not.toBeInTheDocument()
    expect(screen.queryByTestId('widget-low_stock_list')).not.toBeInTheDocument()
  })

  it('asks the analytics for the period chosen', async () => {
    const asked: Array<string | null> = []
    server.use(
      http.get(api(WIDGETS_URL), ({ request }) => {
        const url = new URL(request.url)
        asked.push(`${url.searchParams.get('dashboard')} ${url.searchParams.get('date_after')} ${url.searchParams.get('date_before')}`)
        return HttpResponse.json({ widgets: { sales_over_time: { points: [] }, sales_by_category: { points: [] }, orders_by_status: { points: [] } } })
      }),
    )
    signedInAs({ ...clerkUser, id: 1, is_admin: true, role: 'ADMIN' })
    const { user } = await renderApp('/apps/dashboards/analytics')
    expect(await screen.findByRole('heading', { name: 'Analytics' })).toBeInTheDocument()
    await waitFor(() => expect(asked).toHaveLength(1))
    await user.click(screen.getByRole('radio', { name: 'Last 7 days' }))
    await waitFor(() => expect(asked).toHaveLength(2))
    const [after, before] = asked[1]!.split(' ').slice(1)
    expect(asked[1]!.startsWith('analytics ')).toBe(true)
    expect((Date.parse(before!) - Date.parse(after!)) / 86_400_000).toBe(6)
  })
})
