import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { registry } from '../../schema'
import { useHoverIntent } from '../../src/shell/navbar/useHoverIntent'
import { foldForSearch, MAX_SUGGESTIONS, searchNavigation } from '../../src/shell/navigation'
import { getNavbarState, toggleNavbar } from '../../src/shell/navbar/navbar-state'
import { defaultSettings, FONT_SCALES, SETTINGS_KEY, type Settings } from '../../src/shell/settings/settings'
import { getSettings, setColourScheme, setConfig, updateSettings, USER_UPDATE_PATH } from '../../src/shell/settings/store'
import { api, storeSession } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/** The shell's toolbar, panels and settings, against the constants of spec §4, §5 and §9. */
afterEach(() => vi.useRealTimers())

function withNavbar(patch: Partial<Settings['layout']['config']['navbar']>): void {
  setConfig('navbar', { ...getSettings().layout.config.navbar, ...patch })
}

async function signedInAt(path = '/example') {
  storeSession()
  server.use(http.post(api(USER_UPDATE_PATH), () => HttpResponse.json({})))
  const app = await renderApp(path)
  await screen.findByRole('heading', { name: 'Example page' })
  return app
}

describe('defaults and settings', () => {
  it('starts with layout 1, a dark grey navbar, a light toolbar and 1570 px content', async () => {
    expect(defaultSettings.layout.style).toBe('layout1')
    expect(defaultSettings.theme).toMatchObject({ navbar: 'default-dark', toolbar: 'default-light', main: 'default-light' })
    await signedInAt()
    expect(document.querySelector('[data-layout="layout1"]')).not.toBeNull()
    expect(screen.getByTestId('toolbar')).toHaveAttribute('data-theme', 'default-light')
    expect(screen.getByTestId('navbar-style-1').closest('[data-theme]')).toHaveAttribute('data-theme', 'default-dark')
    expect(screen.getByTestId('navbar-style-1')).toHaveStyle({ width: '280px' })
    expect(screen.getByRole('main').firstElementChild).toHaveStyle({ maxWidth: '1570px' })
  })

  it('applies a change at once and saves it once, 300 ms after the last change; a guest keeps it in localStorage only', () => {
    vi.useFakeTimers()
    let posts = 0
    server.use(http.post(api(USER_UPDATE_PATH), () => ((posts += 1), HttpResponse.json({}))))
    setColourScheme('teal-dark')
    expect(document.documentElement).toHaveAttribute('data-theme', 'teal-dark')
    expect(document.documentElement).toHaveClass('dark')
    vi.advanceTimersByTime(200)
    setConfig('containerWidth', 1280)
    vi.advanceTimersByTime(299)
    expect(localStorage.getItem(SETTINGS_KEY)).toBeNull()
    vi.advanceTimersByTime(1)
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY)!) as Settings
    expect(saved.theme.main).toBe('teal-dark')
    expect(saved.layout.config.containerWidth).toBe(1280)
    expect(posts).toBe(0)
  })

  it('saves a signed-in user’s settings on the server with /api/auth/user/update', async () => {
    storeSession()
    const bodies: unknown[] = []
    server.use(http.post(api(USER_UPDATE_PATH), async ({ request }) => (bodies.push(await request.json()), HttpResponse.json({}))))
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    updateSettings((s) => ({ ...s, layout: { ...s.layout, style: 'layout3' } }))
    vi.advanceTimersByTime(300)
    vi.useRealTimers()
    await waitFor(() => expect(bodies).toHaveLength(1))
    expect(bodies[0]).toMatchObject({ settings: { layout: { style: 'layout3' } } })
    expect(JSON.parse(localStorage.getItem(SETTINGS_KEY)!)).toMatchObject({ layout: { style: 'layout3' } })
  })

  it('puts the toolbar in dark mode with the page, from the toolbar’s toggle', async () => {
    const { user } = await signedInAt()
    expect(screen.getByTestId('toolbar')).toHaveAttribute('data-theme', 'default-light')
    await user.click(screen.getByRole('button', { name: 'Switch to dark mode' }))
    expect(document.documentElement).toHaveClass('dark')
    expect(screen.getByTestId('toolbar')).toHaveAttribute('data-theme', 'default-dark')
    await user.click(screen.getByRole('button', { name: 'Switch to light mode' }))
    expect(screen.getByTestId('toolbar')).toHaveAttribute('data-theme', 'default-light')
  })

  it('sets main, navbar, toolbar and footer together from the colour schemes panel', async () => {
    const { user } = await signedInAt()
    await user.click(screen.getByRole('button', { name: 'Colour schemes' }))
    const panel = await screen.findByRole('dialog', { name: 'Colour schemes' })
    const swatches = within(panel).getAllByRole('button', { pressed: false })
    expect(swatches.length).toBeGreaterThanOrEqual(16)
    await user.click(within(panel).getByRole('button', { name: 'Purple, Dark' }))
    expect(getSettings().theme).toEqual({ main: 'purple-dark', navbar: 'purple-dark', toolbar: 'purple-dark', footer: 'purple-dark' })
    expect(document.documentElement).toHaveAttribute('data-theme', 'purple-dark')
    expect(screen.getByTestId('toolbar')).toHaveAttribute('data-theme', 'purple-dark')
    expect(screen.getByTestId('footer')).toHaveAttribute('data-theme', 'purple-dark')
    // And back to the look the app starts with, in the mode chosen (dark here).
    const back = within(panel).getByRole('button', { name: 'Default look' })
    expect(back).toHaveAttribute('aria-pressed', 'false')
    await user.click(back)
    expect(getSettings().theme).toEqual({ main: 'default-dark', navbar: 'default-dark', toolbar: 'default-dark', footer: 'default-dark' })
    expect(back).toHaveAttribute('aria-pressed', 'true')
    await user.click(screen.getByRole('button', { name: 'Switch to light mode' }))
    expect(getSettings().theme).toEqual(defaultSettings.theme)
  })

  it('switches layouts from the theme settings panel, with the layout’s container width', async () => {
    const { user } = await signedInAt()
    await user.click(screen.getByRole('button', { name: 'Theme settings' }))
    const panel = await screen.findByRole('dialog', { name: 'Theme settings' })
    await user.click(within(panel).getByRole('radio', { name: 'Layout 2' }))
    expect(await screen.findByTestId('navbar-horizontal')).toBeInTheDocument()
    expect(document.querySelector('[data-layout="layout2"]')).not.toBeNull()
    expect(screen.getByRole('main').firstElementChild).toHaveStyle({ maxWidth: '1120px' })
    await user.click(within(panel).getByRole('radio', { name: 'Dark' }))
    expect(document.documentElement).toHaveClass('dark')
    await user.click(within(panel).getByRole('radio', { name: 'Right to left' }))
    expect(document.documentElement).toHaveAttribute('dir', 'rtl')
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog', { name: 'Theme settings' })).not.toBeInTheDocument()
  })
})

