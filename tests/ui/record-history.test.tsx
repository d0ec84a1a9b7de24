import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { i18n } from '../../src/i18n'
import { groupHistory, placeOf, type HistoryEntry } from '../../src/engine/form/history-model'
import { gadgetOrder, gadgetOrderLine } from '../support/throwaway-registry'
import { adminUser, api, cityHandlers, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The History tab of a record's form (issue 25), for entities defined at run time: Details
 * and History tabs on a stored record only, the history asked when its tab opens, each save
 * with who, when and from which screen, its changes field by field (a reference by its name,
 * a secret only as changed, long text folded), a document's lines under their save, and
 * older saves a page at a time.
 */
const locker = defineEntity({
  name: 'locker',
  module: 'test',
  listKey: 'lockers',
  route: { area: 'locker-management', list: 'lockers' },
  fields: {
    name: f.text({ max: 50, required: true, search: true }),
    district: f.ref('city', { label: 'field.district' }),
    pin: f.password({ label: 'field.password' }),
    notes: f.text({ max: 2000, label: 'field.details' }),
  },
})
const quiet = defineEntity({
  name: 'quiet_pad',
  module: 'test',
  listKey: 'quiet_pads',
  route: { area: 'quietPad-management', list: 'quietPads' },
  fields: { name: f.text({ max: 50, required: true, search: true }) },
  history: false,
})
const registered = [...entities, locker, quiet, gadgetOrder, gadgetOrderLine]
const stamps = { created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z', created_by: 'admin@example.com', updated_by: 'admin@example.com' }
const stored = { id: 4, name: 'Right', district: 2, notes: 'First', ...stamps, _labels: { district: 'Beta' } }

const HOUR = 3600_000
const ago = (ms: number) => new Date(Date.now() - ms).toISOString()
const entry = (e: Record<string, unknown>) => ({ actor: 'sadia', actor_id: 7, entity: 'locker', entity_id: 4, label: null, source: null, batch: null, labels: {}, masked: [], line: null, ...e })

beforeEach(() => {
  storeSessionOf(adminUser)
  i18n.addResourceBundle('en', 'translation', { entity: { locker: { one: 'Locker', other: 'Lockers' }, quiet_pad: { one: 'Pad', other: 'Pads' }, gadget_order: { one: 'Gadget order', other: 'Gadget orders' }, gadget_order_line: { one: 'Gadget order line', other: 'Gadget order lines' } } }, true, true)
})

describe('the History tab', () => {
  it('opens on Details, asks for the history only when its tab is chosen, and shows each change field by field', async () => {
    const asked: URLSearchParams[] = []
    const long = `Long notes ${'x'.repeat(200)}`
    server.use(
      ...cityHandlers,
      http.get(api(`${locker.api.base}/4`), () => HttpResponse.json(stored)),
      http.get(api(`${locker.api.base}/history/4`), ({ request }) => {
        asked.push(new URL(request.url).searchParams)
        return HttpResponse.json({
          history: [
            entry({ id: 3, at: ago(2 * HOUR), action: 'update', source: 'PUT /locker/api/v1/locker/update/:id', changes: { pin: ['***', '***'], notes: ['First', long] }, masked: ['pin'], batch: 'b-1' }),
            entry({ id: 2, at: ago(3 * HOUR), action: 'update', source: `${locker.ui.formPath}/4`, changes: { name: ['Left', 'Right'], district: [1, 2] }, labels: { district: ['Alpha', 'Beta'] } }),
            entry({ id: 1, at: ago(26 * HOUR), actor: null, actor_id: null, action: 'create', source: `${locker.ui.listPath}`, changes: { name: [null, 'Left'], district: [null, 1] }, labels: { district: [null, 'Alpha'] } }),
          ],
          next: null,
        })
      }),
    )
    const { user } = await renderApp(`${locker.ui.formPath}/4`, { entities: registered })
    const tabs = await screen.findByRole('tablist', { name: 'Locker: details and history' })
    expect(within(tabs).getByRole('tab', { name: 'Details' })).toHaveAttribute('aria-selected', 'true')
    expect(await screen.findByDisplayValue('Right')).toBeVisible()
    expect(asked).toHaveLength(0)

    await user.click(within(tabs).getByRole('tab', { name: 'History' }))
    const history = await screen.findByRole('region', { name: 'History' })
    const saves = await within(history).findAllByRole('listitem')
    expect(asked).toHaveLength(1)
    expect(asked[0]!.get('size')).toBe('50')
    expect(saves).toHaveLength(3)

    // Newest first: a bulk change of a secret and long text, through the API.
    const [bulk, edit, made] = saves
    expect(bulk).toHaveTextContent(/^sadiaChangedBulk change2 hours ago/)
    expect(within(bulk!).getByText('PUT /locker/api/v1/locker/update/:id')).toBeInTheDocument()
    const secret = within(bulk!).getByRole('row', { name: /Password/ })
    expect(secret).toHaveTextContent('PasswordChanged (not shown)')
    expect(secret).not.toHaveTextContent('***')
    const notes = within(bulk!).getByRole('row', { name: /Details/ })
    expect(notes).not.toHaveTextContent(long)
    await user.click(within(notes).getByRole('button', { name: 'Show all' }))
    expect(notes).toHaveTextContent(long)

    // Made on the record's form: the screen by its title; a reference by its name.
    expect(edit).toHaveTextContent('Edit Locker')
    expect(within(edit!).getAllByRole('row').map((r) => r.textContent)).toEqual(['FieldBeforeAfter', 'NameLeftRight', 'DistrictAlphaBeta'])
    // The exact time beside how long ago.
    expect(within(edit!).getByText(/3 hours ago/).closest('time')).toHaveAttribute('dateTime', expect.stringMatching(/Z$/))

    // Made by the system, from the list screen: what it was made with.
    expect(made).toHaveTextContent(/^SystemCreated/)
    expect(made).toHaveTextContent('Lockers')
    expect(within(made!).getAllByRole('row').map((r) => r.textContent)).toEqual(['FieldValue', 'NameLeft', 'DistrictAlpha'])

    // Back to Details: the form as it was left.
    await user.click(within(tabs).getByRole('tab', { name: 'Details' }))
    expect(screen.getByDisplayValue('Right')).toBeVisible()
  })

  it('shows older saves a page at a time', async () => {
    const asked: Array<string | null> = []
    server.use(
      ...cityHandlers,
      http.get(api(`${locker.api.base}/4`), () => HttpResponse.json(stored)),
      http.get(api(`${locker.api.base}/history/4`), ({ request }) => {
        const before = new URL(request.url).searchParams.get('before')
        asked.push(before)
        return HttpResponse.json(
          before === null
            ? { history: [entry({ id: 9, at: ago(HOUR), action: 'update', changes: { name: ['B', 'Right'] } }), entry({ id: 8, at: ago(2 * HOUR), action: 'update', changes: { name: ['A', 'B'] } })], next: 8 }
            : { history: [entry({ id: 5, at: ago(5 * HOUR), action: 'create', changes: { name: [null, 'A'] } })], next: null },
        )
      }),
    )
    const { user } = await renderApp(`${locker.ui.formPath}/4#history`, { entities: registered })
    // `#history` opens on the History tab.
    const history = await screen.findByRole('region', { name: 'History' })
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(2))
    await user.click(within(history).getByRole('button', { name: 'Show older' }))
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(3))
    expect(asked).toEqual([null, '8'])
    expect(within(history).queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument()
    expect(within(history).getAllByRole('listitem')[2]).toHaveTextContent(/Created/)
  })

  it('shows a save’s lines under it: each by its place and name, added, changed, moved or removed', async () => {
    const at = ago(HOUR)
    const line = (e: Record<string, unknown>) => entry({ entity: 'gadget_order_line', at, ...e })
    server.use(
      ...cityHandlers,
      http.get(api(`${gadgetOrder.api.base}/7`), () =>
        HttpResponse.json({ id: 7, number: 'GO-7', order_date: '2026-03-01', customer_email: null, status: 'draft', confirmed_at: null, items: [], total: '0.00', line_count: 0, summary: '', note: null, ...stamps, _labels: {} }),
      ),
      http.get(api(`${gadgetOrder.api.base}/history/7`), () =>
        HttpResponse.json({
          history: [
            entry({ id: 20, at, entity: 'gadget_order', entity_id: 7, action: 'update', changes: { items: [2, 2], note: [null, 'Rush'] } }),
            line({ id: 19, entity_id: 31, action: 'create', changes: { gadget: [null, 3], quantity: [null, 2] }, labels: { gadget: [null, 'Gamma'] }, label: 'Gamma', line: { field: 'items', position: 2, label: 'Gamma' } }),
            line({ id: 18, entity_id: 30, action: 'update', changes: { quantity: [3, 5] }, label: 'Beta', line: { field: 'items', position: 1, from: 2, label: 'Beta' } }),
            line({ id: 17, entity_id: 29, action: 'delete', changes: { gadget: [1, null], quantity: [1, null] }, labels: { gadget: ['Alpha', null] }, label: 'Alpha', line: { field: 'items', position: 1, label: 'Alpha' } }),
          ],
          next: null,
        }),
      ),
    )
    const { user } = await renderApp(`${gadgetOrder.ui.formPath}/7`, { entities: registered })
    await user.click(await screen.findByRole('tab', { name: 'History' }))
    const history = await screen.findByRole('region', { name: 'History' })
    const save = (await within(history).findAllByRole('listitem'))[0]!
    // One save: the order's own change, then its lines in their order.
    expect(within(save).getAllByRole('row')[1]).toHaveTextContent(`${i18n.t('field.full_desc')}—Rush`)
    const lines = within(within(save).getByRole('list', { name: 'Lines' })).getAllByRole('listitem')
    expect(lines.map((l) => l.firstElementChild?.textContent)).toEqual(['Line 1 · AlphaRemoved', 'Line 1 · BetaChanged · moved from line 2', 'Line 2 · GammaAdded'])
    expect(within(lines[1]!).getAllByRole('row').map((r) => r.textContent)).toEqual(['FieldBeforeAfter', `${i18n.t('field.serial_number')}35`])
    expect(within(lines[2]!).getAllByRole('row').map((r) => r.textContent)).toEqual(['FieldValue', `${i18n.t('field.district')}Gamma`, `${i18n.t('field.serial_number')}2`])
    // A removed line says what it held.
    expect(within(lines[0]!).getAllByRole('row').map((r) => r.textContent)).toEqual(['FieldValue', `${i18n.t('field.district')}Alpha`, `${i18n.t('field.serial_number')}1`])
  })

  it('is not offered on a new record, nor for an entity that turns history off', async () => {
    server.use(...cityHandlers, http.get(api(`${quiet.api.base}/5`), () => HttpResponse.json({ id: 5, name: 'Quiet', ...stamps, _labels: {} })))
    const view = await renderApp(`${quiet.ui.formPath}/5`, { entities: registered })
    await screen.findByDisplayValue('Quiet')
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument()
    view.unmount()
    await renderApp(`${locker.ui.formPath}/new`, { entities: registered })
    await screen.findByRole('heading', { name: 'New Locker' })
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument()
  })
})

describe('how the tab reads a history', () => {
  const at = '2026-11-21T09:30:00.000Z'
  const e = (x: Partial<HistoryEntry> & { id: number }): HistoryEntry => ({ at, actor: 'sadia', actor_id: 7, entity: 'gadget_order', entity_id: 7, label: null, action: 'update', source: null, batch: null, changes: {}, labels: {}, masked: [], line: null, ...x })
  const line = (id: number, position: number) => e({ id, entity: 'gadget_order_line', part: 'line', line: { field: 'items', position, label: null } })

  it('puts a save’s lines under the record’s entry of that save, past a related row written by it, in their order', () => {
    const groups = groupHistory([
      e({ id: 10, part: 'own', action: 'confirm' }),
      line(9, 2),
      e({ id: 8, part: 'related', entity: 'order_payment', entity_id: 3, action: 'create' }),
      line(7, 1),
      // An earlier save, by someone else.
      line(6, 1),
    ].map((x, i) => (i === 4 ? { ...x, actor_id: 8, at: '2026-11-20T09:30:00.000Z' } : x)))
    expect(groups.map((g) => [g.head?.id ?? null, g.lines.map((l) => l.id)])).toEqual([
      [10, [7, 9]],
      [8, []],
      [null, [6]],
    ])
  })

  it('names where a change was made: a list, a form, a report, else the route', () => {
    const one = (source: string) => {
      const place = placeOf(source, registered, [])
      return place.kind === 'other' ? place.text : `${place.kind} ${'entity' in place ? place.entity.name : ''}${place.kind === 'form' && place.isNew ? ' new' : ''}`
    }
    expect(one(locker.ui.listPath)).toBe('list locker')
    expect(one(`${locker.ui.formPath}/4`)).toBe('form locker')
    expect(one(`${locker.ui.formPath}/new?x=1`)).toBe('form locker new')
    expect(one('/apps/nowhere/at-all')).toBe('/apps/nowhere/at-all')
    expect(one('PUT /locker/api/v1/locker/update/:id')).toBe('PUT /locker/api/v1/locker/update/:id')
  })
})
