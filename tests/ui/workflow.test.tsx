import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { i18n } from '../../src/i18n'
import { stockTransfer, throwawayCatalogue, throwawayEntities } from '../support/throwaway-registry'
import { adminUser, api, cityHandlers, envelope, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * A workflow in the generic screens (issue 18 §1), for an entity defined at run time: the
 * status as a coloured chip in the list and by the form's title, the transitions as buttons
 * where they apply, and a record its status locks shown, not edited — no Save, no delete.
 */
const base = stockTransfer.api.base
const stored = (status: string, id = 5) => ({
  id,
  note: `Transfer ${id}`,
  status,
  items: [{ id: 51, gadget: 1, quantity: 2, _labels: { gadget: 'Dhaka' } }],
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  created_by: 1,
  updated_by: 1,
  _labels: {},
})

beforeEach(() => {
  storeSessionOf(adminUser)
  i18n.addResourceBundle('en', 'translation', throwawayCatalogue, true, true)
})

describe('a workflow in the generic screens', () => {
  it('lists the status as a chip of its tone, and offers neither delete nor selection for a locked row', async () => {
    server.use(http.get(api(`${base}/all/`), () => HttpResponse.json(envelope('stock_transfers', [stored('draft', 5), stored('confirmed', 6)]))))
    await renderApp(stockTransfer.ui.listPath, { entities: throwawayEntities })
    const draft = (await screen.findByText('Transfer 5')).closest('tr')!
    const confirmed = screen.getByText('Transfer 6').closest('tr')!
    expect(within(draft).getByText('Draft').closest('[data-status]')).toHaveAttribute('data-tone', 'gray')
    expect(within(confirmed).getByText('Confirmed').closest('[data-status]')).toHaveAttribute('data-tone', 'blue')
    expect(within(draft).getByRole('button', { name: /Delete/ })).toBeInTheDocument()
    expect(within(confirmed).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument()
    expect(within(draft).getByRole('checkbox')).toBeInTheDocument()
    expect(within(confirmed).queryByRole('checkbox')).not.toBeInTheDocument()
    expect(within(draft).getByRole('button', { name: 'Confirm' })).toBeInTheDocument()
    expect(within(confirmed).queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument()
    expect(within(confirmed).getByRole('button', { name: 'Cancel order' })).toBeInTheDocument()
  })

  it('confirms a draft from its form; the confirmed record is then shown locked, without Save', async () => {
    let status = 'draft'
    const posted: string[] = []
    server.use(
      ...cityHandlers,
      http.get(api(`${base}/5`), () => HttpResponse.json(stored(status))),
      http.post(api(`${base}/:action/5`), ({ params }) => {
        posted.push(String(params.action))
        status = 'confirmed'
        return HttpResponse.json({ ...stored(status), updated_at: new Date().toISOString() })
      }),
    )
    const { user } = await renderApp(`${stockTransfer.ui.formPath}/5`, { entities: throwawayEntities })
    const heading = await screen.findByRole('heading', { name: 'Edit Stock transfer' })
    expect(within(heading.parentElement!).getByText('Draft')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument()
    await user.click(within(screen.getByRole('group', { name: 'Actions on this record' })).getByRole('button', { name: 'Confirm' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm' })).getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(posted).toEqual(['confirm']))
    expect(await screen.findByText('This Stock transfer is Confirmed: it can no longer be changed or deleted.')).toBeInTheDocument()
    expect(within(heading.parentElement!).getByText('Confirmed')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /Details/ })).toBeDisabled()
  })
})
