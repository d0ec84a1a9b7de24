import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { api, envelope, storeSession } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The spec's address of a final purchase's invoice, `report-management/purchage-final-reports/
 * purchase-invoice/{purchaseId}` (the purchase report's rows name it): it opens the purchase's
 * form, whose Print gives its printed invoice.
 */
describe('a final purchase’s invoice address', () => {
  beforeEach(() => storeSession())

  it('opens the purchase’s form, with its Print', async () => {
    const purchase = registry.purchase_final
    server.use(
      http.get(api(`${purchase.api.base}/9`), () =>
        HttpResponse.json({ id: 9, invoice_no: 'PF20260405001', purchase_date: '2026-04-05', vendor: 3, status: 'confirmed', total_price: '160.00', paid_amount: '40.00', payment_status: 'partial', items: [], _labels: { vendor: 'rina' } }),
      ),
      http.get(api(`${registry.vendor.api.base}/all/`), () => HttpResponse.json(envelope('vendors', []))),
      http.get(api(`${registry.purchase_payment.api.base}/search/`), () => HttpResponse.json(envelope('purchase_payments', []))),
    )
    const { router } = await renderApp('/apps/report-management/purchage-final-reports/purchase-invoice/9')
    await waitFor(() => expect(router.state.location.pathname).toBe(`${purchase.ui.formPath}/9`))
    expect(await screen.findByRole('button', { name: 'Print' })).toBeInTheDocument()
  })
})
