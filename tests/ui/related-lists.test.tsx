import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import { checkRegistry } from '../../schema/check'
import { defineEntity, f } from '../../schema/kit'
import { i18n } from '../../src/i18n'
import { accessTokenAnswers, adminUser, api, envelope, storeSessionOf, type ServerUser } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * Related lists under a record's form (the registry's `related`, issue 21), for entities
 * defined at run time: a crate lists its newest items in their own cells, with a link to the
 * items' list filtered by the crate; nothing is asked or shown to a user who may not list
 * the items; the registry check refuses a relation it could not show.
 */
const crateItem = defineEntity({
  name: 'crate_item',
  module: 'test',
  listKey: 'crate_items',
  route: { area: 'crateItem-management', list: 'crateItems' },
  fields: { name: f.text({ max: 50, required: true, search: true }), crate: f.ref('crate', { required: true }), quantity: f.integer({ min: 0 }) },
  filters: ['crate'],
})
const crate = defineEntity({
  name: 'crate',
  module: 'test',
  listKey: 'crates',
  route: { area: 'crate-management', list: 'crates' },
  fields: { name: f.text({ max: 50, required: true, search: true }) },
  related: [{ entity: 'crate_item', via: 'crate', columns: ['name', 'quantity'], size: 2 }],
})
const registered = [...entities, crate, crateItem]
const labels = { entity: { crate: { one: 'Crate', other: 'Crates' }, crate_item: { one: 'Crate item', other: 'Crate items' } } }
const stored = { id: 4, name: 'Blue crate', created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z', created_by: 1, updated_by: 1, _labels: {} }
const item = (id: number, name: string, quantity: number) => ({ id, name, crate: { id: 4, name: 'Blue crate' }, quantity, created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z', created_by: 1, updated_by: 1 })

beforeEach(() => {
  i18n.addResourceBundle('en', 'translation', labels, true, true)
})

describe('related lists under a form', () => {
  it('lists the newest rows that refer to the record, and links to all of them', async () => {
    storeSessionOf(adminUser)
    const asked: URLSearchParams[] = []
    server.use(
      http.get(api(`${crate.api.base}/4`), () => HttpResponse.json(stored)),
      http.get(api(`${crateItem.api.base}/search/`), ({ request }) => {
        asked.push(new URL(request.url).searchParams)
        return HttpResponse.json(envelope('crate_items', [item(9, 'Mangoes', 12), item(8, 'Limes', 3)], 1, 2, 5))
      }),
    )
    await renderApp(`${crate.ui.formPath}/4`, { entities: registered })
    const panel = await screen.findByRole('region', { name: 'Crate items' })
    const rows = await within(panel).findAllByRole('row')
    expect(rows.map((r) => r.textContent)).toEqual(['NameQuantity', 'Mangoes12', 'Limes3'])
    expect(within(panel).getByRole('link', { name: 'See all (5)' })).toHaveAttribute('href', `${crateItem.ui.listPath}?crate=4`)
    expect(within(panel).getByRole('link', { name: 'Mangoes' })).toHaveAttribute('href', `${crateItem.ui.formPath}/9`)
    expect(asked).toHaveLength(1)
    expect(Object.fromEntries(asked[0]!)).toMatchObject({ crate: '4', ordering: '-id', size: '2' })
  })

  it('asks nothing and shows nothing to a user who may not list the related rows', async () => {
    const reader: ServerUser = { ...adminUser, id: 12, is_admin: false, role: 'READER', permissions: ['CRATE_LIST', 'CRATE_DETAILS'] }
    storeSessionOf(reader)
    let asked = 0
    server.use(
      accessTokenAnswers(reader),
      http.get(api(`${crate.api.base}/4`), () => HttpResponse.json(stored)),
      http.get(api(`${crateItem.api.base}/search/`), () => {
        asked++
        return HttpResponse.json(envelope('crate_items', []))
      }),
    )
    await renderApp(`${crate.ui.formPath}/4`, { entities: registered })
    await screen.findByRole('heading', { name: 'Edit Crate' })
    await screen.findByDisplayValue('Blue crate')
    expect(screen.queryByRole('region', { name: 'Crate items' })).not.toBeInTheDocument()
    expect(asked).toBe(0)
  })

  it('is refused by the registry check when it could not be shown', () => {
    const problems = (related: object) =>
      checkRegistry([...entities, crateItem, defineEntity({ name: 'crate', module: 'test', listKey: 'crates', route: { area: 'crate-management', list: 'crates' }, fields: { name: f.text({ search: true }) }, related: [related] } as never)])
        .filter((p) => p.entity === 'crate')
        .map((p) => p.message)
    expect(problems({ entity: 'box', via: 'crate' })).toEqual(["related 'box' is not an entity of the registry"])
    expect(problems({ entity: 'crate_item', via: 'name' })).toEqual(["related 'crate_item': 'name' is not its reference to crate"])
    expect(problems({ entity: 'crate_item', via: 'crate', columns: ['colour'], size: 0 })).toEqual([
      "related 'crate_item': its column 'colour' is not a field",
      "related 'crate_item': its size is a whole number from 1 to 100",
    ])
    expect(problems({ entity: 'crate_item', via: 'crate' })).toEqual([])
  })
})

/**
 * A record's history under its form (the registry's `history`, issue 22): its own moves with
 * what they were given, and its related rows', from the server's `history/{id}`.
 */
describe('a record’s history under its form', () => {
  const shipment = defineEntity({
    name: 'crate_shipment',
    module: 'test',
    listKey: 'crate_shipments',
    route: { area: 'crateShipment-management', list: 'crateShipments' },
    fields: { name: f.text({ max: 50, required: true, search: true }), status: f.choice(['draft', 'sent']) },
    workflow: { field: 'status', initial: 'draft', editableIn: ['draft'], transitions: { send: { from: ['draft'], to: 'sent', input: { note: f.text({ max: 50 }) } } } },
    related: [{ entity: 'crate_item', via: 'crate' }],
    history: true,
  })

  it('lists who did what and when, a move with its statuses and what it was given, and a related row by its label', async () => {
    storeSessionOf(adminUser)
    i18n.addResourceBundle('en', 'translation', { entity: { crate_shipment: { one: 'Shipment', other: 'Shipments' } }, action: { send: 'Send' }, option: { draft: 'Draft', sent: 'Sent' } }, true, true)
    server.use(
      http.get(api(`${shipment.api.base}/4`), () => HttpResponse.json({ ...stored, status: 'sent' })),
      http.get(api(`${crateItem.api.base}/search/`), () => HttpResponse.json(envelope('crate_items', [], 1, 10, 0))),
      http.get(api(`${shipment.api.base}/history/4`), () =>
        HttpResponse.json({
          history: [
            { id: 3, at: '2026-11-21T09:30:00.000Z', actor: 'sadia', entity: 'crate_shipment', entity_id: 4, label: null, action: 'send', changes: { status: ['draft', 'sent'], _input: [null, { note: 'By van' }] } },
            { id: 2, at: '2026-11-20T11:00:00.000Z', actor: 'admin', entity: 'crate_item', entity_id: 9, label: 'Mangoes', action: 'create', changes: { amount: [null, '12.50'] } },
            { id: 1, at: '2026-11-20T10:00:00.000Z', actor: null, entity: 'crate_shipment', entity_id: 4, label: null, action: 'create', changes: {} },
          ],
        }),
      ),
    )
    await renderApp(`${shipment.ui.formPath}/4`, { entities: [...registered, shipment] })
    const panel = await screen.findByRole('region', { name: 'History' })
    const entries = await within(panel).findAllByRole('listitem')
    expect(entries.map((e) => e.textContent)).toEqual([
      expect.stringMatching(/Send.*Draft.*Sent.*Note: By van.*sadia$/),
      expect.stringMatching(/Crate item Mangoes — Created · 12\.50admin$/),
      expect.stringMatching(/Created.*System$/),
    ])
  })
})
