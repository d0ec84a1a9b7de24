import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import { delay, http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { entities, registry } from '../../schema'
import { EntitiesProvider } from '../../src/engine/entities-context'
import { PrintDocument } from '../../src/engine/print/PrintDocument'
import { requestPrint } from '../../src/engine/print/print-request'
import { i18n, loadNamespaces } from '../../src/i18n'
import { stockTransfer, throwawayCatalogue } from '../support/throwaway-registry'
import { api, envelope, storeSession } from './support/fixtures'
import { server } from './support/server'

/**
 * A print asked for before the printed form has what it shows (the company from the site
 * settings, the amount in words) waits for it: Save & print of a new record asks at its new
 * address, where the printed form is still loading.
 */
const transfer = { id: 5, number: 'ST20260015', note: 'North', value: '12.00', status: 'draft', items: [{ id: 51, gadget: 1, quantity: 2, _labels: { gadget: 'Dhaka' } }] }

beforeEach(async () => {
  storeSession()
  await loadNamespaces('shell', 'registry')
  i18n.addResourceBundle('en', 'translation', throwawayCatalogue, true, true)
})
afterEach(() => vi.unstubAllGlobals())

describe('a print request', () => {
  it('prints once the company has arrived, not before, and only the document asked for', async () => {
    const print = vi.fn()
    vi.stubGlobal('print', print)
    let answer: () => void = () => {}
    const arrived = new Promise<void>((resolve) => (answer = resolve))
    server.use(
      http.get(api(`${registry.general_setting.api.base}/all/`), async () => {
        await arrived
        await delay(1)
        return HttpResponse.json(envelope('general_settings', [{ id: 1, site_name: 'Dhaka Traders', address: 'Kawran Bazar', logo: null }]))
      }),
    )
    requestPrint(stockTransfer.name, 6)
    requestPrint(stockTransfer.name, 5)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <EntitiesProvider entities={[...entities, stockTransfer]}>
          <PrintDocument entity={stockTransfer} row={transfer} />
        </EntitiesProvider>
      </QueryClientProvider>,
    )
    await act(() => new Promise((r) => setTimeout(r, 50)))
    expect(print).not.toHaveBeenCalled()
    answer()
    expect(await screen.findByText('Dhaka Traders')).toBeInTheDocument()
    await vi.waitFor(() => expect(print).toHaveBeenCalledTimes(1))
  })
})
