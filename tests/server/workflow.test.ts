import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkRegistry, registry } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { catalogues } from '../../server/i18n'
import { addThrowawayLabels, stockTransfer, throwawayEntities, throwawayReports } from '../support/throwaway-registry'
import { describeEachDatabase, callerWith } from './helpers/app'
import { createRow } from './helpers/samples'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'

/**
 * A workflow declared in the registry (issue 18 §1): a stock transfer drafted, confirmed or
 * cancelled. The engine derives a route, a permission and an audit entry per transition,
 * keeps the status read-only to plain writes, locks a confirmed record against updates and
 * deletes (409 naming its status, in the caller's language), refuses a transition its status
 * does not allow (409 naming both), and the start-up check refuses a workflow that cannot work.
 */
const BASE = stockTransfer.api.base
const options = throwawayApp

useThrowawayLabels()


describe('the registry check of a workflow', () => {
  const transfer = (workflow: Parameters<typeof defineEntity>[0]['workflow'], status = f.choice(['draft', 'confirmed', 'cancelled'])) =>
    defineEntity({ name: 'broken_transfer', module: 'test', listKey: 'broken_transfers', route: { area: 'broken-management', list: 'brokens' }, fields: { name: f.text({ required: true, search: true }), status }, workflow } as never)
  const problemsOf = (e: ReturnType<typeof transfer>) => checkRegistry([...throwawayEntities, e]).filter((p) => p.entity === 'broken_transfer' && !p.message.includes('translation')).map((p) => p.message)

  it('passes the throwaway stock transfer', () => {
    const undo = addThrowawayLabels(catalogues)
    try {
      expect(checkRegistry(throwawayEntities, catalogues, throwawayReports)).toEqual([])
    } finally {
      undo()
    }
  })

  it('refuses unknown targets, unreachable states and a status that is not a choice', () => {
    expect(problemsOf(transfer({ field: 'status', initial: 'draft', editableIn: ['draft'], transitions: { confirm: { from: ['draft'], to: 'posted' }, cancel: { from: ['draft'], to: 'cancelled' } } }))).toEqual([
      "transition 'confirm' leads to 'posted' is not one of its choices (draft, confirmed, cancelled)",
      "state 'confirmed' cannot be reached from 'draft' by any transition",
    ])
    expect(problemsOf(transfer({ field: 'status', initial: 'new', editableIn: ['open'], transitions: { confirm: { from: ['draft'], to: 'confirmed' }, cancel: { from: ['confirmed'], to: 'cancelled' } } }))).toEqual([
      "initial state 'new' is not one of its choices (draft, confirmed, cancelled)",
      "editableIn state 'open' is not one of its choices (draft, confirmed, cancelled)",
      "state 'draft' cannot be reached from 'new' by any transition",
      "state 'confirmed' cannot be reached from 'new' by any transition",
      "state 'cancelled' cannot be reached from 'new' by any transition",
    ])
    expect(problemsOf(transfer({ field: 'status', initial: 'draft', editableIn: ['draft'], transitions: {} }, f.text() as never))).toEqual(['a workflow moves a choice field (f.choice) of the entity'])
  })

  it('refuses a transition named like an action, at definition', () => {
    expect(() =>
      defineEntity({
        name: 'clash', module: 'test', listKey: 'clashes', route: { area: 'clash-management', list: 'clashes' },
        fields: { status: f.choice(['a', 'b']) },
        actions: { go: {} },
        workflow: { field: 'status', initial: 'a', editableIn: ['a'], transitions: { go: { from: ['a'], to: 'b' } } },
      }),
    ).toThrow("'go' is both an action and a transition")
  })

  it('derives the status field read-only, starting at the initial state, drawn as a chip with tones', () => {
    const status = stockTransfer.fields.status
    expect(status).toMatchObject({ isReadOnly: true, defaultValue: 'draft', cell: 'status', tones: { draft: 'gray', confirmed: 'blue', cancelled: 'red' } })
    expect(stockTransfer.actions.confirm).toMatchObject({ permission: 'STOCK_TRANSFER_CONFIRM', transition: { field: 'status', from: ['draft'], to: 'confirmed' }, confirmKey: 'action.confirm_question' })
    expect(stockTransfer.actions.cancel!.isAvailable!({ status: 'confirmed' })).toBe(true)
    expect(stockTransfer.actions.cancel!.isAvailable!({ status: 'cancelled' })).toBe(false)
    expect(stockTransfer.filterFields).toContain('status')
  })
})

