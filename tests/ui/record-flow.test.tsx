import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { registry } from '../../schema'
import { i18n } from '../../src/i18n'
import { memo, stockTransfer, throwawayCatalogue, throwawayEntities } from '../support/throwaway-registry'
import { adminUser, api, cityHandlers, envelope, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * A record flow that stays put (issue 18 §5), for entities defined at run time: Save keeps
 * the saved record open at its own address (and sends nothing when nothing changed), Save &
 * new opens a blank form, Save & close returns to the list, Ctrl/Cmd+S saves from anywhere;
 * a printable document (`print`) is printed from what is stored — the company, its header,
 * lines, totals, amount in words and signatures — with Save & print saving first.
 */
const stamp = '2026-11-20T10:00:00.000Z'
const memoRow = (id: number, name: string) => ({ id, name, created_at: stamp, updated_at: stamp, created_by: 1, updated_by: 1, _labels: {} })

beforeEach(() => {
  storeSessionOf(adminUser)
  i18n.addResourceBundle('en', 'translation', throwawayCatalogue, true, true)
})
afterEach(() => vi.restoreAllMocks())

describe('saving a record', () => {
  it('stays on the saved record, sends nothing more when nothing changed, and offers Save & new and Save & close', async () => {
    const sent: Array<{ method: string; body: unknown }> = []
    const names = new Map<number, string>()
    let next = 7
    server.use(
      http.post(api(`${memo.api.base}/create/`), async ({ request }) => {
        const body = (await request.json()) as { name: string }
        const id = next++
        names.set(id, body.name)
        sent.push({ method: 'POST', body })
        return HttpResponse.json(memoRow(id, body.name), { status: 201 })
      }),
      http.put(api(`${memo.api.base}/update/:id`), async ({ request, params }) => {
        const body = (await request.json()) as { name: string }
        names.set(Number(params.id), body.name)
        sent.push({ method: 'PUT', body: { name: body.name } })
        return HttpResponse.json(memoRow(Number(params.id), body.name))
      }),
      http.get(api(`${memo.api.base}/:id`), ({ params }) => (names.has(Number(params.id)) ? HttpResponse.json(memoRow(Number(params.id), names.get(Number(params.id))!)) : undefined)),
      http.get(api(`${memo.api.base}/all/`), () => HttpResponse.json(envelope('memos', [...names].map(([id, name]) => memoRow(id, name))))),
    )
    const { user, router } = await renderApp(`${memo.ui.formPath}/new`, { entities: throwawayEntities })
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Pay day')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toMatch(new RegExp(`^${memo.ui.formPath}/7(/|$)`)))
    expect(await screen.findByRole('heading', { name: 'Edit Memo' })).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Pay day')
    // Saved and untouched: Save sends nothing.
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(sent).toHaveLength(1)

    // Save & new: saved, then a blank form for the next one.
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), ' (2)')
    await user.click(screen.getByRole('button', { name: 'Save & new' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(`${memo.ui.formPath}/new`))
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue(''))
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Stock take')
    await user.click(screen.getByRole('button', { name: 'Save & new' }))
    await waitFor(() => expect(sent).toHaveLength(3))
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue(''))

    // Save & close: back to the list.
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Inventory')
    await user.click(screen.getByRole('button', { name: 'Save & close' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(memo.ui.listPath))
    expect(sent.map((s) => `${s.method} ${JSON.stringify(s.body)}`)).toEqual(['POST {"name":"Pay day","is_pinned":false}', 'PUT {"name":"Pay day (2)"}', 'POST {"name":"Stock take","is_pinned":false}', 'POST {"name":"Inventory","is_pinned":false}'])
  })

  it('saves with Ctrl/Cmd+S from any field, and keeps the action bar in view at the bottom', async () => {
    const sent: unknown[] = []
    server.use(
      http.post(api(`${memo.api.base}/create/`), async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json(memoRow(9, 'Keys'), { status: 201 })
      }),
      http.get(api(`${memo.api.base}/9`), () => HttpResponse.json(memoRow(9, 'Keys'))),
    )
    await renderApp(`${memo.ui.formPath}/new`, { entities: throwawayEntities })
    const name = await screen.findByRole('textbox', { name: /^Name/ })
    fireEvent.change(name, { target: { value: 'Keys' } })
    fireEvent.keyDown(name, { key: 's', metaKey: true })
    await waitFor(() => expect(sent).toEqual([{ name: 'Keys', is_pinned: false }]))
    expect(screen.getByTestId('form-actions')).toHaveClass('sticky', 'bottom-0')
  })
})