describe('font size', () => {
  it('offers 70 % to 130 % in steps of 10 % and sets the root to that share of 62.5 %', async () => {
    expect(FONT_SCALES).toEqual([0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3])
    const { user } = await signedInAt()
    await user.click(screen.getByRole('button', { name: 'Font size' }))
    const options = screen.getAllByRole('menuitemradio')
    expect(options.map((o) => o.textContent)).toEqual(['70%', '80%', '90%', '100%', '110%', '120%', '130%'])
    expect(document.documentElement.style.fontSize).toBe('62.5%')
    await user.click(screen.getByRole('menuitemradio', { name: '130%' }))
    expect(document.documentElement.style.fontSize).toBe('81.25%')
    await user.click(screen.getByRole('button', { name: 'Font size' }))
    await user.click(screen.getByRole('menuitemradio', { name: '70%' }))
    expect(document.documentElement.style.fontSize).toBe('43.75%')
  })
})

describe('navbar', () => {
  it('toggles as spec §4 says: the drawer on mobile, folded in style-2, else style-1 ↔ style-3-dense', () => {
    toggleNavbar(true)
    expect(getNavbarState().isMobileOpen).toBe(true)
    toggleNavbar(true)
    expect(getNavbarState().isMobileOpen).toBe(false)

    expect(getSettings().layout.config.navbar.style).toBe('style-1')
    toggleNavbar(false)
    expect(getSettings().layout.config.navbar.style).toBe('style-3-dense')
    toggleNavbar(false)
    expect(getSettings().layout.config.navbar.style).toBe('style-1')

    withNavbar({ style: 'style-2', folded: false })
    toggleNavbar(false)
    expect(getSettings().layout.config.navbar).toMatchObject({ style: 'style-2', folded: true })
    toggleNavbar(false)
    expect(getSettings().layout.config.navbar).toMatchObject({ style: 'style-2', folded: false })
  })

  it('folds to 64 px in style-2 and opens to 280 px while hovered', async () => {
    await signedInAt()
    act(() => withNavbar({ style: 'style-2', folded: true }))
    const folded = screen.getByTestId('navbar-folded')
    expect(folded).toHaveStyle({ width: '64px' })
    fireEvent.mouseEnter(folded.parentElement!)
    expect(screen.getByTestId('navbar-folded-open')).toHaveStyle({ width: '280px' })
    fireEvent.mouseLeave(screen.getByTestId('navbar-folded-open').parentElement!)
    expect(screen.getByTestId('navbar-folded')).toBeInTheDocument()
  })

  it('shows style-3 as a 120 px column, 64 px when dense, with a 280 px panel', async () => {
    const { user } = await signedInAt()
    act(() => withNavbar({ style: 'style-3' }))
    expect(await screen.findByTestId('navbar-style-3')).toHaveStyle({ width: '120px' })
    await user.click(within(screen.getByTestId('navbar-style-3')).getByRole('button', { name: 'Settings' }))
    expect(screen.getByTestId('navbar-panel')).toHaveStyle({ width: '280px' })
    expect(within(screen.getByTestId('navbar-panel')).getByRole('link', { name: 'Police Stations' })).toBeInTheDocument()
    act(() => withNavbar({ style: 'style-3-dense' }))
    expect(await screen.findByTestId('navbar-style-3-dense')).toHaveStyle({ width: '64px' })
  })

  it('debounces submenu hovering by 150 ms', () => {
    vi.useFakeTimers()
    function Menu() {
      const { isOpen, hoverProps } = useHoverIntent()
      return <div data-testid="menu" data-open={isOpen} {...hoverProps} />
    }
    render(<Menu />)
    const menu = screen.getByTestId('menu')
    fireEvent.mouseEnter(menu)
    act(() => vi.advanceTimersByTime(149))
    expect(menu).toHaveAttribute('data-open', 'false')
    fireEvent.mouseLeave(menu)
    fireEvent.mouseEnter(menu)
    act(() => vi.advanceTimersByTime(149))
    expect(menu).toHaveAttribute('data-open', 'false')
    act(() => vi.advanceTimersByTime(1))
    expect(menu).toHaveAttribute('data-open', 'true')
  })
})

