import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { checkRegistry, entities, registry } from '../../schema'
import { defineEntity, documentOf, f } from '../../schema/kit'
import { catalogues } from '../../server/i18n'
import { addThrowawayLabels, deliveryNote, throwawayEntities, throwawayReports } from '../support/throwaway-registry'
import { describeEachDatabase } from './helpers/app'
import { createRow } from './helpers/samples'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'

/**
 * A document kept one row per line (issue 18 §3: what the contract's vouchers are), defined at
 * run time: a delivery note of gadgets. The engine judges it as a document (its header, its
 * lines, the rules over them — one of them reading a fact of the referenced rows), numbers
 * it, writes a row per line holding the header (each row audited), reads and changes it by
 * any of its rows' ids, lists it a row per document with the values over its rows, and
 * deletes it whole — all or nothing.
 */
const BASE = deliveryNote.api.base
const options = throwawayApp

useThrowawayLabels()

describe('a document kept one row per line, in the registry', () => {
  it('is judged as a header and its lines, under the entity’s own names', () => {
    const shape = documentOf(deliveryNote)
    expect(shape.fieldNames).toEqual(['note_date', 'depot', 'remark', 'number', 'items'])
    expect(shape.fields.items!.lines!.entity.fieldNames).toEqual(['gadget', 'quantity'])
    expect(shape.fields.items!.lines!.min).toBe(1)
    expect(shape.api.base).toBe(deliveryNote.api.base)
  })

  it('passes the registry check, and the check names what cannot work', () => {
    const undo = addThrowawayLabels(catalogues)
    try {
      expect(checkRegistry(throwawayEntities, catalogues, throwawayReports)).toEqual([])
    } finally {
      undo()
    }
    const broken = defineEntity({
      name: 'broken_note', module: 'test', listKey: 'broken_notes', route: { area: 'brokenNote-management', list: 'brokenNotes' },
      fields: { name: f.text({ required: true, search: true }), no: f.text(), qty: f.integer(), total: f.integer(), state: f.choice(['open', 'shut']) },
      rowsPerLine: { key: 'no', lines: 'name', lineFields: ['qty', 'missing' as never], sums: { total: 'name' as never } },
      workflow: { field: 'state', initial: 'open', editableIn: ['open'], transitions: { shut: { from: ['open'], to: 'shut' } } },
    })
    expect(checkRegistry([...entities, broken]).filter((p) => p.entity === 'broken_note' && !p.message.includes('translation')).map((p) => p.message)).toEqual([
      "rowsPerLine.key must be a read-only text field: the document's number, which the server gives",
      "rowsPerLine.key 'no' needs its numbering (numbering: { field: 'no', … })",
      "rowsPerLine.lines 'name' names the document's lines; a field of that name would hide them",
      "rowsPerLine.lineFields names 'missing', which is not a stored field a client writes",
      'a document kept one row per line has no actions or workflow yet: they would act on one of its rows, not the document',
      "rowsPerLine.sums 'total' must be a virtual field of the entity (its list value)",
      "rowsPerLine.sums 'total' adds up 'name', which is not a number field",
    ])
  })
})

