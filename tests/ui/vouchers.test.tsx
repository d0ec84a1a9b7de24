import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { adminUser, api, envelope, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The voucher entry screens (issue 10): ledger lines with a search that marks cash and bank,
 * running totals and a live balance; Save refused with the difference while the sides differ
 * (nothing sent), the server's refusals on their lines; a stored voucher opened by a line's
 * id, saved under its number, cancelled, its postings and reversals shown; the generic list
 * per kind with each invoice's other ledgers.
 */
const pv = registry.payment_voucher
const ledgerBase = registry.ledger_account.api.base
const logBase = registry.account_log.api.base

const ledgers = [
  { id: 1, name: 'Cash', is_cash_bank: true },
  { id: 7, name: 'Office Rent', is_cash_bank: false },
  { id: 8, name: 'Electricity', is_cash_bank: false },
]
const stored = {
  invoice_no: 'PV20261123001',
  file: null,
  sub_ledger: null,
  branch: { id: 3, name: 'Head Office' },
  payment_date: '2026-11-23',
  details: 'November rent',
  items: [
    { id: 5, ledger: { id: 7, name: 'Office Rent' }, debit_amount: '700.00', credit_amount: '0.00' },
    { id: 6, ledger: { id: 8, name: 'Electricity' }, debit_amount: '50.50', credit_amount: '0.00' },
    { id: 9, ledger: { id: 1, name: 'Cash' }, debit_amount: '0.00', credit_amount: '750.50' },
  ],
}
const listRow = { id: 9, invoice_no: 'PV20261123001', payment_date: '2026-11-23', ledger: { id: 1, name: 'Cash' }, branch: { id: 3, name: 'Head Office' }, amount: '750.50', related_ledgers: ['Office Rent', 'Electricity'], details: 'November rent' }

beforeEach(() => {
  storeSessionOf(adminUser)
  server.use(
    http.get(api(`${ledgerBase}/all/`), ({ request }) => {
      const q = (new URL(request.url).searchParams.get('q') ?? '').toLowerCase()
      return HttpResponse.json(envelope('ledger_accounts', ledgers.filter((l) => l.name.toLowerCase().includes(q)), 1, 20))
    }),
    http.get(api(`${ledgerBase}/:id`), ({ params }) => HttpResponse.json(ledgers.find((l) => l.id === Number(params.id)) ?? {})),
    http.get(api(`${pv.api.base}/all/`), () => HttpResponse.json(envelope('payment_vouchers', [listRow]))),
    http.get(api(`${registry.branch.api.base}/all/`), () => HttpResponse.json(envelope('branches', [{ id: 3, name: 'Head Office' }], 1, 20))),
    http.get(api(`${registry.sub_ledger_account.api.base}/all/`), () => HttpResponse.json(envelope('sub_ledger_accounts', [], 1, 20))),
  )
})

const ledgerInput = (line: number) => screen.getByRole('combobox', { name: `Ledger, line ${line}` })
const amountInput = (side: 'Debit' | 'Credit', line: number) => screen.getByRole('textbox', { name: `${side}, line ${line}` })

async function pickLedger(user: Awaited<ReturnType<typeof renderApp>>['user'], line: number, text: string, name: string) {
  await user.click(ledgerInput(line))
  await user.type(ledgerInput(line), text)
  await user.click(await screen.findByRole('option', { name: new RegExp(`^${name}`) }))
}

describe('voucher entry', () => {
  it('totals the lines as one types, refuses an unbalanced save with the difference (nothing sent), then posts the balanced voucher', async () => {
    const sent: FormData[] = []
    server.use(
      http.post(api(`${pv.api.base}/create/`), async ({ request }) => {
        sent.push(await request.formData())
        return HttpResponse.json({ payment_vouchers: [], account_logs: [] }, { status: 201 })
      }),
    )
    const { user, router } = await renderApp(`${pv.ui.formPath}/new`)
    expect(await screen.findByRole('heading', { name: 'New Payment Voucher' })).toBeInTheDocument()
    expect(screen.getByTestId('balance')).toHaveTextContent("Enter the lines' amounts")

    // The ledger search marks where money is held.
    await user.click(ledgerInput(1))
    await user.type(ledgerInput(1), 'a')
    const cashOption = await screen.findByRole('option', { name: /^Cash/ })
    expect(within(cashOption).getByText('Cash/Bank')).toBeInTheDocument()
    expect(within(screen.getByRole('option', { name: /^Office Rent/ })).queryByText('Cash/Bank')).toBeNull()
    await user.click(cashOption)
    expect(await screen.findByTestId('items.0.ledger.cash_bank')).toHaveTextContent('Cash/Bank')
    await user.type(amountInput('Credit', 1), '750.50')
    await pickLedger(user, 2, 'rent', 'Office Rent')
    await user.type(amountInput('Debit', 2), '700')
    await user.click(screen.getByRole('button', { name: 'Add line' }))
    await pickLedger(user, 3, 'elec', 'Electricity')
    await user.type(amountInput('Debit', 3), '40')

    expect(screen.getByTestId('total-debit')).toHaveTextContent('740.00')
    expect(screen.getByTestId('total-credit')).toHaveTextContent('750.50')
    expect(screen.getByTestId('balance')).toHaveTextContent('Unbalanced: debits and credits differ by 10.50')
    expect(screen.getByTestId('balance')).toHaveAttribute('data-balanced', 'false')

    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Total debit (740.00) and total credit (750.50) must be equal: they differ by 10.50.')
    expect(sent).toHaveLength(0)

    await user.clear(amountInput('Debit', 3))
    await user.type(amountInput('Debit', 3), '50.50')
    expect(screen.getByTestId('balance')).toHaveTextContent('Balanced')
    await user.type(screen.getByRole('textbox', { name: 'Details' }), 'November rent')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    const body = Object.fromEntries([...sent[0]!.entries()].map(([k, v]) => [k, String(v)]))
    expect(body).toMatchObject({
      payment_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      details: 'November rent',
      'items[0][ledger]': '1',
      'items[0][debit_amount]': '0',
      'items[0][credit_amount]': '750.50',
      'items[1][ledger]': '7',
      'items[1][debit_amount]': '700',
      'items[2][ledger]': '8',
      'items[2][debit_amount]': '50.50',
    })
    expect(body).not.toHaveProperty('invoice_no')
    // Back to the list, where each invoice shows its other ledgers.
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/accounts/paymentvouchers'))
    expect(await screen.findByText('Payment Voucher saved.')).toBeInTheDocument()
    expect(await screen.findByText('Office Rent, Electricity')).toBeInTheDocument()
  })

  it('puts the server’s refusals on the lines and above them', async () => {
    server.use(
      http.post(api(`${pv.api.base}/create/`), () =>
        HttpResponse.json({ items: ['A payment voucher must credit a cash or bank ledger.'], 'items.1.ledger': ['A cash or bank ledger cannot be debited by a payment.'] }, { status: 400 }),
      ),
    )
    const { user } = await renderApp(`${pv.ui.formPath}/new`)
    await screen.findByRole('heading', { name: 'New Payment Voucher' })
    await pickLedger(user, 1, 'rent', 'Office Rent')
    await user.type(amountInput('Credit', 1), '10')
    await pickLedger(user, 2, 'cash', 'Cash')
    await user.type(amountInput('Debit', 2), '10')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('A payment voucher must credit a cash or bank ledger.')).toBeInTheDocument()
    const message = await screen.findByText('A cash or bank ledger cannot be debited by a payment.')
    expect(ledgerInput(2)).toHaveAttribute('aria-invalid', 'true')
    expect(message).toBeVisible()
  })

  it('opens a stored voucher by a line’s id, shows its postings and reversals, saves it under its number and cancels it', async () => {
    const updates: FormData[] = []
    const deleted: string[] = []
    server.use(
      http.get(api(`${pv.api.base}/9`), () => HttpResponse.json({ id: 9, invoice_no: stored.invoice_no })),
      http.get(api(`${pv.api.base}/payment_voucher_by_invoice_no/:invoice`), ({ params }) => (params.invoice === stored.invoice_no ? HttpResponse.json(stored) : HttpResponse.json({ detail: 'no' }, { status: 404 }))),
      http.get(api(`${logBase}/search/`), () =>
        HttpResponse.json(
          envelope('account_logs', [
            { id: 1, reference_no: stored.invoice_no, ledger: { id: 7, name: 'Office Rent' }, debit_amount: '600.00', credit_amount: '0.00', log_date: '2026-11-23', reverses: null },
            { id: 2, reference_no: stored.invoice_no, ledger: { id: 7, name: 'Office Rent' }, debit_amount: '0.00', credit_amount: '600.00', log_date: '2026-11-23', reverses: 1 },
            // Another invoice that merely contains this number is not this voucher's.
            { id: 3, reference_no: `${stored.invoice_no}0`, ledger: { id: 8, name: 'Electricity' }, debit_amount: '1.00', credit_amount: '0.00', log_date: '2026-11-23', reverses: null },
          ]),
        ),
      ),
      http.put(api(`${pv.api.base}/update/`), async ({ request }) => {
        updates.push(await request.formData())
        return HttpResponse.json({ data: {}, detail: 'updated' })
      }),
      http.delete(api(`${pv.api.base}/delete/:id`), ({ params }) => {
        deleted.push(String(params.id))
        return HttpResponse.json({ detail: 'Payment Voucher 9 cancelled.' })
      }),
    )
    const { user, router } = await renderApp(`${pv.ui.formPath}/9`)
    expect(await screen.findByRole('heading', { name: 'Payment Voucher PV20261123001' })).toBeInTheDocument()
    expect(ledgerInput(1)).toHaveValue('Office Rent')
    expect(amountInput('Debit', 2)).toHaveValue('50.50')
    expect(amountInput('Credit', 3)).toHaveValue('750.50')
    expect(screen.getByTestId('balance')).toHaveTextContent('Balanced')
    const postings = await screen.findByRole('region', { name: 'General ledger postings' })
    expect(within(postings).getAllByRole('row')).toHaveLength(3)
    expect(within(postings).getByText('Reversal of entry 1')).toBeInTheDocument()
    // The printable document holds what is stored.
    expect(within(screen.getByTestId('voucher-document')).getByText('Head Office')).toBeInTheDocument()

    await user.clear(amountInput('Debit', 1))
    await user.type(amountInput('Debit', 1), '699.99')
    expect(screen.getByRole('button', { name: 'Print' })).toBeDisabled()
    await user.type(amountInput('Credit', 3), '{Backspace}{Backspace}49')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(updates).toHaveLength(1))
    const body = Object.fromEntries([...updates[0]!.entries()].map(([k, v]) => [k, String(v)]))
    expect(body).toMatchObject({ invoice_no: stored.invoice_no, branch: '3', 'items[0][debit_amount]': '699.99', 'items[2][credit_amount]': '750.49' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/accounts/paymentvouchers'))

    await router.navigate({ to: `${pv.ui.formPath}/9` })
    await user.click(await screen.findByRole('button', { name: 'Cancel voucher' }))
    const dialog = await screen.findByRole('dialog', { name: 'Cancel PV20261123001?' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel voucher' }))
    await waitFor(() => expect(deleted).toEqual(['9']))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/accounts/paymentvouchers'))
  })
})
