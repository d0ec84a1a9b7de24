import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ReactElement } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { entities as registryEntities, registry } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { ListSkeleton } from '../../src/engine/list/ListSkeleton'
import { i18n } from '../../src/i18n'
import { api, cityHandlers, envelope, storeSession, thanaBase, thanaRows } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The generic list's view in the address (issue 8): page, rows per page, order, search text
 * and filters survive opening a record and coming back (the form's Back link, Cancel, Save;
 * the browser's Back), a reload and a shared link; rows are real links; the filter bar is
 * made from the field kinds, its filters shown as removable chips; a many-valued cell is
 * summed up with its names on demand; loading shows the page's shape.
 */
const listPath = '/apps/thana-management/thanas'

/** Records every list request and answers from the fixture rows (`total` rows in all). */
function thanaList(total = thanaRows.length) {
  const calls: URL[] = []
  const answer = ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    calls.push(url)
    const page = Number(url.searchParams.get('page') ?? 1)
    const size = Number(url.searchParams.get('size') ?? 10)
    const text = url.searchParams.get('q')?.toLowerCase()
    const city = url.searchParams.get('city')
    const rows = thanaRows.filter((r) => (!text || r.name.toLowerCase().includes(text)) && (!city || String(r.city.id) === city))
    return HttpResponse.json(envelope('thanas', rows, page, size, text || city ? rows.length : total))
  }
  server.use(http.get(api(`${thanaBase}/all/`), answer), http.get(api(`${thanaBase}/search/`), answer), ...cityHandlers)
  return calls
}

const searchOf = (router: { state: { location: { search: unknown } } }) => router.state.location.search as Record<string, unknown>
const paramsOf = (url: URL) => Object.fromEntries([...url.searchParams.entries()])

beforeEach(() => storeSession())

