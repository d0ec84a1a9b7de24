import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { adminUser, api, envelope, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The donation form (issue 20): who gave — a member, a person by name and e-mail, or nobody
 * (Anonymous) — then the gift: the cause it raises, the amount and the payment method whose
 * ledger receives it. It says before sending when the donor is named both ways or not at all.
 */
const DONATION = registry.donation
const members = [{ id: 4, username: 'karim', first_name: 'Karim', last_name: 'Uddin', email: 'karim@example.com' }]
const causes = [{ id: 7, name: 'Flood Relief', goal_amount: '10000.00', raised_amount: '0.00' }]
const methods = [
  { id: 1, name: 'cash', type: 'cash', ledger: { id: 2, name: 'Cash' } },
  { id: 2, name: 'bkash', type: 'mobile', ledger: { id: 9, name: 'Bkash Account' } },
]

let sent: Record<string, unknown> | undefined

beforeEach(() => {
  storeSessionOf(adminUser)
  sent = undefined
  server.use(
    http.get(api(`${registry.member.api.base}/all/`), () => HttpResponse.json(envelope('members', members))),
    http.get(api(`${registry.cause.api.base}/all/`), () => HttpResponse.json(envelope('causes', causes))),
    http.get(api(`${registry.payment_method.api.base}/all/`), () => HttpResponse.json({ ...envelope('paymentmethods', methods), payment_methods: methods })),
    http.get(api(`${DONATION.api.base}/all/`), () => HttpResponse.json(envelope('donations', []))),
    // A picked row is read by its id, and the saved donation once it is saved (Save stays on it).
    ...([[registry.member, members], [registry.cause, causes], [registry.payment_method, methods]] as const).map(([entity, rows]) =>
      http.get(api(`${entity.api.base}/:id`), ({ params }) => HttpResponse.json((rows as ReadonlyArray<{ id: number }>).find((r) => String(r.id) === params.id) ?? {}, { status: 200 })),
    ),
    http.get(api(`${DONATION.api.base}/12`), () => HttpResponse.json({ id: 12, ...sent, invoice_no: 'RV20261123001', updated_at: '2026-11-23T10:00:00Z', _labels: {} })),
    http.post(api(`${DONATION.api.base}/create/`), async ({ request }) => {
      sent = (await request.json()) as Record<string, unknown>
      return HttpResponse.json({ id: 12, ...sent, invoice_no: 'RV20261123001', updated_at: '2026-11-23T10:00:00Z' }, { status: 201 })
    }),
  )
})

type User = Awaited<ReturnType<typeof renderApp>>['user']

async function pick(user: User, label: RegExp, text: string, option: RegExp): Promise<void> {
  const picker = screen.getByRole('combobox', { name: label })
  await user.click(picker)
  await user.type(picker, text)
  await user.click(await screen.findByRole('option', { name: option }))
}

describe('donation form', () => {
  it('offers the donor (a member or Anonymous), then the cause and the payment method', async () => {
    await renderApp(`${DONATION.ui.formPath}/new`)
    expect(await screen.findByRole('heading', { name: 'New Donation' })).toBeInTheDocument()
    const donor = screen.getByRole('group', { name: 'Donor' })
    expect(within(donor).getByRole('combobox', { name: /^Member/ })).toBeInTheDocument()
    expect(within(donor).getByRole('checkbox', { name: /^Anonymous/ })).not.toBeChecked()
    for (const name of [/^First Name/, /^Last Name/, /^Email/]) expect(within(donor).getByRole('textbox', { name })).toBeInTheDocument()
    const gift = screen.getByRole('group', { name: 'Gift' })
    expect(within(gift).getByRole('combobox', { name: /^Cause/ })).toBeInTheDocument()
    expect(within(gift).getByRole('combobox', { name: /^Payment Method/ })).toBeInTheDocument()
    expect(within(gift).getByRole('textbox', { name: /^Amount/ })).toBeInTheDocument()
  })

  it("sends a member's gift to a cause by bkash: the member, the cause, the payment method", async () => {
    const { user } = await renderApp(`${DONATION.ui.formPath}/new`)
    await screen.findByRole('heading', { name: 'New Donation' })
    await pick(user, /^Member/, 'karim', /karim/)
    await pick(user, /^Cause/, 'flood', /Flood Relief/)
    await pick(user, /^Payment Method/, 'bkash', /bkash/)
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '2500')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toBeDefined())
    expect(sent).toMatchObject({ donor: 4, is_anonymous: false, cause: 7, payment_method: 2, amount: '2500.00' })
  })

  it('sends an anonymous gift without a name, and asks for the donor when none is named', async () => {
    const { user } = await renderApp(`${DONATION.ui.formPath}/new`)
    await screen.findByRole('heading', { name: 'New Donation' })
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '40')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('First Name is required')).toBeInTheDocument()
    expect(screen.getByText('Email is required')).toBeInTheDocument()
    expect(sent).toBeUndefined()

    await user.click(screen.getByRole('checkbox', { name: /^Anonymous/ }))
    await pick(user, /^Payment Method/, 'cash', /cash/)
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toBeDefined())
    expect(sent).toMatchObject({ is_anonymous: true, payment_method: 1, amount: '40.00' })
    for (const name of ['donor', 'first_name', 'last_name', 'email']) expect(sent![name] ?? null).toBeNull()
  })

  it('refuses a gift that is both a member’s and anonymous, before sending it', async () => {
    const { user } = await renderApp(`${DONATION.ui.formPath}/new`)
    await screen.findByRole('heading', { name: 'New Donation' })
    await pick(user, /^Member/, 'karim', /karim/)
    await user.click(screen.getByRole('checkbox', { name: /^Anonymous/ }))
    await user.type(screen.getByRole('textbox', { name: /^Amount/ }), '10')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('An anonymous donation names no member: clear Member, or untick Anonymous.')).toBeInTheDocument()
    expect(sent).toBeUndefined()
  })
})
