import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { defineEntity, f } from '../../schema/kit'
import { i18n } from '../../src/i18n'
import { gadgetOrder, throwawayCatalogue, throwawayEntities } from '../support/throwaway-registry'
import { adminUser, api, cityHandlers, envelope, storeSessionOf, type ServerUser } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * A document with lines, its computed values, its custom actions and a refused stale save,
 * in the generic screens — for an entity defined at run time (tests/support/throwaway-registry.ts:
 * an order of gadgets whose lines point at districts), so nothing in src/ knows about it.
 */
const base = gadgetOrder.api.base
const formPath = gadgetOrder.ui.formPath

const storedOrder = {
  id: 7,
  number: 'GO-0007',
  order_date: '2026-11-20',
  customer_email: 'buyer@example.com',
  status: 'draft',
  confirmed_at: '2026-11-21T09:30:00.000Z',
  items: [
    { id: 71, gadget: 1, quantity: 2, unit_price: '10.00', total_price: '20.00', note: null, _labels: { gadget: 'Dhaka' } },
    { id: 72, gadget: 2, quantity: 1, unit_price: '5.50', total_price: '5.50', note: 'fragile', _labels: { gadget: 'Chattogram' } },
  ],
  total: '25.50',
  line_count: 2,
  summary: 'GO-0007 (draft)',
  note: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-21T09:30:00.000Z',
  created_by: 1,
  updated_by: 1,
  _labels: {},
}

/** Cells of a line, by column name. */
const lineInput = (line: number, label: string) => screen.getByLabelText(`${label}, line ${line}`)

beforeEach(() => {
  storeSessionOf(adminUser)
  i18n.addResourceBundle('en', 'translation', throwawayCatalogue, true, true)
})

async function pickDistrict(user: ReturnType<typeof import('@testing-library/user-event').default.setup>, line: number, text: string, option: string) {
  const input = lineInput(line, 'District')
  await user.clear(input)
  await user.type(input, text)
  await user.click(await screen.findByRole('option', { name: option }))
}