describeEachDatabase(
  'a workflow on the engine',
  (t) => {
    let places: Array<{ id: number }>
    beforeAll(async () => {
      const country = await createRow(t.current, registry.country, { name: `Transferland ${Math.random()}` })
      places = [
        (await createRow(t.current, registry.city, { name: `From ${Math.random()}`, country: country.id })) as { id: number },
        (await createRow(t.current, registry.city, { name: `To ${Math.random()}`, country: country.id })) as { id: number },
      ]
    })
    const draft = async (note = 'Two gadgets') => {
      const r = await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload: { note, status: 'confirmed', items: [{ gadget: places[0]!.id, quantity: 2 }] } })
      expect(r.status, r.raw).toBe(201)
      return r.body as { id: number; status: string; items: Array<{ id: number; quantity: number }> }
    }

    it('starts a record at the initial state whatever the client sends, and lets it change while editable', async () => {
      const made = await draft()
      expect(made.status).toBe('draft')
      const moved = await t.current.call({ method: 'PATCH', url: `${BASE}/update/${made.id}`, payload: { status: 'cancelled', items: [{ id: made.items[0]!.id, gadget: places[1]!.id, quantity: 3 }] } })
      expect(moved.status, moved.raw).toBe(200)
      expect(moved.body).toMatchObject({ status: 'draft', items: [{ quantity: 3 }] })
    })

    it('moves by its transitions, each audited under its name; a confirmed record refuses edits and deletes with 409 naming its status', async () => {
      const made = await draft()
      const confirmed = await t.current.call({ method: 'POST', url: `${BASE}/confirm/${made.id}` })
      expect(confirmed.status, confirmed.raw).toBe(200)
      expect(confirmed.body.status).toBe('confirmed')
      const audit = await sql<{ action: string; changes: Record<string, unknown> }>`select action, changes from audit_log where entity = 'stock_transfer' and entity_id = ${made.id} order by id`.execute(t.current.db)
      expect(audit.rows.map((a) => a.action)).toEqual(['create', 'confirm'])
      expect(audit.rows[1]!.changes).toMatchObject({ status: ['draft', 'confirmed'] })

      // The review's case: a confirmed transfer took a PATCH of its lines (2 → 99) and offered a delete.
      const patched = await t.current.call({ method: 'PATCH', url: `${BASE}/update/${made.id}`, payload: { items: [{ id: made.items[0]!.id, gadget: places[0]!.id, quantity: 99 }] } })
      expect(patched.status).toBe(409)
      expect(patched.body).toEqual({ detail: 'This Stock transfer is Confirmed: it can no longer be changed or deleted.' })
      const turkish = await t.current.call({ method: 'PATCH', url: `${BASE}/update/${made.id}`, payload: { note: 'x' }, headers: { 'accept-language': 'tr' } })
      expect(turkish.status).toBe(409)
      expect(turkish.body.detail).toContain('Confirmed')
      expect(turkish.body.detail).not.toBe(patched.body.detail)
      const deleted = await t.current.call({ method: 'DELETE', url: `${BASE}/delete/${made.id}` })
      expect(deleted.status).toBe(409)
      const many = await t.current.call({ method: 'DELETE', url: `${BASE}/delete_multiple/`, payload: { ids: [made.id] } })
      expect(many.status).toBe(409)
      const lines = await sql<{ quantity: number }>`select quantity from stock_transfer_line where stock_transfer = ${made.id}`.execute(t.current.db)
      expect(lines.rows).toEqual([{ quantity: 2 }])

      const again = await t.current.call({ method: 'POST', url: `${BASE}/confirm/${made.id}` })
      expect(again.status).toBe(409)
      expect(again.body).toEqual({ detail: '“Confirm” cannot be done to a Stock transfer that is Confirmed.' })
      const cancelled = await t.current.call({ method: 'POST', url: `${BASE}/cancel/${made.id}` })
      expect(cancelled.body.status).toBe('cancelled')
      const late = await t.current.call({ method: 'POST', url: `${BASE}/cancel/${made.id}`, headers: { 'accept-language': 'ar' } })
      expect(late.status).toBe(409)
      expect(late.body.detail).toMatch(/^لا يمكن/)
    })

    it('filters the list by status', async () => {
      const made = await draft('Filtered transfer')
      const drafts = await t.current.call({ method: 'GET', url: `${BASE}/search/?status=draft&q=Filtered` })
      expect(drafts.body.stock_transfers.map((r: { id: number }) => r.id)).toEqual([made.id])
      await t.current.call({ method: 'POST', url: `${BASE}/confirm/${made.id}` })
      expect((await t.current.call({ method: 'GET', url: `${BASE}/search/?status=draft&q=Filtered` })).body.stock_transfers).toEqual([])
    })

    it('needs the transition’s own permission; a plain update permission does not move the status', async () => {
      const made = await draft()
      const clerk = await callerWith(t.current, ['STOCK_TRANSFER_DETAILS', 'STOCK_TRANSFER_UPDATE'])
      const refused = await clerk({ method: 'POST', url: `${BASE}/confirm/${made.id}` })
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual({ detail: "You don't have these permissions [STOCK_TRANSFER_CONFIRM]" })
      const status = await clerk({ method: 'PUT', url: `${BASE}/update/${made.id}`, payload: { status: 'confirmed' } })
      expect(status.status).toBe(200)
      expect(status.body.status).toBe('draft')
      const confirmer = await callerWith(t.current, ['STOCK_TRANSFER_CONFIRM'])
      expect((await confirmer({ method: 'POST', url: `${BASE}/confirm/${made.id}` })).body.status).toBe('confirmed')
    })
  },
  options,
)

