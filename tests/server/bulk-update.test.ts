import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { defineEntity, f, type Entity, type Fields } from '../../schema/kit'
import { bulkSettableFields } from '../../schema/kit/bulk'
import type { EngineCtx } from '../../server/engine/access'
import { inAuditBatch } from '../../server/engine/audit-scope'
import { findRows, isBatchable } from '../../server/engine/bulk-update-batch'
import { changeEach } from '../../server/engine/bulk-update-rows'
import { undoBatchOf } from '../../server/engine/bulk-update-undo'
import { hookRegistry } from '../../server/engine/hooks'
import { findRow } from '../../server/engine/list-query'
import { catalogues } from '../../server/i18n'
import { throwawayEntities } from '../support/throwaway-registry'
import { callerWith, describeEachDatabase, type Caller, type TestApp } from './helpers/app'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'
import { createSample } from './helpers/samples'

/**
 * Bulk update (issue 25): a field set for the selected records or for every record of the
 * list's filter, in one transaction through the engine's update (its rules, scope and audit),
 * every audit entry tagged with the batch — and its undo, from the audit log, only while the
 * records still hold what the batch wrote. Proven on an entity defined here, at run time, and
 * on the registry's Police Stations.
 */
const task = defineEntity({
  name: 'bulk_task',
  module: 'test',
  listKey: 'bulk_tasks',
  route: { area: 'bulkTask-management', list: 'bulkTasks' },
  fields: {
    name: f.text({ max: 50, required: true, search: true, unique: true }),
    state: f.choice(['draft', 'confirmed', 'cancelled'], { default: 'draft', label: 'field.type' }),
    priority: f.integer({ min: 0, max: 9, default: 0, label: 'field.serial_number' }),
    due: f.date({ label: 'field.emp_join_date' }),
    note: f.text({ max: 100, label: 'field.details' }),
    city: f.ref('city', { label: 'field.district' }),
    code: f.text({ max: 20, readOnly: true, label: 'field.invoice_no' }),
    doubled: f.integer({ compute: (r) => Number(r.priority ?? 0) * 2, label: 'field.item_count' }),
    picture: f.image({ label: 'field.image' }),
  },
  filters: ['state', 'priority', 'city'],
  // A task confirmed must say why: the rule a bulk change may break for some records.
  rules: [{ field: 'note', message: 'validation.required', check: (r) => r.state !== 'confirmed' || (typeof r.note === 'string' && r.note.trim() !== '') }],
  // A non-admin reaches only the tasks they made.
  scope: (caller) => (caller.isAdmin ? null : { created_by: caller.id }),
  nav: false,
})

/**
 * The same kind of record without a file (whose release hook runs per record): no write hook,
 * one table, so its bulk changes go in batches (bulk-update-batch.ts) — with a name unique
 * within its district the database judges, links to districts and a JSON value, which each
 * batch writes as the record's own update would.
 */
const item = defineEntity({
  name: 'bulk_item',
  module: 'test',
  listKey: 'bulk_items',
  route: { area: 'bulkItem-management', list: 'bulkItems' },
  fields: {
    name: f.text({ max: 50, required: true, search: true, unique: { within: 'city' } }),
    state: f.choice(['draft', 'confirmed', 'cancelled'], { default: 'draft', label: 'field.type' }),
    priority: f.integer({ min: 0, max: 9, default: 0, label: 'field.serial_number' }),
    due: f.date({ label: 'field.emp_join_date' }),
    note: f.text({ max: 100, label: 'field.details' }),
    city: f.ref('city', { label: 'field.district' }),
    areas: f.refs('city', { label: 'field.tag' }),
    extra: f.json({ label: 'field.settings' }),
    doubled: f.integer({ compute: (r) => Number(r.priority ?? 0) * 2, label: 'field.item_count' }),
  },
  filters: ['state', 'priority', 'city'],
  rules: [{ field: 'note', message: 'validation.required', check: (r) => r.state !== 'confirmed' || (typeof r.note === 'string' && r.note.trim() !== '') }],
  scope: (caller) => (caller.isAdmin ? null : { created_by: caller.id }),
  nav: false,
})

const entities = [...throwawayEntities, task, item]
const base = task.api.base

function useTaskLabels(): void {
  const added: Array<() => void> = []
  beforeAll(() => {
    for (const lang of Object.keys(catalogues) as Array<keyof typeof catalogues>) {
      const c = catalogues[lang] as unknown as Record<string, Record<string, unknown>>
      const entity = c.entity!
      const field = c.field!
      const had = { entity: entity.bulk_task, item: entity.bulk_item, image: field.image }
      entity.bulk_task = { one: 'Task', other: 'Tasks' }
      entity.bulk_item = { one: 'Item', other: 'Items' }
      field.image ??= 'Image'
      added.push(() => {
        entity.bulk_task = had.entity
        entity.bulk_item = had.item
        field.image = had.image
      })
    }
  })
  afterAll(() => added.forEach((undo) => undo()))
}