describe('a document with lines in the generic form', () => {
  it('enters lines with the keyboard, works out each line’s and the document’s totals as one types, and sends the lines in their order', async () => {
    let created: Record<string, unknown> | undefined
    server.use(
      ...cityHandlers,
      http.post(api(`${base}/create/`), async ({ request }) => {
        created = (await request.json()) as Record<string, unknown>
        return HttpResponse.json({ ...storedOrder, id: 8 }, { status: 201 })
      }),
      http.get(api(`${base}/all/`), () => HttpResponse.json(envelope('gadget_orders', []))),
    )
    const { user } = await renderApp(`${formPath}/new`, { entities: throwawayEntities })
    expect(await screen.findByRole('heading', { name: 'New Gadget order' })).toBeInTheDocument()
    // A document that needs a line starts with one.
    expect(screen.getByText('1 line')).toBeInTheDocument()
    await user.type(screen.getByLabelText(/^Join Date/), '2026-11-22')
    await pickDistrict(user, 1, 'Dha', 'Dhaka')
    await user.type(lineInput(1, 'Serial Number'), '3')
    await user.type(lineInput(1, 'Currency'), '0.10')
    // 3 × 0.10 is 0.30 to the cent (not 0.30000000000000004).
    expect(screen.getByTestId('items.0.total_price')).toHaveTextContent('0.30')
    expect(screen.getByTestId('items.total.total_price')).toHaveTextContent('0.30')
    expect(screen.getByTestId('computed-total')).toHaveTextContent('0.30')
    expect(screen.getByTestId('computed-line_count')).toHaveTextContent('1')

    // Enter on the last line adds one and goes to it.
    await user.keyboard('{Enter}')
    await waitFor(() => expect(screen.getByText('2 lines')).toBeInTheDocument())
    await waitFor(() => expect(lineInput(2, 'District')).toHaveFocus())
    await pickDistrict(user, 2, 'Chat', 'Chattogram')
    await user.type(lineInput(2, 'Serial Number'), '1')
    await user.type(lineInput(2, 'Currency'), '1250.5')
    expect(screen.getByTestId('items.total.total_price')).toHaveTextContent('1,250.80')
    expect(screen.getByTestId('items.total.quantity')).toHaveTextContent('4')
    // Only the columns the lines field names are totalled: unit prices have no meaningful sum.
    expect(screen.queryByTestId('items.total.unit_price')).not.toBeInTheDocument()

    // Alt+↑ moves the second line first; the button moves it back down.
    lineInput(2, 'Serial Number').focus()
    await user.keyboard('{Alt>}{ArrowUp}{/Alt}')
    await waitFor(() => expect(lineInput(1, 'Serial Number')).toHaveValue(1))
    await user.click(screen.getByRole('button', { name: 'Move line 1 down' }))
    await waitFor(() => expect(lineInput(1, 'Serial Number')).toHaveValue(3))
    // A third line, removed again.
    await user.click(screen.getByRole('button', { name: 'Add line' }))
    await user.click(screen.getByRole('button', { name: 'Remove line 3' }))
    expect(screen.getByText('2 lines')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(created).toBeDefined())
    expect(created).toEqual({
      order_date: '2026-11-22',
      customer_email: null,
      status: 'draft',
      items: [
        { gadget: 1, quantity: 3, unit_price: '0.10', note: null },
        { gadget: 2, quantity: 1, unit_price: '1250.50', note: null },
      ],
      note: null,
    })
  })

  it('shows each line’s messages under its inputs, and the server’s on the line’s field', async () => {
    server.use(
      ...cityHandlers,
      http.post(api(`${base}/create/`), () => HttpResponse.json({ 'items.0.quantity': ['Not that many in stock.'] }, { status: 400 })),
    )
    const { user } = await renderApp(`${formPath}/new`, { entities: throwawayEntities })
    await screen.findByRole('heading', { name: 'New Gadget order' })
    await user.click(screen.getByRole('button', { name: 'Save' }))
    const firstLine = screen.getAllByRole('row')[1]!
    expect(await within(firstLine).findByText('District is required')).toBeInTheDocument()
    expect(within(firstLine).getByText('Serial Number is required')).toBeInTheDocument()
    expect(lineInput(1, 'Serial Number')).toHaveAttribute('aria-invalid', 'true')

    await user.type(screen.getByLabelText(/^Join Date/), '2026-11-22')
    await pickDistrict(user, 1, 'Dha', 'Dhaka')
    await user.type(lineInput(1, 'Serial Number'), '900')
    await user.type(lineInput(1, 'Currency'), '1')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Not that many in stock.')).toBeInTheDocument()
    expect(lineInput(1, 'Serial Number')).toHaveAttribute('aria-invalid', 'true')
  })

  it('finds no fault with a line just added until its cell is left', async () => {
    server.use(...cityHandlers)
    const { user } = await renderApp(`${formPath}/new`, { entities: throwawayEntities })
    await screen.findByRole('heading', { name: 'New Gadget order' })
    await user.click(screen.getByRole('button', { name: 'Add line' }))
    expect(screen.getByText('2 lines')).toBeInTheDocument()
    expect(screen.queryByText('District is required')).not.toBeInTheDocument()
    expect(lineInput(2, 'Serial Number')).not.toHaveAttribute('aria-invalid', 'true')
    lineInput(2, 'Serial Number').focus()
    await user.tab()
    expect(await screen.findByText('Serial Number is required')).toBeInTheDocument()
    expect(screen.getAllByText('Serial Number is required')).toHaveLength(1)
  })

  it('opens a stored document with one request: the names of its references come with it', async () => {
    const asked: string[] = []
    let updated: Record<string, unknown> | undefined
    server.use(
      http.get(api(`${base}/7`), () => HttpResponse.json(storedOrder)),
      http.get(api('/city/api/v1/city/:id'), ({ params }) => {
        if (!/^\d+$/.test(String(params.id))) return undefined
        asked.push(String(params.id))
        return HttpResponse.json({ id: Number(params.id), name: 'x' })
      }),
      ...cityHandlers,
      http.put(api(`${base}/update/7`), async ({ request }) => {
        updated = (await request.json()) as Record<string, unknown>
        return HttpResponse.json(storedOrder)
      }),
      http.get(api(`${base}/all/`), () => HttpResponse.json(envelope('gadget_orders', []))),
    )
    const { user } = await renderApp(`${formPath}/7/GO-0007`, { entities: throwawayEntities })
    expect(await screen.findByDisplayValue('Dhaka')).toBeInTheDocument()
    expect(screen.getByDisplayValue('Chattogram')).toBeInTheDocument()
    expect(asked).toEqual([])
    expect(screen.getByTestId('computed-total')).toHaveTextContent('25.50')
    // What the server set is shown, not offered for editing.
    expect(screen.getByTestId('stored-number')).toHaveTextContent('GO-0007')
    expect(screen.getByTestId('stored-confirmed_at')).toHaveTextContent(/2026/)
    expect(screen.queryByRole('textbox', { name: /^Name/ })).not.toBeInTheDocument()

    await user.clear(lineInput(1, 'Serial Number'))
    await user.type(lineInput(1, 'Serial Number'), '4')
    expect(screen.getByTestId('computed-total')).toHaveTextContent('45.50')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(updated).toBeDefined())
    // The lines keep their ids (changed, not replaced), and the edit says which version it was made on.
    expect(updated!.items).toEqual([
      { id: 71, gadget: 1, quantity: 4, unit_price: '10.00', note: null },
      { id: 72, gadget: 2, quantity: 1, unit_price: '5.50', note: 'fragile' },
    ])
    expect(updated!.updated_at).toBe(storedOrder.updated_at)
  })

  it('tells that someone changed the record since it was opened, and reloads it on request', async () => {
    let reads = 0
    server.use(
      http.get(api(`${base}/7`), () => {
        reads += 1
        return HttpResponse.json(reads === 1 ? storedOrder : { ...storedOrder, customer_email: 'other@example.com', updated_at: '2026-11-22T08:00:00.000Z' })
      }),
      http.put(api(`${base}/update/7`), () => HttpResponse.json({ detail: 'Someone changed this record after you opened it. Reload it to see their changes.' }, { status: 409 })),
      ...cityHandlers,
    )
    const { user } = await renderApp(`${formPath}/7/GO-0007`, { entities: throwawayEntities })
    const email = await screen.findByRole('textbox', { name: 'Email' })
    await user.clear(email)
    await user.type(email, 'mine@example.com')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Someone changed this record after you opened it. Your changes were not saved.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Reload the record' }))
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('other@example.com'))
    expect(screen.queryByText(/Your changes were not saved/)).not.toBeInTheDocument()
  })
})

