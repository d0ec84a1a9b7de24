import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { accessTokenAnswers, api, clerkUser, QUICK_PANEL_URL, storeSessionOf, USER_MENU_URL, type ServerUser } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The landing page (issue 20): the counts of every list in one request — the quick panel's,
 * so the two agree — with the sidebar's menu never waiting behind them.
 */
const listed = entities.filter((e) => !e.isLine)

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
    signedInAs({ ...clerkUser, id: 1, is_admin: true, role: 'ADMIN' })
    await renderApp('/apps/dashboards/project')
    for (const entity of listed) {
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