describe('the list’s view in the address', () => {
  it('opens with the page, size, order, search and filters the address describes (a reload, a shared link)', async () => {
    const calls = thanaList(120)
    await renderApp(`${listPath}?page=2&size=50&ordering=-name&q=ban&city=1`)
    await waitFor(() => expect(calls.length).toBeGreaterThan(0))
    expect(calls[0]!.pathname).toBe('/thana/api/v1/thana/search/')
    expect(paramsOf(calls[0]!)).toEqual({ page: '2', size: '50', ordering: '-name', q: 'ban', city: '1' })
    expect(screen.getByRole('searchbox', { name: 'Search Police Stations' })).toHaveValue('ban')
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending')
    expect(screen.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('50')
    const chips = await screen.findByRole('list', { name: 'Filters in use' })
    await waitFor(() => expect(chips).toHaveTextContent('District: Dhaka'))
  })

  it('puts each change of the view in the address: order, page, size, search', async () => {
    const calls = thanaList(120)
    const { user, router } = await renderApp(listPath)
    await screen.findByText('Gulshan')
    expect(searchOf(router)).toEqual({})
    await user.click(within(screen.getByRole('columnheader', { name: 'Name' })).getByRole('button', { name: 'Name' }))
    await waitFor(() => expect(searchOf(router)).toEqual({ ordering: 'name' }))
    await user.click(screen.getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(searchOf(router)).toEqual({ ordering: 'name', page: 2 }))
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '100')
    await waitFor(() => expect(searchOf(router)).toEqual({ ordering: 'name', size: 100 }))
    await user.type(screen.getByRole('searchbox'), 'kot')
    // Typing reaches the address once it pauses; a new search starts at page 1.
    await waitFor(() => expect(searchOf(router)).toEqual({ ordering: 'name', size: 100, q: 'kot' }))
    expect(paramsOf(calls.at(-1)!)).toEqual({ page: '1', size: '100', ordering: 'name', q: 'kot' })
  })

  it('comes back to the same view from a record: the Back link, Cancel, and after Save & close', async () => {
    const calls = thanaList(120)
    const saved: unknown[] = []
    server.use(
      http.get(api(`${thanaBase}/:id`), ({ params }) =>
        params.id === '12' ? HttpResponse.json({ id: 12, name: 'Banani', bn_name: null, url: null, city: 1, updated_at: '2026-01-01T00:00:00Z', _labels: { city: 'Dhaka' } }) : undefined,
      ),
      http.put(api(`${thanaBase}/update/:id`), async ({ request }) => {
        saved.push(await request.json())
        return HttpResponse.json({ id: 12, name: 'Banani', bn_name: null, url: null, city: 1 })
      }),
    )
    const view = { page: 2, ordering: '-name', q: 'ban', city: 1 }
    const { user, router } = await renderApp(`${listPath}?page=2&ordering=-name&q=ban&city=1`)
    const openBanani = async () => {
      await user.click(await screen.findByRole('link', { name: 'Banani' }))
      await waitFor(() => expect(router.state.location.pathname).toBe(`${listPath}/12/Banani`))
    }
    const backAtList = async () => {
      await waitFor(() => expect(router.state.location.pathname).toBe(listPath))
      expect(searchOf(router)).toEqual(view)
      await waitFor(() => expect(paramsOf(calls.at(-1)!)).toEqual({ page: '2', size: '30', ordering: '-name', q: 'ban', city: '1' }))
    }

    await openBanani()
    const back = await screen.findByRole('link', { name: 'Back to Police Stations' })
    expect(back.getAttribute('href')).toContain('page=2')
    await user.click(back)
    await backAtList()

    await openBanani()
    await user.click(await screen.findByRole('link', { name: 'Cancel' }))
    await backAtList()

    await openBanani()
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), ' Road')
    await user.click(await screen.findByRole('button', { name: 'Save & close' }))
    await waitFor(() => expect(saved).toHaveLength(1))
    await backAtList()
  })

  it('comes back to the same view with the browser’s Back', async () => {
    const calls = thanaList(120)
    server.use(http.get(api(`${thanaBase}/:id`), ({ params }) => (params.id === '11' ? HttpResponse.json({ id: 11, name: 'Gulshan', bn_name: null, url: null, city: 1 }) : undefined)))
    const { user, router } = await renderApp(`${listPath}?page=2&q=g`)
    await user.click(await screen.findByRole('link', { name: 'Gulshan' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(`${listPath}/11/Gulshan`))
    act(() => router.history.back())
    await waitFor(() => expect(router.state.location.pathname).toBe(listPath))
    expect(searchOf(router)).toEqual({ page: 2, q: 'g' })
    expect(await screen.findByRole('searchbox')).toHaveValue('g')
    expect(paramsOf(calls.at(-1)!)).toMatchObject({ page: '2', q: 'g' })
  })

  it('refills the search box when the address changes under it (Back after a search)', async () => {
    thanaList()
    const { user, router } = await renderApp(listPath)
    await screen.findByText('Gulshan')
    await user.type(screen.getByRole('searchbox'), 'kot')
    await waitFor(() => expect(searchOf(router)).toEqual({ q: 'kot' }))
    await act(() => router.navigate({ to: listPath, search: { q: 'ban' } }))
    await waitFor(() => expect(screen.getByRole('searchbox')).toHaveValue('ban'))
    expect(await screen.findByText('Banani')).toBeInTheDocument()
  })
})

describe('rows are links', () => {
  afterEach(() => vi.restoreAllMocks())

  it('has a real link to each record, and opens it in a new tab on Ctrl/Cmd-click or a middle click anywhere on the row', async () => {
    thanaList()
    server.use(http.get(api(`${thanaBase}/:id`), ({ params }) => (params.id === '11' ? HttpResponse.json({ id: 11, name: 'Gulshan', bn_name: null, url: null, city: 1 }) : undefined)))
    const opened = vi.spyOn(window, 'open').mockReturnValue(null)
    const { router } = await renderApp(listPath)
    const link = await screen.findByRole('link', { name: 'Gulshan' })
    expect(link).toHaveAttribute('href', `${listPath}/11/Gulshan`)
    const cell = within(link.closest('tr')!).getByText('গুলশান')

    fireEvent.click(cell, { ctrlKey: true })
    expect(opened).toHaveBeenLastCalledWith(`${listPath}/11/Gulshan`, '_blank', 'noopener')
    fireEvent.click(cell, { metaKey: true })
    expect(opened).toHaveBeenCalledTimes(2)
    fireEvent(cell, new MouseEvent('auxclick', { bubbles: true, button: 1 }))
    expect(opened).toHaveBeenCalledTimes(3)
    expect(router.state.location.pathname).toBe(listPath)

    // The row's own controls are theirs: selecting a row opens nothing.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Gulshan' }), { ctrlKey: true })
    expect(opened).toHaveBeenCalledTimes(3)
    fireEvent.click(cell)
    await waitFor(() => expect(router.state.location.pathname).toBe(`${listPath}/11/Gulshan`))
  })
})

