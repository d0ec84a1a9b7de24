import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { adminUser, api, envelope, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The voucher entry screens (issues 10 and 18): the generic form of a document kept one row
 * per line, with the accounting module's ledger picker that marks cash and bank, running
 * totals and a live balance; Save refused by the voucher's registry rules — the difference,
 * the cash/bank rule — before anything is sent, the server's refusals on their lines; a
 * stored voucher opened by a line's id, saved under its number (staying on it), printed with
 * the company and the amount in words, cancelled, its postings and reversals shown; the
 * generic list per kind with each invoice's other ledgers.
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
/** The same voucher as the engine reads it whole (`document/{id}`): raw ids, names in `_labels`. */
const storedDocument = {
  id: 9,
  payment_date: '2026-11-23',
  branch: 3,
  sub_ledger: null,
  file: null,
  ref_invoice_no: null,
  details: 'November rent',
  invoice_no: 'PV20261123001',
  items: [
    { id: 5, ledger: 7, debit_amount: '700.00', credit_amount: '0.00', _labels: { ledger: 'Office Rent' } },
    { id: 6, ledger: 8, debit_amount: '50.50', credit_amount: '0.00', _labels: { ledger: 'Electricity' } },
    { id: 9, ledger: 1, debit_amount: '0.00', credit_amount: '750.50', _labels: { ledger: 'Cash' } },
  ],
  created_at: '2026-11-23T09:00:00.000Z',
  updated_at: '2026-11-23T09:00:00.000Z',
  created_by: 1,
  updated_by: 1,
  _labels: { branch: 'Head Office' },
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
    http.get(api(`${registry.general_setting.api.base}/all/`), () => HttpResponse.json(envelope('general_settings', []))),
    http.get(api(`${logBase}/search/`), () => HttpResponse.json(envelope('account_logs', []))),
    http.get(api(`${pv.api.base}/delete_impact/:id`), ({ params }) => HttpResponse.json({ ids: [Number(params.id)], can_delete: true, references: [] })),
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
  it('totals the lines as one types, refuses an unbalanced save with the difference (nothing sent), then posts the balanced voucher and stays on it', async () => {
    const sent: unknown[] = []
    server.use(
      http.post(api(`${pv.api.base}/create/`), async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json({ payment_vouchers: [{ id: 21, invoice_no: 'PV20261123002' }], account_logs: [] }, { status: 201 })
      }),
      http.get(api(`${pv.api.base}/document/21`), () => HttpResponse.json({ ...storedDocument, id: 21, invoice_no: 'PV20261123002' })),
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

    expect(screen.getByTestId('items.total.debit_amount')).toHaveTextContent('740.00')
    expect(screen.getByTestId('items.total.credit_amount')).toHaveTextContent('750.50')
    expect(screen.getByTestId('balance')).toHaveTextContent('Unbalanced: debits and credits differ by 10.50')
    expect(screen.getByTestId('balance')).toHaveAttribute('data-balanced', 'false')

    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Total debit (740.00) and total credit (750.50) must be equal: they differ by 10.50.')
    expect(sent).toHaveLength(0)

    // A few cents apart (rounding) count as balanced: the difference goes to Round Off when posted.
    await user.clear(amountInput('Debit', 3))
    await user.type(amountInput('Debit', 3), '50.47')
    expect(screen.getByTestId('balance')).toHaveTextContent('Balanced: 0.03 goes to Round Off')
    expect(screen.getByTestId('balance')).toHaveAttribute('data-balanced', 'true')
    await user.clear(amountInput('Debit', 3))
    await user.type(amountInput('Debit', 3), '50.50')
    expect(screen.getByTestId('balance')).toHaveTextContent(/^Balanced$/)
    // A message that no longer applies goes away as the lines are fixed.
    await waitFor(() => expect(screen.queryByText(/must be equal/)).toBeNull())
    await user.type(screen.getByRole('textbox', { name: 'Details' }), 'November rent')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]).toMatchObject({
      payment_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      details: 'November rent',
      items: [
        { ledger: 1, debit_amount: '0.00', credit_amount: '750.50' },
        { ledger: 7, debit_amount: '700.00', credit_amount: '0.00' },
        { ledger: 8, debit_amount: '50.50', credit_amount: '0.00' },
      ],
    })
    expect(sent[0]).not.toHaveProperty('invoice_no')
    // Saved: the voucher stays open under its new number, ready to print.
    await waitFor(() => expect(router.state.location.pathname).toBe(`${pv.ui.formPath}/21`))
    expect(await screen.findByText('Payment Voucher saved.')).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'Payment Voucher PV20261123002' })).toBeInTheDocument()
    // Save & close goes back to the list, where each invoice shows its other ledgers.
    await user.click(screen.getByRole('button', { name: 'Save & close' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/accounts/paymentvouchers'))
    expect(await screen.findByText('Office Rent, Electricity')).toBeInTheDocument()
  })

  it('judges the cash rule in the browser with the ledgers it has read, and puts the server’s refusals on the lines and above them', async () => {
    const sent: unknown[] = []
    server.use(
      http.post(api(`${pv.api.base}/create/`), async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json({ items: ['The branch is closed for the day.'], 'items.1.ledger': ['This ledger is frozen.'] }, { status: 400 })
      }),
    )
    const { user } = await renderApp(`${pv.ui.formPath}/new`)
    await screen.findByRole('heading', { name: 'New Payment Voucher' })
    await pickLedger(user, 1, 'rent', 'Office Rent')
    await user.type(amountInput('Credit', 1), '10')
    await pickLedger(user, 2, 'cash', 'Cash')
    await user.type(amountInput('Debit', 2), '10')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    // The voucher's own rules (the registry's): cash debited, no cash credited — nothing sent.
    expect(await screen.findByText('A payment voucher must credit a cash or bank ledger.')).toBeInTheDocument()
    expect(screen.getByText(/A payment voucher cannot debit a cash or bank ledger/)).toBeVisible()
    expect(ledgerInput(2)).toHaveAttribute('aria-invalid', 'true')
    expect(sent).toHaveLength(0)

    // Fixed as the rules want it; what only the server knows comes back on its lines.
    await pickLedger(user, 1, 'cash', 'Cash')
    await pickLedger(user, 2, 'rent', 'Office Rent')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(await screen.findByText('The branch is closed for the day.')).toBeInTheDocument()
    const message = await screen.findByText('This ledger is frozen.')
    expect(ledgerInput(2)).toHaveAttribute('aria-invalid', 'true')
    expect(message).toBeVisible()
  })

  it('opens a stored voucher by a line’s id, shows its postings and reversals, saves it under its number and cancels it', async () => {
    const updates: unknown[] = []
    const deleted: string[] = []
    server.use(
      http.get(api(`${pv.api.base}/document/9`), () => HttpResponse.json(storedDocument)),
      http.get(api(`${registry.general_setting.api.base}/all/`), () => HttpResponse.json(envelope('general_settings', [{ id: 1, site_name: 'Dhaka Traders', address: '12 Kawran Bazar, Dhaka', phone: '+8801711000000', email: 'office@example.com', logo: null }]))),
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
      http.put(api(`${pv.api.base}/update/9`), async ({ request }) => {
        updates.push(await request.json())
        return HttpResponse.json({ data: { payment_vouchers: [{ id: 9 }] }, detail: 'updated' })
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
    // The printable document holds what is stored: the company, the payees, the amount in words.
    const printed = screen.getByTestId('print-document')
    expect(await within(printed).findByText('Dhaka Traders')).toBeInTheDocument()
    // Its phone reads left to right whatever the document's direction.
    expect(within(printed).getByText('+8801711000000').closest('bdi')).toHaveAttribute('dir', 'ltr')
    expect(within(printed).getByText('Head Office')).toBeInTheDocument()
    expect(within(printed).getByTestId('print-party')).toHaveTextContent('Paid to:Office Rent, Electricity')
    expect(within(printed).getByTestId('print-total-debit_amount')).toHaveTextContent('750.50')
    expect(await within(printed).findByText('Seven hundred and fifty taka and fifty poisha only')).toBeInTheDocument()

    await user.clear(amountInput('Debit', 1))
    await user.type(amountInput('Debit', 1), '699.99')
    expect(screen.getByRole('button', { name: 'Print' })).toBeDisabled()
    await user.type(amountInput('Credit', 3), '{Backspace}{Backspace}49')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(updates).toHaveLength(1))
    expect(updates[0]).toMatchObject({ branch: 3, items: [{ id: 5, debit_amount: '699.99' }, { id: 6 }, { id: 9, credit_amount: '750.49' }] })
    // It stays on the voucher.
    expect(router.state.location.pathname).toBe(`${pv.ui.formPath}/9`)

    await user.click(await screen.findByRole('button', { name: 'Cancel voucher' }))
    const dialog = await screen.findByRole('dialog', { name: 'Cancel PV20261123001?' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel voucher' }))
    await waitFor(() => expect(deleted).toEqual(['9']))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/accounts/paymentvouchers'))
    // Said in the screen's word: a voucher is cancelled, not deleted.
    expect(await screen.findByText('The voucher was cancelled.')).toBeInTheDocument()
  })
})
