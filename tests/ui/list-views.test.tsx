import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { i18n } from '../../src/i18n'
import { stockTransfer, throwawayCatalogue, throwawayEntities } from '../support/throwaway-registry'
import { adminUser, api, cityHandlers, envelope, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * A list view in the generic screens (issue 18 §4), for an entity defined at run time: its
 * own address and heading, its filter asked of the server and shown fixed, its columns; a row
 * opens the entity's form, whose way back returns to the view.
 */
const base = stockTransfer.api.base
const row = (id: number, status: string) => ({ id, number: `ST2026000${id}`, note: `Transfer ${id}`, value: '10.00', status, journal_no: null, created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z', created_by: 'admin@example.com', updated_by: 'admin@example.com' })

beforeEach(() => {
  storeSessionOf(adminUser)
  i18n.addResourceBundle('en', 'translation', throwawayCatalogue, true, true)
})

describe('a list view', () => {
  it('lists the view’s rows under its own name, its filter held by the server and shown fixed, and returns to it from a record', async () => {
    const asked: URLSearchParams[] = []
    server.use(
      ...cityHandlers,
      http.get(api(`${base}/all/`), ({ request }) => {
        asked.push(new URL(request.url).searchParams)
        return HttpResponse.json(envelope('stock_transfers', [row(5, 'draft'), row(6, 'confirmed')]))
      }),
      http.get(api(`${base}/5`), () => HttpResponse.json({ ...row(5, 'draft'), items: [], _labels: {} })),
    )
    const { user, router } = await renderApp('/apps/transfersInMotion-management/transfers', { entities: throwawayEntities })
    expect(await screen.findByRole('heading', { name: 'Transfers in motion' })).toBeInTheDocument()
    await waitFor(() => expect(asked.at(-1)?.get('view')).toBe('moving'))
    const fixed = screen.getByTestId('view-filters')
    expect(fixed).toHaveTextContent('Type: Draft, Confirmed')
    expect(within(fixed).queryByRole('button')).toBeNull()
    expect(screen.getByText('Transfer 6').closest('tr')).toBeInTheDocument()

    await user.click(screen.getByRole('link', { name: 'Transfer 5' }))
    await waitFor(() => expect(router.state.location.pathname.startsWith(`${stockTransfer.ui.formPath}/5`)).toBe(true))
    const back = await screen.findByRole('link', { name: /^Back to/ })
    expect(back.getAttribute('href')).toBe('/apps/transfersInMotion-management/transfers')
    await user.click(back)
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/transfersInMotion-management/transfers'))
  })

  it('shows a view’s own columns, and an area of views alone opens its first', async () => {
    server.use(http.get(api(`${base}/all/`), () => HttpResponse.json(envelope('stock_transfers', [row(5, 'draft')]))))
    const { router } = await renderApp('/apps/stockTransfer-management/drafts', { entities: throwawayEntities })
    expect(await screen.findByRole('heading', { name: 'Draft transfers' })).toBeInTheDocument()
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent)
    expect(headers).toContain('Amount')
    expect(headers).not.toContain('Type')
    await router.navigate({ to: '/apps/transfersInMotion-management' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/transfersInMotion-management/transfers'))
  })
})