/** An entity with a field of every kind the filter bar knows, defined here as an author would. */
const asset = defineEntity({
  name: 'asset',
  module: 'test',
  listKey: 'assets',
  route: { area: 'asset-management', list: 'assets' },
  fields: {
    name: f.text({ max: 50, required: true, search: true }),
    gender: f.choice(['male', 'female', 'others']),
    is_active: f.boolean({ default: true }),
    district: f.ref('city'),
    emp_join_date: f.date(),
    basic_money: f.money(),
  },
})
const assetRows = [
  { id: 1, name: 'Lathe', gender: 'female', is_active: true, district: { id: 1, name: 'Dhaka' }, emp_join_date: '2024-02-01', basic_money: '1500.00' },
  { id: 2, name: 'Drill', gender: 'male', is_active: false, district: null, emp_join_date: null, basic_money: null },
]

function assetList() {
  const calls: URL[] = []
  const answer = ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    calls.push(url)
    return HttpResponse.json(envelope('assets', url.pathname.endsWith('/search/') ? assetRows.slice(0, 1) : assetRows))
  }
  server.use(http.get(api(`${asset.api.base}/all/`), answer), http.get(api(`${asset.api.base}/search/`), answer), ...cityHandlers)
  return calls
}

describe('the filter bar', () => {
  beforeEach(() => {
    i18n.addResourceBundle('en', 'translation', { entity: { asset: { one: 'Asset', other: 'Assets' } } }, true, true)
  })

  it('offers a filter for each choice, flag, reference, date and number, and applies them together', async () => {
    const calls = assetList()
    const { user, router } = await renderApp(asset.ui.listPath, { entities: [...registryEntities, asset] })
    await screen.findByText('Lathe')
    expect(asset.filterFields).toEqual(['gender', 'is_active', 'district', 'emp_join_date', 'basic_money'])
    const toggle = screen.getByRole('button', { name: 'Filters' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await user.click(toggle)
    const panel = await screen.findByRole('form', { name: 'Filters' })
    expect(toggle).toHaveAttribute('aria-expanded', 'true')

    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Gender' }), 'female')
    expect(within(within(panel).getByRole('combobox', { name: 'Active' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['Any', 'Yes', 'No'])
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Active' }), 'true')
    await user.type(within(panel).getByRole('combobox', { name: 'District' }), 'Dha')
    await user.click(await screen.findByRole('option', { name: 'Dhaka' }))
    const joined = within(panel).getByRole('group', { name: 'Join Date' })
    // Dates are entered as in the forms (YYYY-MM-DD or the calendar), not in the browser's own mm/dd/yyyy.
    expect(within(joined).getByLabelText('From')).toHaveAttribute('type', 'text')
    expect(within(joined).getByLabelText('From')).toHaveAttribute('placeholder', 'YYYY-MM-DD')
    expect(within(joined).getByRole('button', { name: 'Choose Join Date From from a calendar' })).toBeInTheDocument()
    await user.type(within(joined).getByLabelText('From'), '2024-01-01')
    fireEvent.change(within(joined).getByLabelText('To'), { target: { value: '2024-03-31' } })
    await user.type(within(within(panel).getByRole('group', { name: 'Basic Salary' })).getByLabelText('From'), '1000')
    const before = calls.length
    await user.click(within(panel).getByRole('button', { name: 'Apply' }))

    await waitFor(() => expect(calls.length).toBeGreaterThan(before))
    const sent = calls.at(-1)!
    expect(sent.pathname).toBe('/asset/api/v1/asset/search/')
    expect(paramsOf(sent)).toEqual({ gender: 'female', is_active: 'true', district: '1', emp_join_date_after: '2024-01-01', emp_join_date_before: '2024-03-31', basic_money_min: '1000', page: '1', size: '30' })
    expect(searchOf(router)).toEqual({ gender: 'female', is_active: true, district: 1, emp_join_date_after: '2024-01-01', emp_join_date_before: '2024-03-31', basic_money_min: 1000 })

    const chips = screen.getByRole('list', { name: 'Filters in use' })
    await waitFor(() => expect(within(chips).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Gender: Female',
      'Active: Yes',
      'District: Dhaka',
      'Join Date: Jan 1, 2024 – Mar 31, 2024',
      'Basic Salary: from 1,000',
      'Clear filters',
    ]))
    expect(screen.getByRole('button', { name: /^Filters/ })).toHaveAccessibleName('Filters (5 filters in use)')
  })

  it('removes a filter with its chip, and all with Clear filters', async () => {
    const calls = assetList()
    const { user, router } = await renderApp(`${asset.ui.listPath}?gender=male&district=1&basic_money_max=99.5`, { entities: [...registryEntities, asset] })
    await screen.findByText('Lathe')
    await user.click(await screen.findByRole('button', { name: 'Remove the filter on District' }))
    await waitFor(() => expect(searchOf(router)).toEqual({ gender: 'male', basic_money_max: 99.5 }))
    expect(paramsOf(calls.at(-1)!)).toEqual({ gender: 'male', basic_money_max: '99.5', page: '1', size: '30' })
    await user.click(screen.getByRole('button', { name: 'Clear filters' }))
    await waitFor(() => expect(searchOf(router)).toEqual({}))
    expect(calls.at(-1)!.pathname).toBe('/asset/api/v1/asset/all/')
    expect(screen.queryByRole('list', { name: 'Filters in use' })).not.toBeInTheDocument()
  })

  it('says what is wrong with a range before asking the server', async () => {
    const calls = assetList()
    const { user } = await renderApp(asset.ui.listPath, { entities: [...registryEntities, asset] })
    await screen.findByText('Lathe')
    await user.click(screen.getByRole('button', { name: 'Filters' }))
    const money = within(await screen.findByRole('group', { name: 'Basic Salary' }))
    await user.type(money.getByLabelText('From'), '10')
    await user.type(money.getByLabelText('To'), '9.99')
    const before = calls.length
    await user.click(screen.getByRole('button', { name: 'Apply' }))
    expect(await screen.findByText('The upper bound is below the lower bound.')).toBeInTheDocument()
    await user.clear(money.getByLabelText('To'))
    await user.type(money.getByLabelText('To'), 'lots')
    await user.click(screen.getByRole('button', { name: 'Apply' }))
    expect(await screen.findByText('Enter a number.')).toBeInTheDocument()
    expect(calls.length).toBe(before)
  })

  it('shows the server’s words for a filter it refuses, not a crash', async () => {
    server.use(
      http.get(api(`${asset.api.base}/all/`), () => HttpResponse.json(envelope('assets', assetRows))),
      http.get(api(`${asset.api.base}/search/`), () => HttpResponse.json({ emp_join_date_before: ['The end of the period comes before its start.'] }, { status: 400 })),
    )
    await renderApp(`${asset.ui.listPath}?emp_join_date_after=2024-05-01&emp_join_date_before=2024-04-01`, { entities: [...registryEntities, asset] })
    expect(await screen.findByRole('alert')).toHaveTextContent('The end of the period comes before its start.')
    expect(screen.getByRole('heading', { name: 'Assets' })).toBeInTheDocument()
  })

  it('says so when the filters match nothing, and offers to clear them', async () => {
    server.use(http.get(api(`${asset.api.base}/search/`), () => HttpResponse.json(envelope('assets', []))), ...cityHandlers)
    await renderApp(`${asset.ui.listPath}?is_active=false`, { entities: [...registryEntities, asset] })
    expect(await screen.findByText('Nothing matches these filters.')).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: 'Clear filters' }).length).toBeGreaterThan(0)
  })
})

describe('many values in a cell', () => {
  it('sums up a role’s 80 permissions and lists them on demand, without opening the role', async () => {
    const permissions = Array.from({ length: 80 }, (_, i) => ({ id: i + 1, name: `THING_${i + 1}` }))
    server.use(
      http.get(api(`${registry.role.api.base}/all/`), () =>
        HttpResponse.json(envelope('roles', [{ id: 1, name: 'ADMIN', permissions }, { id: 2, name: 'VIEWER', permissions: permissions.slice(0, 2) }])),
      ),
    )
    const { user, router } = await renderApp(registry.role.ui.listPath)
    const summary = await screen.findByRole('button', { name: '80 Permissions' })
    expect(summary).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByText('THING_80')).not.toBeInTheDocument()
    // A few are named as they are.
    expect(within(screen.getByRole('link', { name: 'VIEWER' }).closest('tr')!).getByText('THING_1, THING_2')).toBeInTheDocument()

    await user.click(summary)
    expect(summary).toHaveAttribute('aria-expanded', 'true')
    const shown = document.getElementById(summary.getAttribute('aria-controls')!)!
    expect(within(shown).getAllByRole('listitem')).toHaveLength(80)
    expect(within(shown).getByText('THING_80')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe(registry.role.ui.listPath)
    await user.click(summary)
    expect(screen.queryByText('THING_80')).not.toBeInTheDocument()
  })
})

describe('while a list loads', () => {
  it('shows the page’s header and the outline of its table, not a lone spinner', async () => {
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    server.use(
      http.get(api(`${thanaBase}/all/`), async () => {
        await held
        return HttpResponse.json(envelope('thanas', thanaRows))
      }),
    )
    const { container } = await renderApp(listPath)
    expect(await screen.findByRole('heading', { name: 'Police Stations' })).toBeInTheDocument()
    await waitFor(() => expect(container.querySelectorAll('tbody [data-skeleton]').length).toBeGreaterThan(0))
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toContain('Name')
    release()
    expect(await screen.findByText('Gulshan')).toBeInTheDocument()
    expect(container.querySelectorAll('tbody [data-skeleton]')).toHaveLength(0)
  })

  it('shows the same while the list’s own code loads (the route’s pending view)', async () => {
    thanaList()
    const { router } = await renderApp(listPath)
    const route = Object.values(router.routesById).find((r) => (r as { fullPath?: string }).fullPath === listPath) as { options: { pendingComponent?: () => ReactElement } }
    const Pending = route.options.pendingComponent!
    expect(Pending).toBeDefined()
    const { unmount } = render(<Pending />)
    expect(screen.getAllByRole('heading', { name: 'Police Stations' }).length).toBeGreaterThan(0)
    unmount()
    const skeleton = render(<ListSkeleton entity={registry.city} />)
    const view = within(skeleton.container)
    expect(view.getByRole('heading', { name: 'Districts' })).toBeInTheDocument()
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['#', 'Name', 'Bangla Name', 'Country', 'Website'])
    expect(skeleton.container.querySelectorAll('tbody [data-skeleton]').length).toBeGreaterThan(0)
  })
})

describe('wide tables', () => {
  it('scroll inside their card, with the header row and the actions column kept in view', async () => {
    thanaList()
    await renderApp(listPath)
    await screen.findByText('Gulshan')
    const region = screen.getByRole('region', { name: 'Police Stations' })
    expect(region.className).toMatch(/overflow-auto/)
    expect(region.querySelector('thead')!.className).toMatch(/sticky/)
    expect(screen.getByRole('columnheader', { name: 'Actions' }).className).toMatch(/sticky/)
    expect(screen.getByRole('button', { name: 'Delete Gulshan' }).closest('td')!.className).toMatch(/sticky end-0/)
  })
})



