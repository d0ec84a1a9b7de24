import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import type { ComponentProps } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { changeLanguage, i18n } from '../../src/i18n'
import { gadgetOrder, throwawayCatalogue, throwawayEntities } from '../support/throwaway-registry'
import { adminUser, api, envelope, storeSession, storeSessionOf, thanaBase } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * What a list draws again (issue 25, "All" rows scrolling smoothly): a row is drawn when it
 * enters the window or when what it shows changes — not when the list scrolls on, nor when
 * another row is selected. Counted by the list's cells: each draw of a row draws its field
 * cells (FieldCell), so the names of the stations whose cells were drawn are the rows drawn.
 */
const drawn: string[] = []
vi.mock('../../src/engine/list/FieldCell', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/engine/list/FieldCell')>()
  function CountedFieldCell(props: ComponentProps<typeof original.FieldCell>) {
    if (typeof props.value === 'string' && props.value.startsWith('Station ')) drawn.push(props.value)
    return <original.FieldCell {...props} />
  }
  return { ...original, FieldCell: CountedFieldCell }
})

const listPath = '/apps/thana-management/thanas'
const ROW_PX = 55
const rowAt = (i: number) => ({ id: i + 1, name: `Station ${i + 1}`, bn_name: null, url: null, city: { id: 1, name: 'Dhaka' } })

function thanaList(total: number) {
  const rows = Array.from({ length: total }, (_, i) => rowAt(i))
  server.use(
    http.get(api(`${thanaBase}/all/`), ({ request }) => {
      const url = new URL(request.url)
      const page = Number(url.searchParams.get('page') ?? 1)
      const size = Number(url.searchParams.get('size') ?? 30)
      return HttpResponse.json(envelope('thanas', rows.slice((page - 1) * size, page * size), page, size, total))
    }),
    http.get(api(`${thanaBase}/without_pagination/all/`), ({ request }) => HttpResponse.json({ thanas: rows.slice(0, Number(new URL(request.url).searchParams.get('limit'))) })),
  )
}

/** Resize observers by what they watch: jsdom lays nothing out, so the test says when a box has its size. */
const watchers = new Map<Element, Set<ResizeObserverCallback>>()
class WatchedResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element): void {
    watchers.set(target, (watchers.get(target) ?? new Set()).add(this.callback))
  }
  unobserve(target: Element): void {
    watchers.get(target)?.delete(this.callback)
  }
  disconnect(): void {
    for (const callbacks of watchers.values()) callbacks.delete(this.callback)
  }
}
vi.stubGlobal('ResizeObserver', WatchedResizeObserver)

const drawnRows = () => [...document.querySelectorAll('tbody tr:not([data-spacer]):not([data-skeleton])')] as HTMLTableRowElement[]
const nameOf = (tr: HTMLTableRowElement) => within(tr).getByRole('link').textContent!
/** How many times each station's row was drawn since `drawn` was emptied. */
const drawsOf = () => drawn.reduce<Record<string, number>>((n, name) => ({ ...n, [name]: (n[name] ?? 0) + 1 }), {})

async function openAll() {
  const app = await renderApp(`${listPath}?size=all`)
  const region = await screen.findByRole('region', { name: 'Police Stations' })
  // jsdom lays nothing out: the list's box is given the height a screen would give it.
  for (const size of ['clientHeight', 'offsetHeight']) Object.defineProperty(region, size, { configurable: true, value: 800 })
  Object.defineProperty(region, 'scrollTop', { configurable: true, writable: true, value: 0 })
  await screen.findByText('All 2,000 rows')
  await waitFor(() => expect(document.querySelector('tbody tr[data-spacer]')).not.toBeNull())
  act(() => watchers.get(region)?.forEach((callback) => callback([], new WatchedResizeObserver(callback))))
  // The router restores a scroll position it kept for this address (another test's): the list starts at its top.
  await scrollTo(region, 0)
  await waitFor(() => expect(drawnRows().map(nameOf)).toContain('Station 1'))
  return { ...app, region }
}