describe('shortcuts', () => {
  it('finds at most 10 matches on the title, ignoring case and accents', () => {
    const items = Array.from({ length: 14 }, (_, i) => ({ title: `Rapor ${i}` }))
    expect(MAX_SUGGESTIONS).toBe(10)
    expect(searchNavigation(items, 'RAPOR')).toHaveLength(10)
    expect(searchNavigation([{ title: 'Türkçe' }, { title: 'Café' }, { title: 'Şube' }], 'turkce')).toEqual([{ title: 'Türkçe' }])
    expect(searchNavigation([{ title: 'Café' }], 'CAFE')).toEqual([{ title: 'Café' }])
    expect(searchNavigation([{ title: 'Şube' }], 'sube')).toEqual([{ title: 'Şube' }])
    expect(foldForSearch('İstanbul')).toBe('istanbul')
  })

  it('searches apps and pages, says No results.., and pins and unpins with the settings', async () => {
    const { user } = await signedInAt()
    await user.click(screen.getByRole('button', { name: 'Shortcuts' }))
    const panel = await screen.findByRole('dialog', { name: 'Shortcuts' })
    const search = within(panel).getByRole('searchbox', { name: 'Search for an app or page' })
    await user.type(search, 'zzzz')
    expect(within(panel).getByText('No results..')).toBeInTheDocument()
    await user.clear(search)
    await user.type(search, 'desig')
    expect(within(panel).getByRole('link', { name: 'Designations' })).toBeInTheDocument()
    await user.click(within(panel).getByRole('button', { name: 'Pin Designations' }))
    expect(getSettings().shortcuts).toContain('designation')
    expect(within(screen.getByRole('list', { name: 'Pinned shortcuts' })).getByRole('link', { name: 'Designations' })).toBeInTheDocument()
    await user.click(within(panel).getByRole('button', { name: 'Unpin Designations' }))
    expect(getSettings().shortcuts).not.toContain('designation')
  })
})

