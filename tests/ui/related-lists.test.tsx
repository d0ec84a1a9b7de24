import { screen, waitFor, within } from '@testing-library/react'
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
 * A related list a page at a time, each row opening its form, and "New …" (issue 25): the
 * other entity's form with the reference filled in from the address (`?crate=4&from=crate`),
 * judged against the registry, which comes back to the record after the save.
 */
describe('paging a related list and starting a related row', () => {
  const noHistory = [
    http.get(api(`${crate.api.base}/history/:id`), () => HttpResponse.json({ history: [] })),
    // The crate picker's options.
    http.get(api(`${crate.api.base}/all/`), () => HttpResponse.json(envelope('crates', [stored]))),
  ]
  beforeEach(() => {
    i18n.addResourceBundle('en', 'translation', { field: { crate: 'Crate' } }, true, true)
  })
  const itemsByPage: Record<string, ReturnType<typeof item>[]> = {
    '1': [item(9, 'Mangoes', 12), item(8, 'Limes', 3)],
    '2': [item(7, 'Figs', 4), item(6, 'Dates', 9)],
    '3': [item(5, 'Plums', 1)],
  }

  it('pages with Previous and Next, saying which rows of how many, each row a link to its form', async () => {
    storeSessionOf(adminUser)
    const pages: string[] = []
    server.use(
      ...noHistory,
      http.get(api(`${crate.api.base}/4`), () => HttpResponse.json(stored)),
      http.get(api(`${crateItem.api.base}/search/`), ({ request }) => {
        const page = new URL(request.url).searchParams.get('page') ?? '1'
        pages.push(page)
        return HttpResponse.json(envelope('crate_items', itemsByPage[page] ?? [], Number(page), 2, 5))
      }),
    )
    const { user } = await renderApp(`${crate.ui.formPath}/4`, { entities: registered })
    const panel = await screen.findByRole('region', { name: 'Crate items' })
    await within(panel).findByText('1–2 of 5')
    const previous = within(panel).getByRole('button', { name: 'Previous page' })
    const next = within(panel).getByRole('button', { name: 'Next page' })
    expect(previous).toBeDisabled()
    await user.click(next)
    await within(panel).findByText('3–4 of 5')
    expect(within(panel).getByRole('link', { name: 'Figs' })).toHaveAttribute('href', `${crateItem.ui.formPath}/7`)
    expect(within(panel).getByRole('link', { name: 'Dates' })).toHaveAttribute('href', `${crateItem.ui.formPath}/6`)
    await user.click(next)
    await within(panel).findByText('5–5 of 5')
    expect(within(panel).getAllByRole('row').map((r) => r.textContent)).toEqual(['NameQuantity', 'Plums1'])
    expect(next).toBeDisabled()
    await user.click(previous)
    await within(panel).findByText('3–4 of 5')
    expect(pages.slice(0, 3)).toEqual(['1', '2', '3'])
    // The whole list, filtered by the record, is a link away.
    expect(within(panel).getByRole('link', { name: 'See all (5)' })).toHaveAttribute('href', `${crateItem.ui.listPath}?crate=4`)
  })

  it('starts a new row with the record filled in, and comes back to the record after the save', async () => {
    storeSessionOf(adminUser)
    let created: Record<string, unknown> | undefined
    server.use(
      ...noHistory,
      http.get(api(`${crate.api.base}/4`), () => HttpResponse.json(stored)),
      http.get(api(`${crateItem.api.base}/search/`), () => HttpResponse.json(envelope('crate_items', created ? [item(10, 'Pears', 6)] : [], 1, 2, created ? 1 : 0))),
      http.post(api(`${crateItem.api.base}/create/`), async ({ request }) => {
        created = (await request.json()) as Record<string, unknown>
        return HttpResponse.json({ ...item(10, 'Pears', 6), crate: 4 }, { status: 201 })
      }),
    )
    const { user, router } = await renderApp(`${crate.ui.formPath}/4`, { entities: registered })
    const panel = await screen.findByRole('region', { name: 'Crate items' })
    await within(panel).findByText('None yet.')
    const start = within(panel).getByRole('link', { name: 'New Crate item' })
    expect(start).toHaveAttribute('href', `${crateItem.ui.formPath}/new?crate=4&from=crate`)
    await user.click(start)
    await screen.findByRole('heading', { name: 'New Crate item' })
    // The crate is chosen already, by its name.
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Crate/ })).toHaveValue('Blue crate'))
    // Cancel goes back to the record, not to the items' list.
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', `${crate.ui.formPath}/4`)
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Pears')
    await user.type(screen.getByLabelText(/^Quantity/), '6')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(`${crate.ui.formPath}/4`))
    expect(created).toMatchObject({ name: 'Pears', crate: 4, quantity: 6 })
    // Back on the record, its list has the new row.
    const again = await screen.findByRole('region', { name: 'Crate items' })
    expect(await within(again).findByRole('link', { name: 'Pears' })).toHaveAttribute('href', `${crateItem.ui.formPath}/10`)
  })

  it('fills in only a reference of the form, with an id, and returns only to the record that reference names', async () => {
    storeSessionOf(adminUser)
    server.use(...noHistory, http.get(api(`${crate.api.base}/4`), () => HttpResponse.json(stored)))
    const { prefillOf } = await import('../../src/engine/form/prefill')
    expect(prefillOf(crateItem, { crate: 4, from: 'crate' }, registered)).toEqual({ initialValues: { crate: 4 }, returnTo: `${crate.ui.formPath}/4` })
    expect(prefillOf(crateItem, { crate: '4' }, registered)).toEqual({ initialValues: { crate: 4 } })
    // Not a reference, not an id, not an entity the reference points at: nothing taken.
    expect(prefillOf(crateItem, { name: 4, quantity: 3, crate: '4; drop', from: 'crate' }, registered)).toEqual({})
    expect(prefillOf(crateItem, { crate: 0 }, registered)).toEqual({})
    expect(prefillOf(crateItem, { crate: 4, from: 'country' }, registered)).toEqual({ initialValues: { crate: 4 } })
    expect(prefillOf(crateItem, { crate: 4, from: 'https://elsewhere.example' }, registered)).toEqual({ initialValues: { crate: 4 } })
    // On the screen: a stray parameter leaves the form as it starts.
    await renderApp(`${crateItem.ui.formPath}/new?quantity=7&crate=x`, { entities: registered })
    await screen.findByRole('heading', { name: 'New Crate item' })
    expect(screen.getByRole('combobox', { name: /^Crate/ })).toHaveValue('')
    expect(screen.getByLabelText(/^Quantity/)).toHaveDisplayValue('')
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', crateItem.ui.listPath)
  })

  it('offers no "New …" to a user who may not create the related rows', async () => {
    const reader: ServerUser = { ...adminUser, id: 12, is_admin: false, role: 'READER', permissions: ['CRATE_LIST', 'CRATE_DETAILS', 'CRATE_ITEM_LIST', 'CRATE_ITEM_DETAILS'] }
    storeSessionOf(reader)
    server.use(
      accessTokenAnswers(reader),
      ...noHistory,
      http.get(api(`${crate.api.base}/4`), () => HttpResponse.json(stored)),
      http.get(api(`${crateItem.api.base}/search/`), () => HttpResponse.json(envelope('crate_items', itemsByPage['1']!, 1, 2, 5))),
    )
    await renderApp(`${crate.ui.formPath}/4`, { entities: registered })
    const panel = await screen.findByRole('region', { name: 'Crate items' })
    await within(panel).findByRole('link', { name: 'Mangoes' })
    expect(within(panel).queryByRole('link', { name: 'New Crate item' })).toBeNull()
  })
})

/**
 * A record's history under its form (the registry's `history`, issue 22; its History tab since
 * issue 25): its own moves with what they were given, and its related rows', from the
 * server's `history/{id}`.
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
    const { user } = await renderApp(`${shipment.ui.formPath}/4`, { entities: [...registered, shipment] })
    // The form's History tab (issue 25).
    await user.click(await screen.findByRole('tab', { name: 'History' }))
    const panel = await screen.findByRole('region', { name: 'History' })
    const entries = await within(panel).findAllByRole('listitem')
    expect(entries.map((e) => e.textContent)).toEqual([
      expect.stringMatching(/^sadiaSend.*Note: By van.*Draft.*Sent$/),
      expect.stringMatching(/^adminCrate item Mangoes — Created.*12\.50$/),
      expect.stringMatching(/^SystemCreated/),
    ])
    expect(within(entries[1]!).getByRole('link', { name: 'Mangoes' })).toHaveAttribute('href', `${crateItem.ui.formPath}/9`)
  })
})
