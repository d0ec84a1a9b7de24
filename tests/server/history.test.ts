import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registry, reports as registeredReports } from '../../schema'
import { defineEntity, f, type Entity, type Fields } from '../../schema/kit'
import { inAuditBatch } from '../../server/engine/audit-scope'
import { MASKED, writeAudit } from '../../server/engine/audit'
import { historyPaging, type HistoryEntry } from '../../server/engine/history'
import { entitiesNamed } from '../../server/domain/workspace/change-log'
import { catalogues } from '../../server/i18n'
import { deliveryNote, gadgetOrder, throwawayEntities, throwawayReports } from '../support/throwaway-registry'
import { callerWith, describeEachDatabase, type TestApp } from './helpers/app'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'
import { createRow } from './helpers/samples'

/**
 * A record's history and the change log (issue 25): every entity with a form has its
 * history — field-level changes with who, when, from which screen or route and which bulk
 * operation, its document's lines and its related rows' — paged, a secret never shown, a
 * reference by its name; and the admin-wide change log filters the audit log by who, the kind
 * of record (by its screen's name), the action and the period. Proven on entities defined
 * here at run time — one without the `history` option, one with it turned off — and on the
 * throwaway registry's document with lines and document kept one row per line.
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
  nav: false,
})

const scratch = defineEntity({
  name: 'scratch_pad',
  module: 'test',
  listKey: 'scratch_pads',
  route: { area: 'scratchPad-management', list: 'scratchPads' },
  fields: { name: f.text({ max: 50, required: true, search: true }) },
  history: false,
  nav: false,
})

const entities = [...throwawayEntities, locker, scratch] as readonly Entity<string, Fields>[]
const changeLog = registeredReports.find((r) => r.name === 'change_log')!
const LOCKERS = locker.api.base
const ORDERS = gadgetOrder.api.base
const NOTES = deliveryNote.api.base

function useLockerLabels(): void {
  const undo: Array<() => void> = []
  beforeAll(() => {
    const names = { en: ['Locker', 'Lockers'], tr: ['Dolap', 'Dolaplar'], ar: ['خزانة', 'خزائن'] } as const
    for (const lang of Object.keys(catalogues) as Array<keyof typeof catalogues>) {
      const entity = (catalogues[lang] as unknown as Record<string, Record<string, unknown>>).entity!
      const had = { locker: entity.locker, scratch: entity.scratch_pad }
      entity.locker = { one: names[lang][0], other: names[lang][1] }
      entity.scratch_pad = { one: 'Scratch pad', other: 'Scratch pads' }
      undo.push(() => {
        entity.locker = had.locker
        entity.scratch_pad = had.scratch
      })
    }
  })
  afterAll(() => undo.forEach((u) => u()))
}

useThrowawayLabels()
useLockerLabels()

describe('the paging of a history', () => {
  it('takes a size from 1 to 200 and an entry id to start before; anything else is a field error', () => {
    expect(historyPaging({})).toEqual({ before: null, size: 50 })
    expect(historyPaging({ size: '2', before: '17' })).toEqual({ before: 17, size: 2 })
    const fieldsOf = (query: Record<string, unknown>) => {
      try {
        historyPaging(query)
      } catch (e) {
        return Object.keys((e as { fields: object }).fields)
      }
      return []
    }
    expect(fieldsOf({ size: '0' })).toEqual(['size'])
    expect(fieldsOf({ size: '201' })).toEqual(['size'])
    expect(fieldsOf({ size: 'x', before: '-1' })).toEqual(['size', 'before'])
    expect(fieldsOf({ before: '1'.repeat(16) })).toEqual(['before'])
  })
})

type Body = { history: HistoryEntry[]; next: number | null }

describeEachDatabase(
  'record history',
  (t) => {
    const historyOf = async (base: string, id: number, query = '', as?: (o: Parameters<TestApp['call']>[0]) => ReturnType<TestApp['call']>) => {
      const res = await (as ?? t.current.call)({ method: 'GET', url: `${base}/history/${id}${query}` })
      expect(res.status, res.raw).toBe(200)
      return res.body as Body
    }
    let districts: { id: number; name: string }[] = []
    beforeAll(async () => {
      const country = await createRow(t.current, registry.country, { name: `Historyland ${t.current.kind}` })
      districts = []
      for (const name of ['Alpha', 'Beta', 'Gamma']) districts.push((await createRow(t.current, registry.city, { name, country: country.id })) as { id: number; name: string })
    })

    describe('on an entity that does not ask for it', () => {
      it('is there by default, and absent where the registry turns it off', async () => {
        expect(locker.hasHistory).toBe(true)
        expect(scratch.hasHistory).toBe(false)
        const pad = await t.current.call({ method: 'POST', url: `${scratch.api.base}/create/`, payload: { name: 'Pad' } })
        expect(pad.status, pad.raw).toBe(201)
        expect((await t.current.call({ method: 'GET', url: `${scratch.api.base}/history/${pad.body.id}` })).status).toBe(404)
      })

      it('tells who changed which field, old → new, from which screen or route, a reference by its name', async () => {
        const made = await t.current.call({
          method: 'POST',
          url: `${LOCKERS}/create/`,
          payload: { name: 'Left', district: districts[0]!.id, notes: 'First' },
          headers: { 'x-screen': `${locker.ui.formPath}/new` },
        })
        expect(made.status, made.raw).toBe(201)
        const id = made.body.id as number
        // No screen named: the route is the source.
        const changed = await t.current.call({ method: 'PUT', url: `${LOCKERS}/update/${id}`, payload: { name: 'Right', district: districts[1]!.id, notes: 'First' } })
        expect(changed.status, changed.raw).toBe(200)
        const { history, next } = await historyOf(LOCKERS, id)
        expect(next).toBeNull()
        expect(history.map((h) => [h.action, h.actor, h.source])).toEqual([
          ['update', 'admin', 'PUT /locker/api/v1/locker/update/:id'],
          ['create', 'admin', `${locker.ui.formPath}/new`],
        ])
        const [update, create] = history
        expect(update!.changes).toEqual({ name: ['Left', 'Right'], district: [districts[0]!.id, districts[1]!.id] })
        expect(update!.labels).toEqual({ district: ['Alpha', 'Beta'] })
        expect(update).toMatchObject({ entity: 'locker', entity_id: id, actor_id: t.current.adminId, batch: null, line: null, masked: [] })
        expect(create!.changes).toMatchObject({ name: [null, 'Left'], district: [null, districts[0]!.id], notes: [null, 'First'] })
        expect(create!.labels.district).toEqual([null, 'Alpha'])
      })

      it('records the screen over real HTTP too, and the route when the screen named is not a path of the app', async () => {
        const app = t.current.app
        await app.listen({ port: 0, host: '127.0.0.1' })
        try {
          const port = (app.server.address() as { port: number }).port
          const send = async (name: string, screen?: string) => {
            const headers: Record<string, string> = { authorization: `Bearer ${await t.current.token()}`, 'content-type': 'application/json' }
            if (screen !== undefined) headers['x-screen'] = screen
            // A body large enough to come in several chunks: the write still runs in its request's scope.
            const res = await fetch(`http://127.0.0.1:${port}${LOCKERS}/create/`, { method: 'POST', headers, body: JSON.stringify({ name, notes: 'n'.repeat(1999) }) })
            expect(res.status).toBe(201)
            return ((await res.json()) as { id: number }).id
          }
          const viaScreen = await send('Over HTTP', `${locker.ui.listPath}`)
          const badScreen = await send('Bad screen', 'javascript:alert(1)')
          const tooLong = await send('Long screen', `/${'a'.repeat(400)}`)
          const source = async (id: number) => (await historyOf(LOCKERS, id)).history[0]!.source
          expect(await source(viaScreen)).toBe(locker.ui.listPath)
          expect(await source(badScreen)).toBe('POST /locker/api/v1/locker/create/')
          expect(await source(tooLong)).toBe('POST /locker/api/v1/locker/create/')
        } finally {
          await app.server.close()
        }
      })

      it('says a secret changed and never what it is', async () => {
        const made = await t.current.call({ method: 'POST', url: `${LOCKERS}/create/`, payload: { name: 'Safe', pin: 'open-sesame-1' } })
        expect(made.status, made.raw).toBe(201)
        const id = made.body.id as number
        expect((await t.current.call({ method: 'PATCH', url: `${LOCKERS}/update/${id}`, payload: { pin: 'open-sesame-2' } })).status).toBe(200)
        const res = await t.current.call({ method: 'GET', url: `${LOCKERS}/history/${id}` })
        expect(res.raw).not.toContain('open-sesame')
        const [update, create] = (res.body as Body).history
        expect(update!.changes).toEqual({ pin: [MASKED, MASKED] })
        expect(update!.masked).toEqual(['pin'])
        expect(create!.changes.pin).toEqual([null, MASKED])
        expect(create!.masked).toEqual(['pin'])
        // Even a value the log holds unmasked for a field that is a secret now is answered masked.
        await writeAudit(t.current.db, { actor: null, entity: 'locker', entityId: id, action: 'update', changes: { pin: ['plain-old', 'plain-new'] } })
        const again = await t.current.call({ method: 'GET', url: `${LOCKERS}/history/${id}` })
        expect(again.raw).not.toContain('plain-')
        expect(again.body.history[0]).toMatchObject({ actor: null, actor_id: null, source: null, changes: { pin: [MASKED, MASKED] }, masked: ['pin'] })
      })

      it('names the bulk operation an entry belongs to', async () => {
        const made = await t.current.call({ method: 'POST', url: `${LOCKERS}/create/`, payload: { name: 'Batched' } })
        const batch = crypto.randomUUID()
        await inAuditBatch(batch, () => writeAudit(t.current.db, { actor: { id: t.current.adminId }, entity: 'locker', entityId: made.body.id, action: 'update', changes: { name: ['Batched', 'Bulk'] } }))
        const { history } = await historyOf(LOCKERS, made.body.id)
        expect(history.map((h) => h.batch)).toEqual([batch, null])
      })

      it('comes a page at a time, newest first, with where the next page starts', async () => {
        const made = await t.current.call({ method: 'POST', url: `${LOCKERS}/create/`, payload: { name: 'P0' } })
        const id = made.body.id as number
        for (let i = 1; i <= 4; i++) expect((await t.current.call({ method: 'PATCH', url: `${LOCKERS}/update/${id}`, payload: { name: `P${i}` } })).status).toBe(200)
        const first = await historyOf(LOCKERS, id, '?size=2')
        expect(first.history.map((h) => h.changes.name![1])).toEqual(['P4', 'P3'])
        expect(first.next).toBe(first.history[1]!.id)
        const second = await historyOf(LOCKERS, id, `?size=2&before=${first.next}`)
        expect(second.history.map((h) => h.changes.name![1])).toEqual(['P2', 'P1'])
        const last = await historyOf(LOCKERS, id, `?size=2&before=${second.next}`)
        expect(last.history.map((h) => h.changes.name![1])).toEqual(['P0'])
        expect(last.next).toBeNull()
        const bad = await t.current.call({ method: 'GET', url: `${LOCKERS}/history/${id}?size=500&before=x`, headers: { 'accept-language': 'tr' } })
        expect(bad.status).toBe(400)
        expect(Object.keys(bad.body).sort()).toEqual(['before', 'size'])
      })

      it('answers 401 without a token, 403 without DETAILS, 404 for a record that is not there or not the caller’s to read', async () => {
        const made = await t.current.call({ method: 'POST', url: `${LOCKERS}/create/`, payload: { name: 'Guarded' } })
        expect((await t.current.call({ method: 'GET', url: `${LOCKERS}/history/${made.body.id}`, asAnonymous: true })).status).toBe(401)
        const lister = await callerWith(t.current, ['LOCKER_LIST'])
        expect((await lister({ method: 'GET', url: `${LOCKERS}/history/${made.body.id}` })).status).toBe(403)
        const reader = await callerWith(t.current, ['LOCKER_DETAILS'])
        expect((await reader({ method: 'GET', url: `${LOCKERS}/history/${made.body.id}` })).status).toBe(200)
        expect((await t.current.call({ method: 'GET', url: `${LOCKERS}/history/99999999` })).status).toBe(404)
        expect((await t.current.call({ method: 'GET', url: `${LOCKERS}/history/abc` })).status).toBe(404)
        // A memo outside a non-admin's scope (they did not write it): as its read, not found.
        const memo = await t.current.call({ method: 'POST', url: '/memo/api/v1/memo/create/', payload: { name: 'Not theirs' } })
        const memoReader = await callerWith(t.current, ['MEMO_DETAILS'])
        expect((await memoReader({ method: 'GET', url: `/memo/api/v1/memo/history/${memo.body.id}` })).status).toBe(404)
      })
    })

    describe('of a document with lines', () => {
      it('includes each line’s changes, named by its place and its name, a removed line and a moved one too', async () => {
        const [alpha, beta, gamma] = districts
        const made = await t.current.call({
          method: 'POST',
          url: `${ORDERS}/create/`,
          payload: { order_date: '2026-03-01', items: [{ gadget: alpha!.id, quantity: 1, unit_price: '2.00' }, { gadget: beta!.id, quantity: 3, unit_price: '1.00' }] },
          headers: { 'x-screen': `${gadgetOrder.ui.formPath}/new` },
        })
        expect(made.status, made.raw).toBe(201)
        const id = made.body.id as number
        const [first, second] = made.body.items as Array<{ id: number }>
        // Line 2's quantity 3 → 5 and it moves up; line 1 goes; a line for Gamma is added.
        const changed = await t.current.call({
          method: 'PUT',
          url: `${ORDERS}/update/${id}`,
          payload: { order_date: '2026-03-01', items: [{ id: second!.id, gadget: beta!.id, quantity: 5, unit_price: '1.00' }, { gadget: gamma!.id, quantity: 2, unit_price: '4.00' }] },
          headers: { 'x-screen': `${gadgetOrder.ui.formPath}/${id}` },
        })
        expect(changed.status, changed.raw).toBe(200)
        const { history } = await historyOf(ORDERS, id)
        const said = history.map((h) => [h.entity, h.action, h.line && [h.line.field, h.line.position, h.line.label, h.line.from ?? null]])
        expect(said).toEqual([
          ['gadget_order', 'update', null],
          ['gadget_order_line', 'create', ['items', 2, 'Gamma', null]],
          ['gadget_order_line', 'update', ['items', 1, 'Beta', 2]],
          ['gadget_order_line', 'delete', ['items', 1, 'Alpha', null]],
          ['gadget_order', 'create', null],
          ['gadget_order_line', 'create', ['items', 2, 'Beta', null]],
          ['gadget_order_line', 'create', ['items', 1, 'Alpha', null]],
        ])
        expect(history.map((h) => h.part)).toEqual(['own', 'line', 'line', 'line', 'own', 'line', 'line'])
        const moved = history.find((h) => h.entity_id === second!.id && h.action === 'update')!
        expect(moved.changes).toMatchObject({ quantity: [3, 5] })
        expect(moved.changes.position).toBeUndefined()
        expect(moved.label).toBe('Beta')
        expect(history.find((h) => h.entity_id === first!.id && h.action === 'delete')!.labels.gadget).toEqual(['Alpha', null])
        // Every entry of one save names the screen it was made on.
        expect(new Set(history.slice(0, 4).map((h) => h.source))).toEqual(new Set([`${gadgetOrder.ui.formPath}/${id}`]))
        // Another order's lines are not this one's.
        const other = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { order_date: '2026-03-02', items: [{ gadget: alpha!.id, quantity: 1, unit_price: '1.00' }] } })
        expect((await historyOf(ORDERS, other.body.id)).history.map((h) => h.entity)).toEqual(['gadget_order', 'gadget_order_line'])
        expect((await historyOf(ORDERS, id)).history).toHaveLength(history.length)
      })

      it('of a document kept one row per line: each row is a line, a removed one and those of its earlier number included', async () => {
        const [north, south, east] = districts
        const made = await t.current.call({ method: 'POST', url: `${NOTES}/create/`, payload: { note_date: '2026-05-04', depot: north!.id, items: [{ gadget: south!.id, quantity: 2 }, { gadget: east!.id, quantity: 3 }] } })
        expect(made.status, made.raw).toBe(201)
        const [first, second] = made.body.items as Array<{ id: number }>
        const changed = await t.current.call({ method: 'PUT', url: `${NOTES}/update/${second!.id}`, payload: { items: [{ id: second!.id, gadget: east!.id, quantity: 5 }] } })
        expect(changed.status, changed.raw).toBe(200)
        // Moved to another day: the note takes that day's number; its history follows.
        const moved = await t.current.call({ method: 'PATCH', url: `${NOTES}/update/${second!.id}`, payload: { note_date: '2026-05-06' } })
        expect(moved.status, moved.raw).toBe(200)
        expect(moved.body.number).not.toBe(made.body.number)
        const { history } = await historyOf(NOTES, second!.id)
        expect(history.map((h) => [h.action, h.entity_id, h.line?.position ?? null, h.line?.label ?? null])).toEqual([
          ['update', second!.id, 1, 'Gamma'],
          ['update', second!.id, 1, 'Gamma'],
          ['delete', first!.id, null, 'Beta'],
          ['create', second!.id, 1, 'Gamma'],
          ['create', first!.id, null, 'Beta'],
        ])
        expect(history[0]!.changes).toMatchObject({ note_date: ['2026-05-04', '2026-05-06'] })
        expect(history[1]!.changes).toEqual({ quantity: [3, 5] })
        expect(history[0]!.labels).toEqual({})
        expect(history[3]!.labels).toMatchObject({ depot: [null, 'Alpha'], gadget: [null, 'Gamma'] })
      })
    })

    describe('the change log', () => {
      const log = async (query: string, as?: (o: Parameters<TestApp['call']>[0]) => ReturnType<TestApp['call']>) => {
        const res = await (as ?? t.current.call)({ method: 'GET', url: `${changeLog.api.base}/?size=100&${query}` })
        expect(res.status, res.raw).toBe(200)
        return res.body as { rows: Array<Record<string, unknown>>; hidden: Array<Record<string, unknown>>; total_elements: number }
      }

      it('filters by who, the kind of record by its name or its screen’s in any language, the action and the period', async () => {
        const clerk = await callerWith(t.current, ['LOCKER_CREATE', 'LOCKER_UPDATE', 'LOCKER_DETAILS', 'LOCKER_LIST', 'CHANGE_LOG_VIEW'])
        const made = await clerk({ method: 'POST', url: `${LOCKERS}/create/`, payload: { name: 'Clerk’s', pin: 'never-shown' }, headers: { 'x-screen': locker.ui.listPath } })
        expect(made.status, made.raw).toBe(201)
        expect((await clerk({ method: 'PATCH', url: `${LOCKERS}/update/${made.body.id}`, payload: { name: 'Clerk’s own' } })).status).toBe(200)
        const mine = await log(`actor=${clerk.id}`)
        expect(mine.rows.map((r) => [r.record, r.record_id, r.action])).toEqual([
          ['locker', made.body.id, 'update'],
          ['locker', made.body.id, 'create'],
        ])
        expect(mine.rows[0]).toMatchObject({ fields: 'name', changes: 'name: Clerk’s → Clerk’s own', source: 'PATCH /locker/api/v1/locker/update/:id' })
        expect(mine.rows[1]!.changes).toContain(`pin: — → ${MASKED}`)
        expect(JSON.stringify(mine)).not.toContain('never-shown')
        expect(mine.rows[1]!.source).toBe(locker.ui.listPath)
        // Each entry leads to its record's form.
        expect(mine.hidden[0]).toEqual({ form_entity: 'locker', form_id: made.body.id })
        expect((await log(`actor=${clerk.id}&action=create`)).rows.map((r) => r.action)).toEqual(['create'])
        expect((await log(`actor=${clerk.id}&action=other_action`)).rows).toEqual([])
        for (const name of ['locker', 'Lockers', 'dolaplar', 'خزائن']) expect((await log(`actor=${clerk.id}&record=${encodeURIComponent(name)}`)).total_elements, name).toBe(2)
        expect((await log(`actor=${clerk.id}&record=Districts`)).total_elements).toBe(0)
        const today = new Date().toISOString().slice(0, 10)
        expect((await log(`actor=${clerk.id}&date_after=${today}&date_before=${today}`)).total_elements).toBe(2)
        expect((await log(`actor=${clerk.id}&date_before=2020-01-01`)).total_elements).toBe(0)
        expect((await t.current.call({ method: 'GET', url: `${changeLog.api.base}/?action=rename` })).status).toBe(400)
      })

      it('names the actions beyond create, update and delete together, and leads a line’s entry to its document', async () => {
        const order = await t.current.call({ method: 'POST', url: `${ORDERS}/create/`, payload: { order_date: '2026-03-03', items: [{ gadget: districts[0]!.id, quantity: 1, unit_price: '1.00' }] } })
        expect((await t.current.call({ method: 'POST', url: `${ORDERS}/confirm/${order.body.id}` })).status).toBe(200)
        const others = await log('record=gadget_order&action=other_action')
        expect(others.rows.map((r) => [r.record, r.action])).toContainEqual(['gadget_order', 'confirm'])
        expect(others.rows.every((r) => !['create', 'update', 'delete'].includes(String(r.action)))).toBe(true)
        const lineId = order.body.items[0].id as number
        const lines = await log('record=gadget_order_line&action=create')
        const i = lines.rows.findIndex((r) => r.record_id === lineId)
        expect(lines.hidden[i]).toEqual({ form_entity: 'gadget_order', form_id: order.body.id })
      })

      it('shows a caller only the kinds of record they may list', async () => {
        const made = await t.current.call({ method: 'POST', url: `${LOCKERS}/create/`, payload: { name: 'Admin’s' } })
        const reader = await callerWith(t.current, ['CHANGE_LOG_VIEW', 'MEMO_LIST'])
        expect((await log(`record=locker`, reader)).total_elements).toBe(0)
        const lockerReader = await callerWith(t.current, ['CHANGE_LOG_VIEW', 'LOCKER_LIST'])
        expect((await log(`record=locker`, lockerReader)).rows.map((r) => r.record_id)).toContain(made.body.id)
        expect((await log(`record=city`, lockerReader)).total_elements).toBe(0)
      })

      it('knows the kinds of record by their names in every language', () => {
        expect(entitiesNamed(entities, 'Dolap')).toEqual(['locker'])
        expect(entitiesNamed(entities, 'ilçe')).toContain('city')
      })
    })

    describe('audit rows written outside a request', () => {
      it('name no source', async () => {
        const before = Number((await sql<{ id: string }>`select coalesce(max(id), 0) as id from audit_log`.execute(t.current.db)).rows[0]!.id)
        await writeAudit(t.current.db, { actor: null, entity: 'locker', entityId: 1, action: 'update', changes: {} })
        const row = await sql<{ source: string | null; batch: string | null }>`select source, batch from audit_log where id > ${before}`.execute(t.current.db)
        expect(row.rows).toEqual([{ source: null, batch: null }])
      })
    })
  },
  { ...throwawayApp, entities, reports: [...throwawayReports, changeLog] },
)