describeEachDatabase(
  'documents kept one row per line',
  (t) => {
    const place: Record<string, number> = {}
    beforeAll(async () => {
      const country = await createRow(t.current, registry.country, { name: `Noteland ${Math.random()}` })
      for (const name of ['Hub', 'Fragile Glass', 'North', 'South']) {
        place[name] = Number((await createRow(t.current, registry.city, { name: `${name}`, country: country.id })).id)
      }
    })
    const rowsOf = async (number: string) =>
      (await sql<{ id: number; gadget: number; quantity: number; remark: string | null; depot: number }>`select id, gadget, quantity, remark, depot from delivery_note where number = ${number} order by id`.execute(t.current.db)).rows
    const auditOf = async (ids: number[]) =>
      (await sql<{ action: string; n: number }>`select action, count(*)::int as n from audit_log where entity = 'delivery_note' and entity_id = any(${ids}::bigint[]) group by action order by action`.execute(t.current.db)).rows
    const note = (items: Array<[string, number]>, extra: Record<string, unknown> = {}) => ({ note_date: '2026-05-04', depot: place.North, remark: 'Morning run', items: items.map(([g, quantity]) => ({ gadget: place[g], quantity })), ...extra })

    it('writes a document as a row per line holding its header, numbered, each row audited; reads it whole by any of its rows', async () => {
      const made = await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload: note([['North', 3], ['Hub', 2]], { number: 'MINE' }) })
      expect(made.status, made.raw).toBe(201)
      expect(made.body).toMatchObject({ number: expect.stringMatching(/^DN2026050400\d+$/), note_date: '2026-05-04', depot: place.North, remark: 'Morning run' })
      expect(made.body.items.map((l: { gadget: number; quantity: number }) => [l.gadget, l.quantity])).toEqual([[place.North, 3], [place.Hub, 2]])
      expect(made.body.items[1]._labels).toEqual({ gadget: 'Hub' })
      const rows = await rowsOf(made.body.number)
      expect(rows.map((r) => [r.gadget, r.quantity, r.remark, r.depot])).toEqual([[place.North, 3, 'Morning run', place.North], [place.Hub, 2, 'Morning run', place.North]])
      expect(made.body.id).toBe(rows[0]!.id)
      expect(await auditOf(rows.map((r) => r.id))).toEqual([{ action: 'create', n: 2 }])
      for (const row of rows) {
        const read = await t.current.call({ method: 'GET', url: `${BASE}/document/${row.id}` })
        expect(read.body).toEqual(made.body)
      }
      // A row alone, as the contract's `{id}` reads it.
      expect((await t.current.call({ method: 'GET', url: `${BASE}/${rows[1]!.id}` })).body).toMatchObject({ gadget: place.Hub, number: made.body.number })
    })

    it('refuses a bad document whole — a line’s field, a rule over the lines, a rule reading a fact of a referenced row — writing nothing and taking no number', async () => {
      const before = Number((await sql<{ n: number }>`select count(*)::int as n from delivery_note`.execute(t.current.db)).rows[0]!.n)
      const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
        [note([['North', 0]]), { 'items.0.quantity': ['Ensure this value is greater than or equal to 1.'] }],
        [note([['North', 1], ['North', 2]]), { items: ['Two lines are the same: keep each only once.'] }],
        [note([['Fragile Glass', 2]]), { 'items.0.quantity': [expect.any(String)] }],
        [note([]), { items: ['Add at least 1 line(s).'] }],
        [{ ...note([['North', 1]]), note_date: '2026-02-30' }, { note_date: [expect.any(String)] }],
        [note([['North', 1]], { depot: 999999999 }), { depot: ['Invalid pk "999999999" - object does not exist.'] }],
      ]
      for (const [payload, errors] of cases) {
        const r = await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload })
        expect(r.status, JSON.stringify(payload)).toBe(400)
        expect(r.body).toEqual(errors)
      }
      expect((await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload: note([['Fragile Glass', 1]]) })).status).toBe(201)
      expect(Number((await sql<{ n: number }>`select count(*)::int as n from delivery_note`.execute(t.current.db)).rows[0]!.n)).toBe(before + 1)
    })

    it('changes a document by any of its rows: the header on every row, lines by id, new lines added, those left out removed — under the same number', async () => {
      const made = (await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload: note([['North', 1], ['South', 1]]) })).body
      const [north, south] = made.items as Array<{ id: number }>
      const changed = await t.current.call({
        method: 'PUT',
        url: `${BASE}/update/${south!.id}`,
        payload: { remark: 'Evening run', number: 'OTHER', items: [{ id: north!.id, gadget: place.North, quantity: 4 }, { gadget: place.Hub, quantity: 1 }] },
      })
      expect(changed.status, changed.raw).toBe(200)
      expect(changed.body).toMatchObject({ id: north!.id, number: made.number, remark: 'Evening run' })
      const rows = await rowsOf(made.number)
      expect(rows.map((r) => [r.id === north!.id, r.gadget, r.quantity, r.remark])).toEqual([[true, place.North, 4, 'Evening run'], [false, place.Hub, 1, 'Evening run']])
      expect(await auditOf([north!.id, south!.id, rows[1]!.id])).toEqual([{ action: 'create', n: 3 }, { action: 'delete', n: 1 }, { action: 'update', n: 1 }])
      const refused = await t.current.call({ method: 'PUT', url: `${BASE}/update/${north!.id}`, payload: { items: [{ id: south!.id, gadget: place.North, quantity: 1 }] } })
      expect(refused.status).toBe(400)
      expect(refused.body).toEqual({ 'items.0.id': [expect.any(String)] })
    })

    it('lists a row per document — the line its list prefers, the values over its rows — filtered by any of its lines, ordered and paged', async () => {
      const made = (await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload: note([['South', 5], ['Hub', 2], ['North', 1]], { remark: 'Listed', note_date: '2026-06-01' }) })).body
      const list = await t.current.call({ method: 'GET', url: `${BASE}/search/?q=${made.number}` })
      expect(list.status, list.raw).toBe(200)
      expect(list.body).toMatchObject({ total_elements: 1, page: 1 })
      expect(list.body.delivery_notes[0]).toMatchObject({ number: made.number, gadget: { id: place.Hub, name: 'Hub' }, total_quantity: 8, other_gadgets: ['South', 'North'], created_by: 'admin@example.com' })
      // Found by a line that is not the one shown.
      const bySouth = await t.current.call({ method: 'GET', url: `${BASE}/search/?gadget=${place.South}&note_date_after=2026-06-01` })
      expect(bySouth.body.delivery_notes.map((r: { number: string }) => r.number)).toContain(made.number)
      const all = await t.current.call({ method: 'GET', url: `${BASE}/all/?size=100&ordering=note_date` })
      const numbers = all.body.delivery_notes.map((r: { number: string }) => r.number)
      expect(new Set(numbers).size).toBe(numbers.length)
      expect(all.body.total_elements).toBe(Number((await sql<{ n: number }>`select count(distinct number)::int as n from delivery_note`.execute(t.current.db)).rows[0]!.n))
      expect(numbers.at(-1)).toBe(made.number)
    })

    it('deletes a document whole by any of its rows, and several at once all or nothing', async () => {
      const one = (await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload: note([['North', 1], ['South', 1]]) })).body
      const two = (await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload: note([['Hub', 1]]) })).body
      const deleted = await t.current.call({ method: 'DELETE', url: `${BASE}/delete/${one.items[1].id}` })
      expect(deleted.status, deleted.raw).toBe(200)
      expect(deleted.body.detail).toBe(`DeliveryNote id - ${one.items[1].id} is deleted successfully`)
      expect(await rowsOf(one.number)).toEqual([])
      expect(await auditOf(one.items.map((l: { id: number }) => l.id))).toEqual([{ action: 'create', n: 2 }, { action: 'delete', n: 2 }])
      const none = await t.current.call({ method: 'DELETE', url: `${BASE}/delete_multiple/`, payload: { ids: [two.id, 999999999] } })
      expect(none.status).toBe(404)
      expect(await rowsOf(two.number)).toHaveLength(1)
      expect((await t.current.call({ method: 'DELETE', url: `${BASE}/delete_multiple/`, payload: { ids: [two.id] } })).status).toBe(200)
      expect(await rowsOf(two.number)).toEqual([])
    })
  },
  options,
)