describe('toolbar search', () => {
  it('opens on click; Escape, the close button and a click away close it and clear the text', async () => {
    const { user } = await signedInAt()
    await user.click(screen.getByRole('button', { name: 'Search' }))
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'abc')
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('textbox', { name: 'Search' })).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Search' }))
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('')
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'abc')
    await user.click(screen.getByRole('button', { name: 'Close search' }))
    expect(screen.queryByRole('textbox', { name: 'Search' })).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Search' }))
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'abc')
    await user.click(screen.getByRole('heading', { name: 'Example page' }))
    expect(screen.queryByRole('textbox', { name: 'Search' })).not.toBeInTheDocument()
  })

  it('goes to /apps/passenger/search/{text} on Enter and keeps the text in session storage', async () => {
    server.use(
      http.get(api('/api/people/search/'), ({ request }) => {
        const q = new URL(request.url).searchParams.get('q')
        const rahim = { id: 4, first_name: 'Rahim', last_name: 'Uddin', username: 'rahim', email: 'rahim@example.com', primary_phone: '+8801711223344' }
        return HttpResponse.json({ q, groups: q === 'rahim' ? [{ entity: 'employee', list_key: 'employees', total: 12, people: [rahim] }, { entity: 'user', list_key: 'users', total: 1, people: [rahim] }] : [] })
      }),
    )
    const { user, router } = await signedInAt()
    await user.click(screen.getByRole('button', { name: 'Search' }))
    await user.keyboard('{Enter}')
    expect(router.state.location.pathname).toBe('/example')
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'rahim{Enter}')
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/passenger/search/rahim'))
    expect(sessionStorage.getItem('passenger_search_key')).toBe('rahim')
    // One group per kind of person, each person a link to their form, a long group a link to its list.
    const employees = await screen.findByRole('list', { name: 'Employees' })
    expect(within(employees).getByRole('link', { name: /Rahim Uddin/ })).toHaveAttribute('href', '/apps/employee-management/employees/4')
    expect(within(employees).getByText('+8801711223344')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Employees (12)' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'See all 12 in Employees' })).toHaveAttribute('href', '/apps/employee-management/employees?q=rahim')
    expect(within(screen.getByRole('list', { name: 'User List' })).getByText('rahim@example.com')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Search' }))
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'nobody{Enter}')
    expect(await screen.findByText('Nobody matches “nobody”.')).toBeInTheDocument()
  })

  it('says so when the people search fails', async () => {
    server.use(http.get(api('/api/people/search/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })))
    storeSession()
    await renderApp('/apps/passenger/search/karim')
    expect(await screen.findByText('The search could not be done.')).toBeInTheDocument()
  })
})

describe('the phone toolbar', () => {
  it('folds the language, the text size and light or dark into a More menu that does what the full toolbar does', async () => {
    const { user } = await signedInAt()
    const more = screen.getByRole('button', { name: 'More' })
    // Shown only below the sm breakpoint; the full buttons only above it.
    expect(more.closest('.contents')).toHaveClass('sm:hidden')
    expect(screen.getByRole('button', { name: /^Language/ }).closest('.hidden')).toHaveClass('sm:contents')
    await user.click(more)
    await user.click(screen.getByRole('menuitem', { name: 'Larger text' }))
    expect(getSettings().fontScale).toBe(1.1)
    await user.click(screen.getByRole('menuitem', { name: 'Switch to dark mode' }))
    expect(screen.getByTestId('toolbar')).toHaveAttribute('data-theme', 'default-dark')
    await user.click(screen.getByRole('button', { name: 'More' }))
    await user.click(screen.getByRole('menuitemradio', { name: /العربية/ }))
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'))
  })
})

describe('language menu and quick panel', () => {
  it('switches to Arabic right to left and links to the multi-language page', async () => {
    const { user, router } = await signedInAt()
    await user.click(screen.getByRole('button', { name: /^Language/ }))
    await user.click(screen.getByRole('menuitem', { name: 'Learn More' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/documentation/configuration/multi-language'))
    expect(await screen.findByRole('heading', { name: 'Multi-language', level: 1 })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: /^Language/ }))
    await user.click(screen.getByRole('menuitemradio', { name: /العربية/ }))
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'))
    expect(document.documentElement).toHaveAttribute('lang', 'ar')
    expect(await screen.findByRole('heading', { name: 'تعدد اللغات', level: 1 })).toBeInTheDocument()
    expect(getSettings().direction).toBe('rtl')
  })

  it('opens the Quick Panel drawer with today, counts and recent activity', async () => {
    server.use(
      http.get(api('/api/quick-panel/data'), () =>
        HttpResponse.json({
          date: '2026-11-22',
          counts: { thanas: 545, cities: 64, users: 7 },
          recent: [{ id: 9, at: '2026-11-22T09:30:00Z', actor: 'admin', entity: 'city', entity_id: 12, action: 'update' }],
        }),
      ),
    )
    const { user } = await signedInAt()
    await user.click(screen.getByRole('button', { name: 'Quick panel' }))
    const panel = await screen.findByRole('dialog', { name: 'Quick Panel' })
    expect(await within(panel).findByText('Sunday, November 22, 2026')).toBeInTheDocument()
    expect(within(panel).getByText('Police Stations').nextSibling).toHaveTextContent('545')
    // Each count named as the sidebar names its list (issue 20: one vocabulary).
    expect(within(panel).getByText('User List').nextSibling).toHaveTextContent('7')
    expect(within(panel).getByText('admin updated District #12')).toBeInTheDocument()
    await user.click(within(panel).getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('dialog', { name: 'Quick Panel' })).not.toBeInTheDocument()
  })

  it('shows today’s figures opening their lists, the unread notifications with the inbox, and the user’s own notes to add, pin and delete', async () => {
    const notesBase = registry.note.api.base
    let notes = [{ id: 1, text: 'Call the bank', pinned: false }]
    const sent: Array<[string, unknown]> = []
    // The server's order: pinned first, then the newest.
    const listed = () => [...notes].sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.id - a.id)
    server.use(
      http.get(api('/api/quick-panel/data'), () =>
        HttpResponse.json({
          date: '2026-11-22',
          counts: {},
          recent: [],
          figures: [
            { key: 'orders_today', count: 4, href: `${registry.order.ui.listPath}?order_date_after=2026-11-22&order_date_before=2026-11-22` },
            { key: 'low_stock_products', count: 2, href: `${registry.inventory.ui.listPath}?ordering=quantity` },
          ],
          notifications: [{ id: 7, kind: 'order_confirmed', message: 'quick_panel.action_create', params: { actor: 'Ann', entity: 'Order', id: 5 }, at: '2026-11-22T09:30:00Z' }],
        }),
      ),
      http.get(api(`${notesBase}/all/`), ({ request }) => {
        sent.push(['list', new URL(request.url).searchParams.get('ordering')])
        return HttpResponse.json({ notes: listed(), page: 1, size: 30, total_pages: 1, total_elements: notes.length })
      }),
      http.post(api(`${notesBase}/create/`), async ({ request }) => {
        const body = (await request.json()) as { text: string }
        sent.push(['create', body])
        const note = { id: 2, text: body.text, pinned: false }
        notes = [...notes, note]
        return HttpResponse.json(note, { status: 201 })
      }),
      http.put(api(`${notesBase}/update/:id`), async ({ request, params }) => {
        const body = (await request.json()) as { pinned: boolean }
        sent.push(['update', { id: Number(params.id), ...body }])
        notes = notes.map((n) => (n.id === Number(params.id) ? { ...n, ...body } : n))
        return HttpResponse.json(notes.find((n) => n.id === Number(params.id)))
      }),
      http.delete(api(`${notesBase}/delete/:id`), ({ params }) => {
        sent.push(['delete', Number(params.id)])
        notes = notes.filter((n) => n.id !== Number(params.id))
        return HttpResponse.json({ detail: 'Note id - 1 is deleted successfully' })
      }),
    )
    const { user } = await signedInAt()
    await user.click(screen.getByRole('button', { name: 'Quick panel' }))
    const panel = await screen.findByRole('dialog', { name: 'Quick Panel' })

    // Each figure opens its list, filtered as it counts.
    const orders = await within(panel).findByRole('link', { name: /Orders today/ })
    expect(orders).toHaveTextContent('4')
    expect(orders).toHaveAttribute('href', `${registry.order.ui.listPath}?order_date_after=2026-11-22&order_date_before=2026-11-22`)
    expect(within(panel).getByRole('link', { name: /Products running low/ })).toHaveAttribute('href', `${registry.inventory.ui.listPath}?ordering=quantity`)
    // Unread notifications, said in the interface's words, and the way to all of them.
    const unread = within(panel).getByTestId('quick-panel-notifications')
    expect(within(unread).getByText('Ann created Order #5')).toBeInTheDocument()
    expect(within(unread).getByRole('link', { name: 'Open the inbox' })).toHaveAttribute('href', '/apps/mail')
    // No counts, no changes: no headings over nothing.
    expect(within(panel).queryByText('Records')).not.toBeInTheDocument()

    const mine = within(panel).getByTestId('quick-panel-notes')
    expect(await within(mine).findByText('Call the bank')).toBeInTheDocument()
    expect(sent[0]).toEqual(['list', '-pinned'])
    const add = within(mine).getByRole('button', { name: 'Add' })
    expect(add).toBeDisabled()
    await user.type(within(mine).getByRole('textbox', { name: 'New note' }), '  Order more cups ')
    await user.click(add)
    expect(await within(mine).findByText('Order more cups')).toBeInTheDocument()
    expect(sent).toContainEqual(['create', { text: 'Order more cups' }])
    await waitFor(() => expect(within(mine).getByRole('textbox', { name: 'New note' })).toHaveValue(''))

    // Pinned: on top, and shown as pinned.
    const older = () => within(mine).getByText('Call the bank').closest('li')!
    await user.click(within(older()).getByRole('button', { name: 'Pin note' }))
    await waitFor(() => expect(within(older()).getByRole('button', { name: 'Unpin note' })).toHaveAttribute('aria-pressed', 'true'))
    expect(sent).toContainEqual(['update', { id: 1, pinned: true }])
    expect(within(mine).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Call the bank', 'Order more cups'])

    await user.click(within(older()).getByRole('button', { name: 'Delete note' }))
    await waitFor(() => expect(within(mine).queryByText('Call the bank')).not.toBeInTheDocument())
    expect(sent).toContainEqual(['delete', 1])
    expect(within(mine).getByText('Order more cups')).toBeInTheDocument()
  })
})