async function scrollTo(region: HTMLElement, top: number) {
  region.scrollTop = top
  await act(async () => {
    fireEvent.scroll(region)
  })
}

beforeEach(() => {
  storeSession()
  drawn.length = 0
})

describe('rows drawn again in a long list', () => {
  it('a scroll step draws the rows that enter the window, not those that stay in it', async () => {
    thanaList(2_000)
    const { region } = await openAll()
    await scrollTo(region, ROW_PX * 500)
    await waitFor(() => expect(drawnRows().some((tr) => nameOf(tr) === 'Station 501')).toBe(true))
    const before = new Set(drawnRows().map(nameOf))

    // A wheel step: three rows on.
    drawn.length = 0
    await scrollTo(region, ROW_PX * 503)
    await waitFor(() => expect(drawnRows().some((tr) => nameOf(tr) === 'Station 504')).toBe(true))
    const after = drawnRows().map(nameOf)
    const entered = after.filter((name) => !before.has(name))
    expect(entered.length).toBeGreaterThan(0)
    expect(entered.length).toBeLessThan(8)
    // Each entering row drawn once (a first draw and its measured height's settle at most); none that stayed.
    const draws = drawsOf()
    for (const name of Object.keys(draws)) expect(entered, `${name} drawn again`).toContain(name)
  })

  it('selecting a row draws that row again, not the others', async () => {
    thanaList(2_000)
    const { user, region } = await openAll()
    await scrollTo(region, ROW_PX * 100)
    await waitFor(() => expect(drawnRows().some((tr) => nameOf(tr) === 'Station 101')).toBe(true))
    const shown = drawnRows().length

    drawn.length = 0
    const row = drawnRows().find((tr) => nameOf(tr) === 'Station 105')!
    await user.click(within(row).getByRole('checkbox', { name: 'Select Station 105' }))
    expect(within(row).getByRole('checkbox', { name: 'Select Station 105' })).toBeChecked()
    expect(row).toHaveAttribute('aria-selected', 'true')
    await screen.findByText('1 selected')
    expect(Object.keys(drawsOf())).toEqual(['Station 105'])

    // And unselected again: the same.
    drawn.length = 0
    await user.click(within(row).getByRole('checkbox', { name: 'Select Station 105' }))
    expect(row).toHaveAttribute('aria-selected', 'false')
    expect(Object.keys(drawsOf())).toEqual(['Station 105'])
    expect(drawnRows()).toHaveLength(shown)
  })
})

describe('rows that are not drawn again still follow the language', () => {
  it('writes numbers, amounts and the rows’ controls in the language chosen, on a list of an entity defined at run time', async () => {
    storeSessionOf(adminUser)
    i18n.addResourceBundle('en', 'translation', throwawayCatalogue, true, true)
    const order = { id: 7, number: 'GO-0007', customer_email: 'buyer@example.com', status: 'draft', line_count: 1234, total: '1234.50', summary: 'GO-0007 (draft)', _labels: {} }
    server.use(http.get(api(`${gadgetOrder.api.base}/all/`), () => HttpResponse.json(envelope('gadget_orders', [order]))))
    await renderApp(gadgetOrder.ui.listPath, { entities: throwawayEntities })
    const row = (await screen.findByRole('link', { name: 'GO-0007' })).closest('tr')!
    expect(within(row).getByText('1,234.50')).toBeInTheDocument()
    expect(within(row).getByText('1,234')).toBeInTheDocument()
    expect(within(row).getByRole('checkbox', { name: 'Select GO-0007' })).toBeInTheDocument()

    await act(() => changeLanguage('tr'))
    await waitFor(() => expect(within(row).getByText('1.234,50')).toBeInTheDocument())
    expect(within(row).getByText('1.234')).toBeInTheDocument()
    expect(within(row).getByRole('checkbox', { name: 'GO-0007 seç' })).toBeInTheDocument()
  })
})