describe('custom actions', () => {
  const withPermissions = (permissions: string[]): ServerUser => ({ ...adminUser, id: 12, is_admin: false, role: 'CLERK', permissions })

  it('offers the actions that apply, confirms or asks for their input, and runs them', async () => {
    const posted: Array<{ path: string; body: unknown }> = []
    let status = 'draft'
    server.use(
      http.get(api(`${base}/7`), () => HttpResponse.json({ ...storedOrder, status })),
      http.post(api(`${base}/:action/7`), async ({ params, request }) => {
        posted.push({ path: String(params.action), body: await request.json() })
        status = params.action === 'confirm' ? 'confirmed' : 'cancelled'
        return HttpResponse.json({ ...storedOrder, status, updated_at: new Date().toISOString() })
      }),
      ...cityHandlers,
    )
    const { user } = await renderApp(`${formPath}/7/GO-0007`, { entities: throwawayEntities })
    const actions = await screen.findByRole('group', { name: 'Actions on this record' })
    await user.click(within(actions).getByRole('button', { name: 'Confirm' }))
    const question = await screen.findByRole('dialog', { name: 'Confirm' })
    expect(within(question).getByText('Confirm this order? Its lines can no longer change.')).toBeInTheDocument()
    await user.click(within(question).getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(posted).toEqual([{ path: 'confirm', body: {} }]))
    // Confirmed: it no longer applies; cancelling still does, and asks why.
    await waitFor(() => expect(within(screen.getByRole('group', { name: 'Actions on this record' })).queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument())
    // (Once the question has gone: while a dialog fades out, the page behind it takes no clicks.)
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await user.click(within(screen.getByRole('group', { name: 'Actions on this record' })).getByRole('button', { name: 'Cancel order' }))
    // The confirmation may still be fading out: the input dialog is the one named after the action.
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel order' }))
    expect(await within(dialog).findByText('Details is required')).toBeInTheDocument()
    await user.type(within(dialog).getByRole('textbox', { name: /Details/ }), 'Customer changed their mind')
    await user.click(within(dialog).getByRole('button', { name: 'Cancel order' }))
    await waitFor(() => expect(posted[1]).toEqual({ path: 'cancel', body: { reason: 'Customer changed their mind' } }))
  })

  it('offers no action the user may not run', async () => {
    storeSessionOf(withPermissions(['GADGET_ORDER_LIST', 'GADGET_ORDER_DETAILS', 'GADGET_ORDER_CANCEL']))
    server.use(
      http.get(api('/api/auth/access-token'), () => HttpResponse.json({ user: withPermissions(['GADGET_ORDER_LIST', 'GADGET_ORDER_DETAILS', 'GADGET_ORDER_CANCEL']), access_token: 'x.y.z' })),
      http.get(api(`${base}/7`), () => HttpResponse.json(storedOrder)),
      ...cityHandlers,
    )
    await renderApp(`${formPath}/7/GO-0007`, { entities: throwawayEntities })
    const actions = await screen.findByRole('group', { name: 'Actions on this record' })
    expect(within(actions).getAllByRole('button').map((b) => b.textContent)).toEqual(['Cancel order'])
  })

  it('puts the actions on each row of the list, and searches the list with q', async () => {
    const searched: string[] = []
    server.use(
      http.get(api(`${base}/all/`), ({ request }) => {
        searched.push(new URL(request.url).searchParams.get('q') ?? '')
        return HttpResponse.json(envelope('gadget_orders', [{ ...storedOrder, items: undefined }, { ...storedOrder, id: 8, number: 'GO-0008', status: 'confirmed' }]))
      }),
    )
    const { user } = await renderApp(gadgetOrder.ui.listPath, { entities: throwawayEntities })
    const draft = (await screen.findByText('GO-0007')).closest('tr')!
    const confirmed = screen.getByText('GO-0008').closest('tr')!
    expect(within(draft).getByRole('button', { name: 'Confirm' })).toBeInTheDocument()
    expect(within(confirmed).queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument()
    await user.type(screen.getByRole('searchbox'), 'buyer')
    await waitFor(() => expect(searched).toContain('buyer'))
  })
})

describe('lines with the keyboard', () => {
  it('moves down a column with Enter, and saves with Ctrl+Enter and Ctrl/Cmd+S', async () => {
    let saves = 0
    server.use(
      http.get(api(`${base}/7`), () => HttpResponse.json(storedOrder)),
      http.put(api(`${base}/update/7`), () => ((saves += 1), HttpResponse.json(storedOrder))),
      http.get(api(`${base}/all/`), () => HttpResponse.json(envelope('gadget_orders', []))),
      ...cityHandlers,
    )
    await renderApp(`${formPath}/7/GO-0007`, { entities: throwawayEntities })
    const first = await screen.findByLabelText('Serial Number, line 1')
    act(() => first.focus())
    fireEvent.keyDown(first, { key: 'Enter' })
    await waitFor(() => expect(lineInput(2, 'Serial Number')).toHaveFocus())
    expect(saves).toBe(0)
    fireEvent.change(lineInput(2, 'Serial Number'), { target: { value: '4' } })
    fireEvent.keyDown(lineInput(2, 'Serial Number'), { key: 'Enter', ctrlKey: true })
    await waitFor(() => expect(saves).toBe(1))
    // Ctrl/Cmd+S saves too (and stays on the document).
    fireEvent.change(lineInput(2, 'Serial Number'), { target: { value: '5' } })
    fireEvent.keyDown(lineInput(2, 'Serial Number'), { key: 's', metaKey: true })
    await waitFor(() => expect(saves).toBe(2))
  })
})

/**
 * A line's value fetched from the row its reference points at (registry `fetchFrom`, issue
 * 22: an order line's price from its product): filled in as the row is picked, changed when
 * another is, and a stored line keeps what it holds when the form opens.
 */
describe('a line’s value fetched from the row it refers to', () => {
  const quoteLine = defineEntity({
    name: 'quote_line',
    module: 'test',
    lineOf: 'quote',
    labelField: 'place',
    fields: { place: f.ref('city', { required: true, label: 'field.district' }), place_name: f.text({ max: 50, label: 'field.name', fetchFrom: { ref: 'place', field: 'name' } }) },
  })
  const quote = defineEntity({
    name: 'quote',
    module: 'test',
    listKey: 'quotes',
    labelField: 'title',
    route: { area: 'quote-management', list: 'quotes' },
    fields: { title: f.text({ max: 50, required: true, search: true }), items: f.lines(quoteLine, { min: 1 }) },
  })

  it('fills the line in as its row is picked, and again as another is', async () => {
    i18n.addResourceBundle('en', 'translation', { entity: { quote: { one: 'Quote', other: 'Quotes' }, quote_line: { one: 'Quote line', other: 'Quote lines' } } }, true, true)
    server.use(...cityHandlers)
    const { user } = await renderApp(`${quote.ui.formPath}/new`, { entities: [...throwawayEntities, quote, quoteLine] })
    expect(await screen.findByRole('heading', { name: 'New Quote' })).toBeInTheDocument()
    await pickDistrict(user, 1, 'Dha', 'Dhaka')
    await waitFor(() => expect(lineInput(1, 'Name')).toHaveValue('Dhaka'))
    await pickDistrict(user, 1, 'Chat', 'Chattogram')
    await waitFor(() => expect(lineInput(1, 'Name')).toHaveValue('Chattogram'))
  })
})