describe('a printable document', () => {
  const base = stockTransfer.api.base
  const transfer = (note: string) => ({
    id: 5,
    number: 'ST20260015',
    note,
    value: '1250.50',
    status: 'draft',
    journal_no: null,
    items: [
      { id: 51, gadget: 1, quantity: 2, _labels: { gadget: 'Dhaka' } },
      { id: 52, gadget: 2, quantity: 3, _labels: { gadget: 'Chattogram' } },
    ],
    created_at: stamp,
    updated_at: stamp,
    created_by: 1,
    updated_by: 1,
    _labels: {},
  })

  it('prints what is stored: the company, the header, the lines and their total, the value in words, the signatures', async () => {
    server.use(
      ...cityHandlers,
      http.get(api(`${registry.general_setting.api.base}/all/`), () => HttpResponse.json(envelope('general_settings', [{ id: 1, site_name: 'Dhaka Traders', address: '12 Kawran Bazar, Dhaka', logo: null }]))),
      http.get(api(`${base}/5`), () => HttpResponse.json(transfer('To the north'))),
    )
    await renderApp(`${stockTransfer.ui.formPath}/5`, { entities: throwawayEntities })
    expect(await screen.findByRole('heading', { name: 'Stock transfer ST20260015' })).toBeInTheDocument()
    const printed = await screen.findByTestId('print-document')
    expect(await within(printed).findByText('Dhaka Traders')).toBeInTheDocument()
    expect(within(printed).getByText('To the north')).toBeInTheDocument()
    expect(within(printed).getByText('Chattogram')).toBeInTheDocument()
    expect(within(printed).getByTestId('print-total-quantity')).toHaveTextContent('5')
    expect(await within(printed).findByText('One thousand two hundred and fifty taka and fifty poisha only')).toBeInTheDocument()
    expect(within(printed).getByText('Prepared by')).toBeInTheDocument()
    expect(within(printed).getByText('Approved by')).toBeInTheDocument()
  })

  it('saves, then prints, with Save & print; Print waits for unsaved changes', async () => {
    const print = vi.fn()
    vi.stubGlobal('print', print)
    let note = 'To the north'
    const updates: unknown[] = []
    server.use(
      ...cityHandlers,
      http.get(api(`${registry.general_setting.api.base}/all/`), () => HttpResponse.json(envelope('general_settings', []))),
      http.get(api(`${base}/5`), () => HttpResponse.json(transfer(note))),
      http.put(api(`${base}/update/5`), async ({ request }) => {
        const body = (await request.json()) as { note: string }
        updates.push(body)
        note = body.note
        return HttpResponse.json({ ...transfer(note), updated_at: new Date().toISOString() })
      }),
    )
    const { user } = await renderApp(`${stockTransfer.ui.formPath}/5`, { entities: throwawayEntities })
    const field = await screen.findByRole('textbox', { name: /^Details/ })
    await user.type(field, ' depot')
    expect(screen.getByRole('button', { name: 'Print' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Save & print' }))
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1))
    expect(updates).toMatchObject([{ note: 'To the north depot' }])
    await waitFor(() => expect(screen.getByRole('button', { name: 'Print' })).toBeEnabled())
    // Print prints what is stored, once its printed form has it.
    await user.click(screen.getByRole('button', { name: 'Print' }))
    await waitFor(() => expect(print).toHaveBeenCalledTimes(2))
    vi.unstubAllGlobals()
  })
})
