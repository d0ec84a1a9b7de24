import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { api, envelope, storeSession, thanaBase } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * "All" rows (issue 25): a list of up to 10,000 rows on one page, asked at once — its count
 * first, then `without_pagination/all/` with the same search, order and filters and a limit —
 * and drawn as it scrolls (TanStack Virtual): a window of rows between two spacers, the serial
 * numbers those of the whole list. A longer list offers "All" disabled, saying why.
 */
const listPath = '/apps/thana-management/thanas'
const rowAt = (i: number) => ({ id: i + 1, name: `Station ${i + 1}`, bn_name: null, url: null, city: { id: 1, name: 'Dhaka' } })

function thanaList(total: number) {
  const calls: URL[] = []
  const rows = Array.from({ length: Math.min(total, 10_000) }, (_, i) => rowAt(i))
  server.use(
    http.get(api(`${thanaBase}/all/`), ({ request }) => {
      const url = new URL(request.url)
      calls.push(url)
      const page = Number(url.searchParams.get('page') ?? 1)
      const size = Number(url.searchParams.get('size') ?? 30)
      return HttpResponse.json(envelope('thanas', rows.slice((page - 1) * size, page * size), page, size, total))
    }),
    http.get(api(`${thanaBase}/without_pagination/all/`), ({ request }) => {
      const url = new URL(request.url)
      calls.push(url)
      return HttpResponse.json({ thanas: rows.slice(0, Number(url.searchParams.get('limit'))) })
    }),
  )
  return calls
}

/** The rows drawn: not the spacers above and below them. */
const drawnRows = () => [...document.querySelectorAll('tbody tr:not([data-spacer]):not([data-skeleton])')] as HTMLTableRowElement[]
const serialOf = (tr: HTMLTableRowElement) => Number(within(tr).getAllByRole('cell')[1]!.textContent)

beforeEach(() => storeSession())

describe('“All” rows of a list', () => {
  it('asks every row once the count allows it, and draws a window of the 10,000, numbered as the whole list', async () => {
    const calls = thanaList(10_000)
    const { user, router } = await renderApp(`${listPath}?q=sta&ordering=-name`)
    await screen.findByText('Station 1')
    // jsdom lays nothing out: the list's box is given the height a screen would give it.
    const region = screen.getByRole('region', { name: 'Police Stations' })
    Object.defineProperty(region, 'clientHeight', { configurable: true, value: 800 })
    await user.click(screen.getByRole('button', { name: 'All' }))
    await waitFor(() => expect((router.state.location.search as Record<string, unknown>).size).toBe('all'))
    await waitFor(() => expect(calls.some((u) => u.pathname.endsWith('/without_pagination/all/'))).toBe(true))
    const whole = calls.find((u) => u.pathname.endsWith('/without_pagination/all/'))!
    expect(Object.fromEntries(whole.searchParams)).toEqual({ q: 'sta', ordering: '-name', limit: '10000' })
    await screen.findByText('All 10,000 rows')
    expect(screen.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true')

    // A window of rows, not ten thousand (once the virtualiser's code is in); the first numbered 1.
    await waitFor(() => expect(drawnRows().length).toBeGreaterThan(5))
    const first = drawnRows()
    expect(first.length).toBeGreaterThan(5)
    expect(first.length).toBeLessThan(80)
    expect(serialOf(first[0]!)).toBe(1)
    expect(first[0]).toHaveAttribute('aria-rowindex', '2')
    const spacerBelow = document.querySelector('tbody tr[data-spacer]:last-child td') as HTMLElement
    expect(parseFloat(spacerBelow.style.height)).toBeGreaterThan(40 * 9_000)

    // Scrolled to the middle: the rows there, numbered as the whole list (rows with a delete button: 55 px each, as estimated).
    Object.defineProperty(region, 'scrollTop', { configurable: true, writable: true, value: 55 * 5_000 })
    await act(async () => {
      fireEvent.scroll(region)
    })
    await waitFor(() => expect(drawnRows().some((tr) => serialOf(tr) === 5_001)).toBe(true))
    const middle = drawnRows()
    expect(middle.length).toBeLessThan(80)
    for (const tr of middle) expect(within(tr).getByRole('link').textContent).toBe(`Station ${serialOf(tr)}`)
    expect(document.querySelector('tbody tr[data-spacer] td')).toHaveStyle({ height: `${55 * (serialOf(middle[0]!) - 1)}px` })

    // Back to pages.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rows per page' }), '50')
    await waitFor(() => expect(screen.getByText('Page 1 of 200')).toBeInTheDocument())
    expect(drawnRows()).toHaveLength(50)
  })

  it('offers “All” disabled, saying why, when the list holds more than 10,000 rows; a link to it shows pages and says so', async () => {
    const calls = thanaList(12_345)
    const { user, unmount } = await renderApp(listPath)
    await screen.findByText('Station 1')
    const all = screen.getByRole('button', { name: 'All' })
    expect(all).toHaveAttribute('aria-disabled', 'true')
    expect(all).toHaveAccessibleDescription('“All” shows at most 10,000 rows: narrow this list with a search or filters first.')
    await user.click(all)
    expect(all).toHaveAttribute('aria-pressed', 'false')
    expect(calls.some((u) => u.pathname.endsWith('/without_pagination/all/'))).toBe(false)
    unmount()

    const { router } = await renderApp(`${listPath}?size=all`)
    await waitFor(() => expect((router.state.location.search as Record<string, unknown>).size).toBe(100))
    expect(await screen.findByText('This list holds more than 10,000 rows, the most “All” shows: it is shown in pages.')).toBeInTheDocument()
    expect(calls.some((u) => u.pathname.endsWith('/without_pagination/all/'))).toBe(false)
  })

  it('offers every row of the list once a whole page is selected (Gmail’s), and no delete for it', async () => {
    thanaList(120)
    const { user } = await renderApp(listPath)
    await screen.findByText('Station 1')
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }))
    expect(screen.getByText('30 selected')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Delete selected' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Select all 120 Police Stations of this list' }))
    expect(screen.getByText('All 120 Police Stations of this list are selected')).toBeInTheDocument()
    // A delete is of rows one names: not of a whole list by its filter.
    expect(screen.queryByRole('button', { name: 'Delete selected' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Clear selection' }))
    expect(screen.queryByText(/selected/)).toBeNull()
    expect(screen.getByRole('checkbox', { name: 'Select all rows on this page' })).not.toBeChecked()
  })
})