/**
 * What a transition sets besides the status (`stamp`: the moment it moved) and a reference kept
 * pointing at the row of a lookup named as the status (`lookup`, the contract's `{id, name}`
 * statuses beside the workflow's own): a parcel drafted (the lookup's `pending`), shipped, then
 * delivered — still editable in each, so a plain update can try to set either itself.
 */
const parcelStage = defineEntity({
  name: 'parcel_stage',
  module: 'test',
  listKey: 'parcel_stages',
  route: { area: 'parcelStage-management', list: 'parcelStages' },
  fields: { name: f.text({ max: 30, required: true, search: true, unique: true }) },
})
const parcel = defineEntity({
  name: 'parcel',
  module: 'test',
  listKey: 'parcels',
  labelField: 'note',
  route: { area: 'parcel-management', list: 'parcels' },
  fields: {
    note: f.text({ max: 100, required: true, search: true, label: 'field.details' }),
    status: f.choice(['draft', 'shipped', 'delivered'], { label: 'field.type' }),
    stage: f.ref('parcel_stage', { readOnly: true, label: 'field.purchase_status' }),
    delivered_at: f.datetime({ readOnly: true, label: 'field.changed_at' }),
  },
  workflow: {
    field: 'status',
    initial: 'draft',
    editableIn: ['draft', 'shipped', 'delivered'],
    lookup: { field: 'stage', names: { draft: 'pending' } },
    transitions: {
      ship: { from: ['draft'], to: 'shipped' },
      deliver: { from: ['shipped'], to: 'delivered', stamp: 'delivered_at' },
    },
  },
})
const parcelLabels = { entity: { parcel: { one: 'Parcel', other: 'Parcels' }, parcel_stage: { one: 'Parcel stage', other: 'Parcel stages' } }, option: { shipped: 'Shipped', delivered: 'Delivered' }, action: { ship: 'Ship', deliver: 'Deliver' } }
beforeAll(() => {
  for (const catalogue of Object.values(catalogues)) for (const [section, values] of Object.entries(parcelLabels)) Object.assign(catalogue[section] as Record<string, unknown>, values)
})
afterAll(() => {
  for (const catalogue of Object.values(catalogues)) for (const [section, values] of Object.entries(parcelLabels)) for (const key of Object.keys(values)) delete (catalogue[section] as Record<string, unknown>)[key]
})

