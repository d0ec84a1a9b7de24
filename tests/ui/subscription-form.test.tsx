import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { adminUser, api, envelope, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * A new monthly subscription is for several members at once (api-contract §4.5): the form asks
 * for members in place of the one member and sends `members`; a stored one is one member's.
 */
const SUBSCRIPTION = registry.monthly_subscription
const members = [
  { id: 1, username: 'jalil', first_name: 'Abdul', last_name: 'Jalil' },
  { id: 2, username: 'karim', first_name: 'Karim', last_name: 'Uddin' },
]

let sent: Record<string, unknown> | undefined

beforeEach(() => {
  storeSessionOf(adminUser)
  sent = undefined
  server.use(
    http.get(api(`${registry.member.api.base}/all/`), () => HttpResponse.json(envelope('members', members))),
    http.post(api(`${SUBSCRIPTION.api.base}/create/`), async ({ request }) => {
      sent = (await request.json()) as Record<string, unknown>
      return HttpResponse.json({ monthly_subscriptions: [] }, { status: 201 })
    }),
    http.get(api(`${SUBSCRIPTION.api.base}/all/`), () => HttpResponse.json(envelope('monthly_subscriptions', []))),
    http.get(api(`${SUBSCRIPTION.api.base}/7`), () =>
      HttpResponse.json({ id: 7, member: 2, amount: '500.00', note: null, invoice_no: 'RV20261123001', subscription_date: '2026-11-23T10:00:00Z', updated_at: '2026-11-23T10:00:00Z', _labels: { member: 'karim' } }),
    ),
  )
})

describe('subscription form', () => {
  it('gives a new subscription to several members at once, sending members and no member', async () => {
    const { user, router } = await renderApp(`${SUBSCRIPTION.ui.formPath}/new`)
    expect(await screen.findByRole('heading', { name: 'New Subscription' })).toBeInTheDocument()
    expect(screen.queryByRole('combobox', { name: /^Member\b/ })).toBeNull()
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '500')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(/Members.*required|required.*Members/i)).toBeInTheDocument()
    expect(sent).toBeUndefined()

    const picker = screen.getByRole('combobox', { name: /^Members/ })
    for (const name of ['jalil', 'karim']) {
      await user.click(picker)
      await user.type(picker, name)
      await user.click(await screen.findByRole('option', { name: new RegExp(name) }))
    }
    await user.click(screen.getByRole('button', { name: 'Save & close' }))
    await waitFor(() => expect(sent).toBeDefined())
    expect(sent).toMatchObject({ members: [1, 2], amount: '500.00' })
    expect(sent).not.toHaveProperty('member')
    await waitFor(() => expect(router.state.location.pathname).toBe(SUBSCRIPTION.ui.listPath))
  })

  it('shows a stored subscription as its one member’s', async () => {
    await renderApp(`${SUBSCRIPTION.ui.formPath}/7`)
    expect(await screen.findByRole('combobox', { name: /^Member\b/ })).toBeInTheDocument()
    expect(screen.queryByRole('combobox', { name: /^Members/ })).toBeNull()
  })
})