describe('the fields a bulk update may set', () => {
  it('are the stored, editable values: not unique, read-only, computed, files, lines or links', () => {
    expect(bulkSettableFields(task)).toEqual(['state', 'priority', 'due', 'note', 'city'])
    expect(bulkSettableFields(registry.thana)).toEqual(['bn_name', 'url', 'city'])
  })
})

useThrowawayLabels()
useTaskLabels()

type Audit = { entity_id: number; action: string; changes: Record<string, [unknown, unknown]>; source: string | null; batch: string | null; actor: number | null }
const auditOf = async (t: TestApp, entity: string, ids: readonly number[]) =>
  (
    await sql<Audit>`select entity_id::int as entity_id, action, changes, source, batch::text as batch, actor::int as actor from audit_log
      where entity = ${entity} and entity_id = any(${[...ids]}::bigint[]) order by id`.execute(t.db)
  ).rows

describeEachDatabase(
  'bulk update',
  (t) => {
    let seq = 0
    const makeTask = async (values: Record<string, unknown> = {}, as?: Caller) => {
      const call = as ?? t.current.call
      const res = await call({ method: 'POST', url: `${base}/create/`, payload: { name: `Task ${++seq} ${Math.random().toString(36).slice(2, 7)}`, ...values } })
      expect(res.status, res.raw).toBe(201)
      return res.body as { id: number } & Record<string, unknown>
    }
    const readTask = async (id: number) => (await t.current.call({ method: 'GET', url: `${base}/${id}` })).body as Record<string, unknown>
    const bulk = (payload: unknown, options: { as?: Caller; headers?: Record<string, string> } = {}) =>
      (options.as ?? t.current.call)({ method: 'POST', url: `${base}/bulk_update/`, payload: payload as Record<string, unknown>, headers: options.headers })
    const undo = (batch: string, options: { as?: Caller; headers?: Record<string, string>; url?: string } = {}) =>
      (options.as ?? t.current.call)({ method: 'POST', url: `${options.url ?? base}/undo/${batch}`, payload: {}, headers: options.headers })

    it('sets a field for the selected records in one batch, each audited with the batch and where it came from', async () => {
      const [a, b, c] = [await makeTask({ priority: 1 }), await makeTask({ priority: 2 }), await makeTask({ priority: 3 })]
      const res = await bulk({ ids: [a.id, b.id], values: { priority: 7, note: 'sorted' } }, { headers: { 'x-screen': '/apps/bulkTask-management/bulkTasks' } })
      expect(res.status, res.raw).toBe(200)
      expect(res.body).toEqual({ updated: 2, batch: expect.stringMatching(/^[0-9a-f-]{36}$/) })
      for (const row of [a, b]) expect(await readTask(row.id)).toMatchObject({ priority: 7, note: 'sorted', doubled: 14 })
      expect(await readTask(c.id)).toMatchObject({ priority: 3, note: null })
      const audit = (await auditOf(t.current, 'bulk_task', [a.id, b.id, c.id])).filter((x) => x.action === 'update')
      expect(audit).toHaveLength(2)
      for (const entry of audit) {
        expect(entry.batch).toBe(res.body.batch)
        expect(entry.source).toBe('/apps/bulkTask-management/bulkTasks')
        expect(entry.actor).toBe(t.current.adminId)
        expect(entry.changes).toMatchObject({ priority: [entry.entity_id === a.id ? 1 : 2, 7], note: [null, 'sorted'], doubled: [entry.entity_id === a.id ? 2 : 4, 14] })
      }
    })

    it('records the route as the source when no screen is named', async () => {
      const a = await makeTask()
      const res = await bulk({ ids: [a.id], values: { due: '2025-03-01' } })
      expect(res.status, res.raw).toBe(200)
      const [entry] = (await auditOf(t.current, 'bulk_task', [a.id])).filter((x) => x.action === 'update')
      expect(entry).toMatchObject({ batch: res.body.batch, source: `POST ${base}/bulk_update/` })
    })

    it('sets a field for every record of the list’s filter, search and view included', async () => {
      const tag = `F${Math.random().toString(36).slice(2, 8)}`
      const city = (await createSample(t.current, registry.city)).row.id as number
      const hits = [await makeTask({ name: `${tag} one`, priority: 4 }), await makeTask({ name: `${tag} two`, priority: 4 })]
      const other = await makeTask({ name: `${tag} three`, priority: 5 })
      const res = await bulk({ filter: { q: tag, priority: '4' }, values: { city } })
      expect(res.status, res.raw).toBe(200)
      expect(res.body.updated).toBe(2)
      for (const row of hits) expect((await readTask(row.id)).city).toBe(city)
      expect((await readTask(other.id)).city).toBeNull()
      // The filter is read as the list reads it: an unknown parameter is refused, a bad value is a field map.
      expect((await bulk({ filter: { colour: 'red' }, values: { note: 'x' } })).status).toBe(400)
      const bad = await bulk({ filter: { priority: 'many' }, values: { note: 'x' } })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.body)).toEqual(['priority'])
      // A list view's own filter holds too (the drafts of the throwaway stock transfers).
      const transfers = entities.find((e) => e.name === 'stock_transfer')!
      const transfer = async (note: string) =>
        (await t.current.call({ method: 'POST', url: `${transfers.api.base}/create/`, payload: { note, value: '1.00', items: [{ gadget: city, quantity: 1 }] } })).body as { id: number }
      const [draft, confirmed] = [await transfer(`${tag} draft`), await transfer(`${tag} confirmed`)]
      expect((await t.current.call({ method: 'POST', url: `${transfers.api.base}/confirm/${confirmed.id}`, payload: {} })).status).toBe(200)
      const drafts = await t.current.call({ method: 'POST', url: `${transfers.api.base}/bulk_update/`, payload: { filter: { view: 'drafts', q: tag }, values: { value: '3.00' } } })
      expect(drafts.body).toEqual({ updated: 1, batch: expect.any(String) })
      expect((await t.current.call({ method: 'GET', url: `${transfers.api.base}/${draft.id}` })).body.value).toBe('3.00')
      expect((await t.current.call({ method: 'GET', url: `${transfers.api.base}/${confirmed.id}` })).body.value).toBe('1.00')
      expect((await t.current.call({ method: 'POST', url: `${transfers.api.base}/bulk_update/`, payload: { filter: { view: 'nope' }, values: { value: '3.00' } } })).status).toBe(400)
      // A record a workflow has locked refuses, as its update would.
      const locked = await t.current.call({ method: 'POST', url: `${transfers.api.base}/bulk_update/`, payload: { ids: [confirmed.id], values: { value: '3.00' } } })
      expect(locked.status).toBe(400)
      expect(Object.keys(locked.body.rows)).toEqual([String(confirmed.id)])
      // Nothing matches: nothing to change.
      const none = await bulk({ filter: { q: `${tag}-nothing` }, values: { note: 'x' } })
      expect(none.status).toBe(400)
      expect(none.body).toEqual({ detail: 'No records match: nothing was changed.' })
    })

    it('writes nothing when a record breaks a rule, and names each record that refused and why, in the caller’s language', async () => {
      const [ok, noNote, alsoNoNote] = [await makeTask({ note: 'ready' }), await makeTask(), await makeTask()]
      const before = await auditOf(t.current, 'bulk_task', [ok.id, noNote.id, alsoNoNote.id])
      const res = await bulk({ ids: [ok.id, noNote.id, alsoNoNote.id], values: { state: 'confirmed', priority: 9 } })
      expect(res.status, res.raw).toBe(400)
      expect(res.body).toEqual({
        detail: 'Nothing was changed: records refused the change: 2.',
        rows: { [noNote.id]: { note: ['Details is required'] }, [alsoNoNote.id]: { note: ['Details is required'] } },
        labels: { [noNote.id]: noNote.name, [alsoNoNote.id]: alsoNoNote.name },
      })
      for (const row of [ok, noNote, alsoNoNote]) expect(await readTask(row.id)).toMatchObject({ state: 'draft', priority: 0 })
      expect(await auditOf(t.current, 'bulk_task', [ok.id, noNote.id, alsoNoNote.id])).toEqual(before)
      const tr = await bulk({ ids: [noNote.id], values: { state: 'confirmed' } }, { headers: { 'accept-language': 'tr' } })
      expect(tr.body.detail).toBe('Hiçbir şey değiştirilmedi: değişikliği kabul etmeyen kayıt sayısı: 1.')
      expect(tr.body.rows[noNote.id].note).toEqual([expect.stringMatching(/ zorunludur$/)])
    })

    it('rolls back every record when the database refuses one (a unique name within its district), naming it', async () => {
      const { row: country } = await createSample(t.current, registry.country)
      const city = async () => (await t.current.call({ method: 'POST', url: `${registry.city.api.base}/create/`, payload: { name: `D${Math.random().toString(36).slice(2, 8)}`, country: country.id } })).body.id as number
      const [from, to] = [await city(), await city()]
      const thana = async (name: string, c: number) => (await t.current.call({ method: 'POST', url: `${registry.thana.api.base}/create/`, payload: { name, city: c } })).body as { id: number; name: string }
      const moving = [await thana('Kotwali', from), await thana('Gulshan', from)]
      await thana('Gulshan', to)
      const res = await t.current.call({ method: 'POST', url: `${registry.thana.api.base}/bulk_update/`, payload: { ids: moving.map((x) => x.id), values: { city: to } } })
      expect(res.status, res.raw).toBe(400)
      expect(Object.keys(res.body.rows)).toEqual([String(moving[1]!.id)])
      expect(res.body.labels).toEqual({ [moving[1]!.id]: 'Gulshan' })
      expect(res.body.rows[moving[1]!.id].name[0]).toMatch(/Police Station/)
      for (const x of moving) expect((await t.current.call({ method: 'GET', url: `${registry.thana.api.base}/${x.id}` })).body.city).toBe(from)
    })

    it('reaches only the records in the caller’s scope, by ids or by filter', async () => {
      const staff = await callerWith(t.current, ['BULK_TASK_LIST', 'BULK_TASK_DETAILS', 'BULK_TASK_CREATE', 'BULK_TASK_UPDATE'])
      const mine = await makeTask({ priority: 2 }, staff)
      const theirs = await makeTask({ priority: 2 })
      const byIds = await bulk({ ids: [mine.id, theirs.id], values: { priority: 3 } }, { as: staff })
      expect(byIds.status, byIds.raw).toBe(400)
      expect(byIds.body.labels).toEqual({ [theirs.id]: `#${theirs.id}` })
      expect(Object.keys(byIds.body.rows)).toEqual([String(theirs.id)])
      expect((await readTask(mine.id)).priority).toBe(2)
      const byFilter = await bulk({ filter: { priority: '2' }, values: { priority: 4 } }, { as: staff })
      expect(byFilter.status, byFilter.raw).toBe(200)
      expect(byFilter.body.updated).toBe(1)
      expect((await readTask(mine.id)).priority).toBe(4)
      expect((await readTask(theirs.id)).priority).toBe(2)
    })

    it('refuses fields that cannot be set in bulk, with a field map', async () => {
      const a = await makeTask()
      const res = await bulk({ ids: [a.id], values: { name: 'Same', code: 'X', doubled: 4, picture: null, colour: 'red', note: 'fine' } })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        name: ['Name cannot be set for several records at once.'],
        code: [expect.stringContaining('cannot be set for several records at once.')],
        doubled: [expect.stringContaining('cannot be set for several records at once.')],
        picture: ['Image cannot be set for several records at once.'],
        colour: ['Unknown field.'],
      })
      const ar = await bulk({ ids: [a.id], values: { name: 'Same' } }, { headers: { 'accept-language': 'ar' } })
      expect(ar.body.name[0]).toMatch(/لا يمكن تعيين .+ لعدة سجلات دفعة واحدة\./)
      expect((await readTask(a.id)).note).toBeNull()
    })

    it('bounds what it is asked: one target, 1 to 20 fields, ids as the deletes take them, at most 10,000 records of a filter', async () => {
      const a = await makeTask()
      const detail = { detail: expect.stringContaining('Send either') }
      for (const payload of [
        { values: { note: 'x' } },
        { ids: [a.id], filter: {}, values: { note: 'x' } },
        { ids: [a.id] },
        { ids: [a.id], values: {} },
        { ids: [a.id], values: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, 1])) },
        { ids: [a.id], values: { note: 'x' }, extra: true },
        { filter: { q: { nested: true } }, values: { note: 'x' } },
        [a.id],
      ]) {
        const res = await bulk(payload)
        expect(res.status, JSON.stringify(payload)).toBe(400)
        expect(res.body).toEqual(detail)
      }
      for (const ids of [[], ['x'], [0], Array.from({ length: 1001 }, (_, i) => i + 1)]) {
        const res = await bulk({ ids, values: { note: 'x' } })
        expect(res.status).toBe(400)
        expect(res.body.detail).toMatch(/ids/)
      }
      await sql`insert into bulk_task (name, state, priority, doubled) select 'Many ' || g, 'draft', 8, 16 from generate_series(1, 10001) g`.execute(t.current.db)
      const many = await bulk({ filter: { priority: '8' }, values: { note: 'x' } })
      expect(many.status).toBe(400)
      expect(many.body).toEqual({ detail: 'This list holds 10001 records; a bulk change may reach at most 10000. Narrow the list with a filter or a search first.' })
      expect(Number((await sql<{ n: string }>`select count(*) as n from bulk_task where note = 'x'`.execute(t.current.db)).rows[0]!.n)).toBe(0)
      await sql`delete from bulk_task where name like 'Many %'`.execute(t.current.db)
    })

    it('undoes a batch: each record back to the audit’s before-values, audited as a batch of its own', async () => {
      const city = (await createSample(t.current, registry.city)).row.id as number
      const [a, b] = [await makeTask({ priority: 1, note: 'first', due: '2025-01-02' }), await makeTask({ priority: 2, city, due: '2025-01-03' })]
      const res = await bulk({ ids: [a.id, b.id], values: { priority: 5, note: 'changed', city: null, due: '2026-06-30' } })
      expect(res.status, res.raw).toBe(200)
      const batch = res.body.batch as string
      const undone = await undo(batch, { headers: { 'x-screen': '/apps/bulkTask-management/bulkTasks' } })
      expect(undone.status, undone.raw).toBe(200)
      expect(undone.body).toEqual({ restored: 2, batch: undoBatchOf(batch) })
      expect(await readTask(a.id)).toMatchObject({ priority: 1, note: 'first', city: null, due: '2025-01-02', doubled: 2 })
      expect(await readTask(b.id)).toMatchObject({ priority: 2, note: null, city, due: '2025-01-03', doubled: 4 })
      const audit = (await auditOf(t.current, 'bulk_task', [a.id, b.id])).filter((x) => x.action === 'update')
      expect(audit.map((x) => x.batch)).toEqual([batch, batch, undone.body.batch, undone.body.batch])
      const restoring = audit.slice(2)
      for (const entry of restoring) expect(entry.source).toBe('/apps/bulkTask-management/bulkTasks')
      expect(restoring.find((x) => x.entity_id === a.id)!.changes).toEqual({ priority: [5, 1], note: ['changed', 'first'], due: ['2026-06-30', '2025-01-02'], doubled: [10, 2] })
      expect(restoring.find((x) => x.entity_id === b.id)!.changes).toEqual({ priority: [5, 2], note: ['changed', null], city: [null, city], due: ['2026-06-30', '2025-01-03'], doubled: [10, 4] })

      // Undone once: not twice.
      const again = await undo(batch)
      expect(again.status).toBe(409)
      expect(again.body).toEqual({ detail: 'This change has already been undone.' })
      // The undo is a batch too: undoing it sets the bulk values again.
      const redo = await undo(undone.body.batch)
      expect(redo.status, redo.raw).toBe(200)
      expect(await readTask(a.id)).toMatchObject({ priority: 5, note: 'changed' })
    })

    it('undoes on a registry entity too: Police Stations moved to another district go back', async () => {
      const { row: country } = await createSample(t.current, registry.country)
      const city = async () => (await t.current.call({ method: 'POST', url: `${registry.city.api.base}/create/`, payload: { name: `D${Math.random().toString(36).slice(2, 8)}`, country: country.id } })).body.id as number
      const [from, to] = [await city(), await city()]
      const ids: number[] = []
      for (const name of ['Banani', 'Uttara']) ids.push((await t.current.call({ method: 'POST', url: `${registry.thana.api.base}/create/`, payload: { name, city: from, url: 'https://example.com' } })).body.id)
      const thanaBase = registry.thana.api.base
      const res = await t.current.call({ method: 'POST', url: `${thanaBase}/bulk_update/`, payload: { filter: { city: String(from) }, values: { city: to, url: null } } })
      expect(res.status, res.raw).toBe(200)
      expect(res.body.updated).toBe(2)
      for (const id of ids) expect((await t.current.call({ method: 'GET', url: `${thanaBase}/${id}` })).body).toMatchObject({ city: to, url: null })
      // Not this list's batch.
      expect((await undo(res.body.batch)).status).toBe(404)
      const undone = await t.current.call({ method: 'POST', url: `${thanaBase}/undo/${res.body.batch}`, payload: {} })
      expect(undone.status, undone.raw).toBe(200)
      expect(undone.body.restored).toBe(2)
      for (const id of ids) expect((await t.current.call({ method: 'GET', url: `${thanaBase}/${id}` })).body).toMatchObject({ city: from, url: 'https://example.com' })
      const audit = await auditOf(t.current, 'thana', ids)
      expect(audit.filter((x) => x.batch === res.body.batch)).toHaveLength(2)
      expect(audit.filter((x) => x.batch === undone.body.batch).map((x) => x.changes.city)).toEqual([[to, from], [to, from]])
    })

    it('refuses an undo when a record was changed since (409, naming it), writing nothing', async () => {
      const [a, b] = [await makeTask({ priority: 1 }), await makeTask({ priority: 2 })]
      const res = await bulk({ ids: [a.id, b.id], values: { priority: 6 } })
      await t.current.call({ method: 'PATCH', url: `${base}/update/${b.id}`, payload: { priority: 8 } })
      const refused = await undo(res.body.batch)
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({ detail: `Nothing was undone: records changed since: 1 (${String(b.name)}).` })
      const ar = await undo(res.body.batch, { headers: { 'accept-language': 'ar' } })
      expect(ar.body.detail).toBe(`لم يُتراجع عن شيء: عدد السجلات التي تغيّرت منذ ذلك الحين: 1 (${String(b.name)}).`)
      expect((await readTask(a.id)).priority).toBe(6)
      expect((await readTask(b.id)).priority).toBe(8)
      expect((await auditOf(t.current, 'bulk_task', [a.id, b.id])).filter((x) => x.batch === undoBatchOf(res.body.batch))).toEqual([])
      // Changed back as it was: the undo goes on.
      await t.current.call({ method: 'PATCH', url: `${base}/update/${b.id}`, payload: { priority: 6 } })
      expect((await undo(res.body.batch)).status).toBe(200)
      expect((await readTask(b.id)).priority).toBe(2)
    })

    it('lets only who made the batch undo it, or an admin', async () => {
      const maker = await callerWith(t.current, ['BULK_TASK_LIST', 'BULK_TASK_DETAILS', 'BULK_TASK_CREATE', 'BULK_TASK_UPDATE'])
      const other = await callerWith(t.current, ['BULK_TASK_LIST', 'BULK_TASK_DETAILS', 'BULK_TASK_UPDATE'])
      const a = await makeTask({ priority: 1 }, maker)
      const res = await bulk({ ids: [a.id], values: { priority: 2 } }, { as: maker })
      expect(res.status, res.raw).toBe(200)
      const refused = await undo(res.body.batch, { as: other })
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual({ detail: 'Only the person who made this change, or an admin, may undo it.' })
      const byAdmin = await undo(res.body.batch)
      expect(byAdmin.status, byAdmin.raw).toBe(200)
      expect((await readTask(a.id)).priority).toBe(1)
      // The maker's own undo of a batch they made works too.
      const second = await bulk({ ids: [a.id], values: { priority: 3 } }, { as: maker })
      expect((await undo(second.body.batch, { as: maker })).status).toBe(200)
    })

    it('refuses an undo of deletes (the Trash restores those), of an unknown batch, and of a malformed one', async () => {
      const a = await makeTask()
      const batch = crypto.randomUUID()
      await sql`insert into audit_log (actor, entity, entity_id, action, changes, batch) values (${t.current.adminId}, 'bulk_task', ${a.id}, 'delete', '{}'::jsonb, ${batch}::uuid)`.execute(t.current.db)
      const deletes = await undo(batch)
      expect(deletes.status).toBe(409)
      expect(deletes.body).toEqual({ detail: 'Deleted records are not undone here: restore them from the Trash.' })
      // Nor the references a delete cleared, asked at their own list.
      await sql`insert into audit_log (actor, entity, entity_id, action, changes, batch) values (${t.current.adminId}, 'thana', 1, 'update', '{"url": [null, "x"]}'::jsonb, ${batch}::uuid)`.execute(t.current.db)
      expect((await undo(batch, { url: registry.thana.api.base })).status).toBe(409)
      const unknown = await undo(crypto.randomUUID())
      expect(unknown.status).toBe(404)
      for (const bad of ['999999999', 'not-a-uuid', `${crypto.randomUUID()}x`]) {
        const res = await undo(bad)
        expect(res.status).toBe(400)
        expect(res.body).toEqual({ detail: 'This is not the id of a bulk change.' })
      }
    })

    it('needs the entity’s UPDATE permission for both routes (403)', async () => {
      const a = await makeTask()
      const reader = await callerWith(t.current, ['BULK_TASK_LIST', 'BULK_TASK_DETAILS'])
      const res = await bulk({ ids: [a.id], values: { note: 'x' } }, { as: reader })
      expect(res.status).toBe(403)
      expect((await undo(crypto.randomUUID(), { as: reader })).status).toBe(403)
      expect((await t.current.call({ method: 'POST', url: `${base}/bulk_update/`, payload: { ids: [a.id], values: { note: 'x' } }, asAnonymous: true })).status).toBe(401)
    })

    describe('in batches (an entity without write hooks)', () => {
      const itemBase = item.api.base
      const ctxOf = (entity: Entity<string, Fields>): EngineCtx => ({
        db: t.current.db,
        registry: t.current.app.engine.registry,
        entity,
        actor: { id: t.current.adminId, isAdmin: true, permissions: new Set<string>() },
        access: 'check',
        hooks: t.current.app.engine.hooks,
      })
      const makeItem = async (values: Record<string, unknown>) => {
        const res = await t.current.call({ method: 'POST', url: `${itemBase}/create/`, payload: values })
        expect(res.status, res.raw).toBe(201)
        return res.body as { id: number } & Record<string, unknown>
      }
      const readItem = async (id: number) => (await t.current.call({ method: 'GET', url: `${itemBase}/${id}` })).body as Record<string, unknown>
      const bulkItems = (payload: unknown) => t.current.call({ method: 'POST', url: `${itemBase}/bulk_update/`, payload: payload as Record<string, unknown> })
      const undoItems = (batch: string) => t.current.call({ method: 'POST', url: `${itemBase}/undo/${batch}`, payload: {} })
      const count = async (query: ReturnType<typeof sql<{ n: string }>>) => Number((await query.execute(t.current.db)).rows[0]!.n)

      it('are taken only where each record’s update is its own: no write hook, one table, no lines', () => {
        expect(isBatchable(ctxOf(item))).toBe(true)
        expect(isBatchable(ctxOf(registry.thana))).toBe(true)
        for (const hook of ['beforeValidate', 'beforeWrite', 'afterWrite'] as const) {
          expect(isBatchable({ ...ctxOf(item), hooks: hookRegistry([['bulk_item', { [hook]: () => {} }]]) }), hook).toBe(false)
        }
        expect(isBatchable({ ...ctxOf(item), hooks: hookRegistry([['bulk_item', { afterRead: () => {} }]]) })).toBe(true)
        expect(isBatchable(ctxOf(entities.find((e) => e.name === 'stock_transfer')!))).toBe(false)
      })

      it('read each record as its update reads it, and write what one update after another writes: the rows, their links, their audit', async () => {
        const [c1, c2] = [(await createSample(t.current, registry.city)).row.id as number, (await createSample(t.current, registry.city)).row.id as number]
        const tag = Math.random().toString(36).slice(2, 8)
        const specs = Array.from({ length: 6 }, (_, i) => ({
          priority: i,
          note: i % 2 ? `note ${i}` : null,
          due: i % 3 ? `2025-0${i + 1}-15` : null,
          city: i % 2 ? c1 : null,
          areas: [c1, c2].slice(0, i % 3),
          extra: i % 2 ? { i, tags: ['a', 'b'] } : null,
        }))
        const a = [] as number[]
        const b = [] as number[]
        for (const [i, spec] of specs.entries()) {
          a.push((await makeItem({ name: `Eq ${tag} A${i}`, ...spec })).id)
          b.push((await makeItem({ name: `Eq ${tag} B${i}`, ...spec })).id)
        }
        const found = await findRows(ctxOf(item), t.current.db, a)
        for (const id of a) expect(found.get(id)).toEqual(await findRow(t.current.db, item, id, t.current.app.engine.registry))
        // Each record its own values, as an undo sets them.
        const changes = (ids: number[]) => ids.map((id, i) => ({ id, values: { priority: 9 - i, note: `set ${i}`, state: 'confirmed', city: i % 2 ? c2 : c1, due: i % 3 ? '2026-01-31' : null } }))
        const [batchA, batchB] = [crypto.randomUUID(), crypto.randomUUID()]
        expect(await inAuditBatch(batchA, () => changeEach(ctxOf(item), changes(a)))).toBe(6)
        expect(await inAuditBatch(batchB, () => changeEach(ctxOf(item), changes(b), { oneByOne: true }))).toBe(6)
        const strip = ({ id: _id, name: _name, created_at: _c, updated_at: _u, ...rest }: Record<string, unknown>) => rest
        for (const i of a.keys()) {
          const [x, y] = [await readItem(a[i]!), await readItem(b[i]!)]
          expect(x).toMatchObject({ priority: 9 - i, note: `set ${i}`, areas: specs[i]!.areas, extra: specs[i]!.extra })
          expect(strip(x)).toEqual(strip(y))
        }
        const [auditA, auditB] = [(await auditOf(t.current, 'bulk_item', a)).filter((e) => e.batch === batchA), (await auditOf(t.current, 'bulk_item', b)).filter((e) => e.batch === batchB)]
        expect(auditA.map((e) => e.entity_id)).toEqual(a)
        expect(auditA.map(({ entity_id: _, batch: __, ...rest }) => rest)).toEqual(auditB.map(({ entity_id: _, batch: __, ...rest }) => rest))
      })

      it('a refusal by record 2,001 — a rule’s or the database’s — leaves nothing written and is named; done, each record is audited with the batch and the undo restores them all', async () => {
        const tag = `R${Math.random().toString(36).slice(2, 8)}`
        const [c1, c2] = [(await createSample(t.current, registry.city)).row.id as number, (await createSample(t.current, registry.city)).row.id as number]
        const admin = t.current.adminId
        await sql`insert into bulk_item (name, state, priority, doubled, note, city, created_by, updated_by)
          select ${tag} || ' ' || g, 'draft', 1, 2, case when g = 2001 then null else 'ok' end, ${c1}, ${admin}, ${admin} from generate_series(1, 2500) g`.execute(t.current.db)
        const ids = (await sql<{ id: number }>`select id::int as id from bulk_item where name like ${`${tag} %`} order by id`.execute(t.current.db)).rows.map((r) => r.id)
        const refusing = ids[2000]!
        const untouched = () => count(sql`select count(*) as n from bulk_item where id = any(${ids}::bigint[]) and state = 'draft' and priority = 1 and city = ${c1}`)
        const audited = () => count(sql`select count(*) as n from audit_log where entity = 'bulk_item' and entity_id = any(${ids}::bigint[])`)

        const ruled = await bulkItems({ filter: { q: tag }, values: { state: 'confirmed', priority: 5 } })
        expect(ruled.status, ruled.raw).toBe(400)
        expect(ruled.body.rows).toEqual({ [refusing]: { note: ['Details is required'] } })
        expect(ruled.body.labels).toEqual({ [refusing]: `${tag} 2001` })
        expect(await untouched()).toBe(2500)
        expect(await audited()).toBe(0)

        // The database's own refusal: a name taken in the district the records move to.
        await sql`update bulk_item set note = 'ok' where id = ${refusing}`.execute(t.current.db)
        const blocker = await makeItem({ name: `${tag} 2001`, city: c2, priority: 2 })
        const unique = await bulkItems({ filter: { q: tag, priority: '1' }, values: { city: c2, state: 'confirmed' } })
        expect(unique.status, unique.raw).toBe(400)
        expect(Object.keys(unique.body.rows)).toEqual([String(refusing)])
        expect(unique.body.rows[refusing].name[0]).toMatch(/already exists/)
        expect(await untouched()).toBe(2500)
        expect(await audited()).toBe(0)
        await t.current.call({ method: 'DELETE', url: `${itemBase}/delete/${blocker.id}` })

        const done = await bulkItems({ filter: { q: tag }, values: { city: c2, state: 'confirmed', priority: 5 } })
        expect(done.status, done.raw).toBe(200)
        expect(done.body.updated).toBe(2500)
        const batch = done.body.batch as string
        const same = JSON.stringify({ city: [c1, c2], state: ['draft', 'confirmed'], priority: [1, 5], doubled: [2, 10] })
        expect(await count(sql`select count(distinct entity_id) as n from audit_log where batch = ${batch}::uuid and action = 'update' and changes = ${same}::jsonb and actor = ${admin}`)).toBe(2500)
        expect(await count(sql`select count(*) as n from audit_log where batch = ${batch}::uuid`)).toBe(2500)

        // Record 2,001 changed since: the undo refuses, naming it, and writes nothing.
        await t.current.call({ method: 'PATCH', url: `${itemBase}/update/${refusing}`, payload: { priority: 6 } })
        const refused = await undoItems(batch)
        expect(refused.status).toBe(409)
        expect(refused.body.detail).toContain(`${tag} 2001`)
        expect(await count(sql`select count(*) as n from audit_log where batch = ${undoBatchOf(batch)}::uuid`)).toBe(0)
        expect(await count(sql`select count(*) as n from bulk_item where id = any(${ids}::bigint[]) and priority = 5`)).toBe(2499)
        await t.current.call({ method: 'PATCH', url: `${itemBase}/update/${refusing}`, payload: { priority: 5 } })
        const undone = await undoItems(batch)
        expect(undone.status, undone.raw).toBe(200)
        expect(undone.body.restored).toBe(2500)
        expect(await untouched()).toBe(2500)
        const back = JSON.stringify({ city: [c2, c1], state: ['confirmed', 'draft'], priority: [5, 1], doubled: [10, 2] })
        expect(await count(sql`select count(distinct entity_id) as n from audit_log where batch = ${undoBatchOf(batch)}::uuid and changes = ${back}::jsonb`)).toBe(2500)
      })
    })
  },
  { ...throwawayApp, entities: entities as readonly Entity<string, Fields>[] },
)