describeEachDatabase(
  'a workflow’s stamp and lookup on the engine',
  (t) => {
    const PARCELS = parcel.api.base
    let stages: Record<string, number>
    beforeAll(async () => {
      // `pending` is the draft's row (through `names`); `draft` is a decoy the mapping must not pick.
      const made = await sql<{ id: number; name: string }>`insert into parcel_stage (name) values ('draft'), ('pending'), ('shipped'), ('delivered') returning id, name`.execute(t.current.db)
      stages = Object.fromEntries(made.rows.map((r) => [r.name, Number(r.id)]))
    })
    const stored = async (id: number) =>
      (await sql<{ status: string; stage: number | null; delivered_at: Date | null }>`select status, stage, delivered_at from parcel where id = ${id}`.execute(t.current.db)).rows[0]!
    const send = async () => {
      const r = await t.current.call({ method: 'POST', url: `${PARCELS}/create/`, payload: { note: 'A box of gadgets', stage: stages.delivered, delivered_at: '2001-01-01T00:00:00Z' } })
      expect(r.status, r.raw).toBe(201)
      return r.body as { id: number; status: string; stage: unknown; delivered_at: string | null }
    }
    const stageOf = (v: unknown) => (v !== null && typeof v === 'object' ? Number((v as { id: number }).id) : v === null ? null : Number(v))

    it('stamps the moment of its transition on a read-only date-time, which no plain write sets or changes', async () => {
      const started = Date.now()
      const made = await send()
      expect(made.delivered_at).toBeNull()
      // Sent on an update before the transition: still nothing.
      const early = await t.current.call({ method: 'PATCH', url: `${PARCELS}/update/${made.id}`, payload: { delivered_at: '2001-01-01T00:00:00Z' } })
      expect(early.status, early.raw).toBe(200)
      expect(early.body.delivered_at).toBeNull()
      const shipped = await t.current.call({ method: 'POST', url: `${PARCELS}/ship/${made.id}` })
      expect(shipped.status, shipped.raw).toBe(200)
      // Only the transition that stamps sets it.
      expect(shipped.body.delivered_at).toBeNull()
      expect((await stored(made.id)).delivered_at).toBeNull()

      const delivered = await t.current.call({ method: 'POST', url: `${PARCELS}/deliver/${made.id}` })
      expect(delivered.status, delivered.raw).toBe(200)
      expect(delivered.body.status).toBe('delivered')
      const at = Date.parse(delivered.body.delivered_at)
      expect(Number.isNaN(at)).toBe(false)
      expect(at).toBeGreaterThanOrEqual(started - 60_000)
      expect(at).toBeLessThanOrEqual(Date.now() + 60_000)
      const stamped = (await stored(made.id)).delivered_at
      expect(stamped).not.toBeNull()
      expect(new Date(stamped!).getTime()).toBe(at)

      // Still editable, but the stamp is the server's: a plain update leaves it as it was.
      const moved = await t.current.call({ method: 'PUT', url: `${PARCELS}/update/${made.id}`, payload: { note: 'Delivered at the door', delivered_at: '2001-01-01T00:00:00Z' } })
      expect(moved.status, moved.raw).toBe(200)
      expect(moved.body.note).toBe('Delivered at the door')
      expect(Date.parse(moved.body.delivered_at)).toBe(at)
      expect(new Date((await stored(made.id)).delivered_at!).getTime()).toBe(at)
    })

    it('points the lookup at the row named as the status: as created (through `names`), and at every transition', async () => {
      const made = await send()
      // The client's `stage` is ignored: the draft's row is the lookup's `pending`, not its `draft`.
      expect(stageOf(made.stage)).toBe(stages.pending)
      expect((await stored(made.id)).stage).toBe(stages.pending)
      // A plain update cannot move it.
      const update = await t.current.call({ method: 'PATCH', url: `${PARCELS}/update/${made.id}`, payload: { stage: stages.delivered } })
      expect(update.status, update.raw).toBe(200)
      expect((await stored(made.id)).stage).toBe(stages.pending)

      const shipped = await t.current.call({ method: 'POST', url: `${PARCELS}/ship/${made.id}` })
      expect(shipped.status, shipped.raw).toBe(200)
      expect(stageOf(shipped.body.stage)).toBe(stages.shipped)
      expect(await stored(made.id)).toMatchObject({ status: 'shipped', stage: stages.shipped })
      const delivered = await t.current.call({ method: 'POST', url: `${PARCELS}/deliver/${made.id}` })
      expect(stageOf(delivered.body.stage)).toBe(stages.delivered)
      expect(await stored(made.id)).toMatchObject({ status: 'delivered', stage: stages.delivered })
      const read = await t.current.call({ method: 'GET', url: `${PARCELS}/${made.id}` })
      expect(stageOf(read.body.stage)).toBe(stages.delivered)
    })
  },
  { ...options, entities: [...throwawayEntities, parcelStage, parcel] },
)
