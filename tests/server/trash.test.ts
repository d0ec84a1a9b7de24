import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { checkRegistry } from '../../schema/check'
import { defineEntity, f, type Entity, type Fields } from '../../schema/kit'
import { MigrationRefusedError, migrate } from '../../server/db/sync'
import { MAX_IDS } from '../../server/engine/routes'
import { catalogues } from '../../server/i18n'
import { ADMIN, callerWith, describeEachDatabase, type TestApp } from './helpers/app'
import { databaseKinds, freshDatabase, isAvailable } from './helpers/databases'
import { createRow, createSample, sampleInput } from './helpers/samples'

/**
 * Soft delete and a Trash (issue 25), generic in the engine: an entity defined here at run
 * time with `trash: true` — kinds of crates, crates in crates, their tags, and labels that
 * name a kind but have no Trash of their own — and the app's District (`city`). A delete moves
 * rows to the Trash and answers as the contract does; every read leaves them out; unique
 * values and references treat them as gone; restore (by ids, by the delete's batch) puts back
 * what the delete took; a purge deletes for good with `<PREFIX>_PURGE`.
 */
const crateKind = defineEntity({
  name: 'crate_kind',
  module: 'test',
  listKey: 'crate_kinds',
  route: { area: 'crateKind-management', list: 'crateKinds' },
  fields: { name: f.text({ max: 50, required: true, search: true, unique: true }) },
  nav: false,
  trash: true,
})
const crateTag = defineEntity({
  name: 'crate_tag',
  module: 'test',
  listKey: 'crate_tags',
  route: { area: 'crateTag-management', list: 'crateTags' },
  fields: { name: f.text({ max: 50, required: true, search: true, unique: true }) },
  nav: false,
  trash: true,
})
const crate = defineEntity({
  name: 'crate',
  module: 'test',
  listKey: 'crates',
  route: { area: 'crate-management', list: 'crates' },
  fields: {
    // One crate of a name per kind.
    name: f.text({ max: 50, required: true, search: true, unique: { within: 'kind' } }),
    kind: f.ref('crate_kind', { required: true, label: 'field.kind' }),
    // A crate's inner crates go with it.
    parent: f.ref('crate', { onDelete: 'cascade', label: 'field.parent' }),
    tags: f.refs('crate_tag', { label: 'field.details' }),
  },
  nav: false,
  trash: true,
})
/** No Trash of its own: its kind is cleared when the kind goes, and put back when it returns. */
const crateLabel = defineEntity({
  name: 'crate_label',
  module: 'test',
  listKey: 'crate_labels',
  route: { area: 'crateLabel-management', list: 'crateLabels' },
  fields: {
    name: f.text({ max: 50, required: true, search: true }),
    kind: f.ref('crate_kind', { onDelete: 'setNull', label: 'field.kind' }),
  },
  nav: false,
})
const testEntities = [...entities, crateKind, crateTag, crate, crateLabel] as readonly Entity<string, Fields>[]
const labels = {
  crate_kind: { one: 'Crate kind', other: 'Crate kinds' },
  crate_tag: { one: 'Crate tag', other: 'Crate tags' },
  crate: { one: 'Crate', other: 'Crates' },
  crate_label: { one: 'Crate label', other: 'Crate labels' },
}

/** The labels an author adds with these, in every catalogue, before any app of them starts (and taken away after). */
const savedEntityLabels = new Map<string, unknown>()
for (const [lang, catalogue] of Object.entries(catalogues)) {
  const entity = (catalogue as Record<string, Record<string, unknown>>).entity!
  savedEntityLabels.set(lang, entity)
  ;(catalogue as Record<string, unknown>).entity = { ...entity, ...labels }
}
afterAll(() => {
  for (const [lang, entity] of savedEntityLabels) (catalogues as Record<string, Record<string, unknown>>)[lang]!.entity = entity
})

const KINDS = crateKind.api.base
const CRATES = crate.api.base
const TAGS = crateTag.api.base
const LABELS = crateLabel.api.base
const CITIES = registry.city.api.base
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let sequence = 0
const unique = (word: string) => `${word} ${++sequence}`

async function make(t: TestApp, base: string, payload: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await t.call({ method: 'POST', url: `${base}/create/`, payload })
  expect(res.status, res.raw).toBe(201)
  return res.body
}

const listed = async (t: TestApp, base: string, key: string, query = '') => {
  const res = await t.call({ method: 'GET', url: `${base}/all/?size=100${query}` })
  expect(res.status, res.raw).toBe(200)
  return { ids: (res.body[key] as Array<{ id: number }>).map((r) => r.id), total: res.body.total_elements as number }
}

const trashed = async (t: TestApp, base: string, key: string, query = '') => {
  const res = await t.call({ method: 'GET', url: `${base}/trash/?size=100${query}` })
  expect(res.status, res.raw).toBe(200)
  return { body: res.body as Record<string, unknown>, rows: res.body[key] as Array<Record<string, any>> }
}

describe('the registry check of a Trash', () => {
  const problemsOf = (extra: Entity<string, Fields>[]) => checkRegistry([...entities, ...extra]).map((p) => `${p.entity}: ${p.message}`)

  it('refuses a Trash for a document, a row of another\'s table, and a row that something without a Trash cascades from', () => {
    const withLines = entities.find((e) => e.name === 'stock_adjustment')!
    const problems = problemsOf([
      { ...withLines, name: 'trashed_adjustment', trash: { purgePermission: 'X_PURGE' } } as Entity<string, Fields>,
    ])
    expect(problems.some((p) => p.startsWith('trashed_adjustment: trash: a document with lines'))).toBe(true)
    const employee = entities.find((e) => e.name === 'employee')!
    expect(checkRegistry(entities.map((e) => (e === employee ? { ...e, trash: { purgePermission: 'EMPLOYEE_PURGE' } } : e))).map((p) => p.message)).toContainEqual(
      expect.stringContaining("trash: it extends 'user'"),
    )
    const box = defineEntity({ name: 'box', module: 'test', listKey: 'boxes', route: { area: 'box-management', list: 'boxes' }, fields: { name: f.text({ max: 9, required: true, search: true }) }, nav: false, trash: true })
    const lid = defineEntity({ name: 'lid', module: 'test', listKey: 'lids', route: { area: 'lid-management', list: 'lids' }, fields: { name: f.text({ max: 9, required: true, search: true }), box: f.ref('box', { onDelete: 'cascade' }) }, nav: false })
    expect(problemsOf([box, lid])).toContainEqual(expect.stringContaining("box: trash: 'lid.box' deletes its rows with it"))
    expect(problemsOf([crateKind, crateTag, crate, crateLabel])).toEqual([])
  })
})

describeEachDatabase(
  'the Trash',
  (t) => {
    it('moves a deleted row to the Trash: the contract’s answer with its batch, and gone from every read', async () => {
      const name = unique('Pallet')
      const kind = await make(t.current, KINDS, { name })
      const before = await listed(t.current, KINDS, 'crate_kinds')
      const del = await t.current.call({ method: 'DELETE', url: `${KINDS}/delete/${kind.id}` })
      expect(del.status, del.raw).toBe(200)
      expect(del.body).toEqual({ detail: `CrateKind id - ${kind.id} is deleted successfully`, batch: expect.stringMatching(UUID) })

      const after = await listed(t.current, KINDS, 'crate_kinds')
      expect(after.ids).not.toContain(kind.id)
      expect(after.total).toBe(before.total - 1)
      expect((await listed(t.current, KINDS, 'crate_kinds', `&q=${encodeURIComponent(name)}`)).total).toBe(0)
      for (const url of [`${KINDS}/${kind.id}`, `${KINDS}/delete_impact/${kind.id}`]) expect((await t.current.call({ method: 'GET', url })).status, url).toBe(404)
      for (const url of [`${KINDS}/search/?name=${encodeURIComponent(name)}`, `${KINDS}/without_pagination/all/`]) {
        const res = await t.current.call({ method: 'GET', url })
        expect(res.body.crate_kinds.map((r: { id: number }) => r.id), url).not.toContain(kind.id)
      }
      expect((await t.current.call({ method: 'PUT', url: `${KINDS}/update/${kind.id}`, payload: { name: 'x' } })).status).toBe(404)
      expect((await t.current.call({ method: 'DELETE', url: `${KINDS}/delete/${kind.id}` })).status).toBe(404)

      const trash = await trashed(t.current, KINDS, 'crate_kinds')
      expect(trash.rows.find((r) => r.id === kind.id)).toMatchObject({ id: kind.id, name, deleted_by: ADMIN.email, deleted_at: expect.any(String) })
      expect(trash.body).toMatchObject({ page: 1, size: 100, total_pages: 1, total_elements: trash.rows.length })
      expect((await trashed(t.current, KINDS, 'crate_kinds', `&q=${encodeURIComponent(name)}`)).rows.map((r) => r.id)).toEqual([kind.id])
      const audit = await sql<{ action: string; batch: string }>`select action, batch::text as batch from audit_log where entity = 'crate_kind' and entity_id = ${kind.id} order by id`.execute(t.current.db)
      expect(audit.rows).toEqual([expect.objectContaining({ action: 'create' }), { action: 'delete', batch: del.body.batch }])
    })

    it('restores by ids and by the delete’s batch (the Undo), in one transaction', async () => {
      const [a, b, c] = [await make(t.current, KINDS, { name: unique('Box') }), await make(t.current, KINDS, { name: unique('Box') }), await make(t.current, KINDS, { name: unique('Box') })]
      const many = await t.current.call({ method: 'DELETE', url: `${KINDS}/delete_multiple/`, payload: { ids: [a.id, b.id] } })
      expect(many.body).toEqual({ detail: `CrateKind ids - [${a.id}, ${b.id}] deleted successfully`, batch: expect.stringMatching(UUID) })
      await t.current.call({ method: 'DELETE', url: `${KINDS}/delete/${c.id}` })

      const undo = await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, payload: { batch: many.body.batch } })
      expect(undo.status, undo.raw).toBe(200)
      expect(undo.body).toEqual({ detail: `Crate kinds restored from the Trash: [${a.id}, ${b.id}]`, ids: [a.id, b.id] })
      expect((await t.current.call({ method: 'GET', url: `${KINDS}/${a.id}` })).body.name).toBe(a.name)
      expect((await t.current.call({ method: 'GET', url: `${KINDS}/${c.id}` })).status).toBe(404)
      // Undone once: nothing of that delete is left in the Trash.
      const again = await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, payload: { batch: many.body.batch } })
      expect(again.status).toBe(404)
      expect(again.body.detail).toBe('Nothing this delete put in the Trash of Crate kinds is there any more.')

      // By ids: every one must be in the Trash, or nothing is restored.
      const refused = await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, payload: { ids: [c.id, a.id] } })
      expect([refused.status, refused.body]).toEqual([404, { detail: `Not in the Trash of Crate kinds: [${a.id}]` }])
      expect((await t.current.call({ method: 'GET', url: `${KINDS}/${c.id}` })).status).toBe(404)
      const tr = await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, payload: { ids: [c.id] }, headers: { 'accept-language': 'tr' } })
      expect(tr.body).toEqual({ detail: `Crate kinds Çöp Kutusu'ndan geri alındı: [${c.id}]`, ids: [c.id] })
      const audit = await sql<{ action: string }>`select action from audit_log where entity = 'crate_kind' and entity_id = ${c.id} order by id`.execute(t.current.db)
      expect(audit.rows.map((r) => r.action)).toEqual(['create', 'delete', 'restore'])
    })

    it('lets a new row take a trashed row’s unique value, and then refuses to restore that row (409)', async () => {
      const name = unique('Crate')
      const first = await make(t.current, KINDS, { name })
      await t.current.call({ method: 'DELETE', url: `${KINDS}/delete/${first.id}` })
      const second = await make(t.current, KINDS, { name })
      const refused = await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, payload: { ids: [first.id] } })
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({ detail: `Crate kind '${name}' cannot be restored: another record has its Name (${name}) now.` })
      // Still unique among the live rows.
      expect((await t.current.call({ method: 'POST', url: `${KINDS}/create/`, payload: { name } })).body).toEqual({ name: ['Crate kind with this Name already exists.'] })
      await t.current.call({ method: 'DELETE', url: `${KINDS}/delete/${second.id}` })
      // Two trashed rows of one value: one comes back alone, not both.
      const both = await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, payload: { ids: [first.id, second.id] } })
      expect(both.status).toBe(409)
      expect((await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, payload: { ids: [first.id] } })).status).toBe(200)
    })

    it('refuses a reference to a trashed row (400 on that field), and a trash of a row live rows refer to (409, as a delete)', async () => {
      const kind = await make(t.current, KINDS, { name: unique('Tote') })
      const box = await make(t.current, CRATES, { name: unique('Tote box'), kind: kind.id })
      const impact = await t.current.call({ method: 'GET', url: `${KINDS}/delete_impact/${kind.id}` })
      const detail = `Crate kind '${kind.name}' cannot be deleted: one of the Crates refers to it.`
      expect(impact.body).toEqual({ ids: [kind.id], can_delete: false, references: [{ entity: 'crate', field: 'kind', count: 1, effect: 'refuse' }], detail })
      const del = await t.current.call({ method: 'DELETE', url: `${KINDS}/delete/${kind.id}` })
      expect([del.status, del.body]).toEqual([409, { detail }])
      expect((await t.current.call({ method: 'GET', url: `${KINDS}/${kind.id}` })).status).toBe(200)

      // Once the crate is in the Trash, it no longer holds the kind back.
      expect((await t.current.call({ method: 'DELETE', url: `${CRATES}/delete/${box.id}` })).status).toBe(200)
      expect((await t.current.call({ method: 'GET', url: `${KINDS}/delete_impact/${kind.id}` })).body).toEqual({ ids: [kind.id], can_delete: true, references: [] })
      expect((await t.current.call({ method: 'DELETE', url: `${KINDS}/delete/${kind.id}` })).status).toBe(200)

      const pointing = await t.current.call({ method: 'POST', url: `${CRATES}/create/`, payload: { name: unique('New'), kind: kind.id } })
      expect([pointing.status, pointing.body]).toEqual([400, { kind: ['This Crate kind is in the Trash.'] }])
      const other = await make(t.current, KINDS, { name: unique('Other') })
      const live = await make(t.current, CRATES, { name: unique('Live'), kind: other.id })
      const moved = await t.current.call({ method: 'PUT', url: `${CRATES}/update/${live.id}`, payload: { kind: kind.id }, headers: { 'accept-language': 'ar' } })
      expect([moved.status, moved.body]).toEqual([400, { kind: ['هذا السجل (Crate kind) موجود في سلة المحذوفات.'] }])

      // The crate cannot come back before its kind does.
      const early = await t.current.call({ method: 'POST', url: `${CRATES}/restore/`, payload: { ids: [box.id] } })
      expect([early.status, early.body]).toEqual([409, { detail: `Crate '${box.name}' cannot be restored: its Kind is in the Trash. Restore that first.` }])
      expect((await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, payload: { ids: [kind.id] } })).status).toBe(200)
      expect((await t.current.call({ method: 'POST', url: `${CRATES}/restore/`, payload: { ids: [box.id] } })).status).toBe(200)
      expect((await t.current.call({ method: 'GET', url: `${CRATES}/${box.id}` })).body).toMatchObject({ kind: kind.id, _labels: { kind: kind.name } })
    })

    it('takes what cascades into the Trash with the row, clears and unlinks what referred to it, and puts it all back on Undo', async () => {
      const kind = await make(t.current, KINDS, { name: unique('Bin') })
      const tag = await make(t.current, TAGS, { name: unique('Fragile') })
      const keep = await make(t.current, TAGS, { name: unique('Dry') })
      const outer = await make(t.current, CRATES, { name: unique('Outer'), kind: kind.id, tags: [tag.id, keep.id] })
      const inner = await make(t.current, CRATES, { name: unique('Inner'), kind: kind.id, parent: outer.id })
      const label = await make(t.current, LABELS, { name: unique('Label'), kind: kind.id })

      // A tag goes: its crates lose it (audited), and get it back on Undo.
      const untag = await t.current.call({ method: 'DELETE', url: `${TAGS}/delete/${tag.id}` })
      expect((await t.current.call({ method: 'GET', url: `${CRATES}/${outer.id}` })).body.tags).toEqual([keep.id])
      expect((await t.current.call({ method: 'POST', url: `${TAGS}/restore/`, payload: { batch: untag.body.batch } })).status).toBe(200)
      expect((await t.current.call({ method: 'GET', url: `${CRATES}/${outer.id}` })).body.tags).toEqual([tag.id, keep.id].sort((x, y) => x - y))

      // A crate goes with the crates inside it.
      const impact = await t.current.call({ method: 'GET', url: `${CRATES}/delete_impact/${outer.id}` })
      expect(impact.body.references).toEqual([{ entity: 'crate', field: 'parent', count: 1, effect: 'delete' }])
      const gone = await t.current.call({ method: 'DELETE', url: `${CRATES}/delete/${outer.id}` })
      expect(gone.status, gone.raw).toBe(200)
      for (const id of [outer.id, inner.id]) expect((await t.current.call({ method: 'GET', url: `${CRATES}/${id}` })).status).toBe(404)
      // The label's kind is cleared by a kind's delete, and put back by a restore by ids too.
      const cleared = await t.current.call({ method: 'DELETE', url: `${KINDS}/delete/${kind.id}` })
      expect(cleared.status, cleared.raw).toBe(200)
      expect((await t.current.call({ method: 'GET', url: `${LABELS}/${label.id}` })).body.kind).toBeNull()
      const audit = await sql<{ changes: unknown; batch: string }>`select changes, batch::text as batch from audit_log where entity = 'crate_label' and entity_id = ${label.id} and action = 'update'`.execute(t.current.db)
      expect(audit.rows).toEqual([{ changes: { kind: [kind.id, null] }, batch: cleared.body.batch }])
      expect((await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, payload: { ids: [kind.id] } })).status).toBe(200)
      expect((await t.current.call({ method: 'GET', url: `${LABELS}/${label.id}` })).body.kind).toBe(kind.id)

      const back = await t.current.call({ method: 'POST', url: `${CRATES}/restore/`, payload: { batch: gone.body.batch } })
      expect(back.body.ids).toEqual([outer.id, inner.id].sort((x, y) => x - y))
      expect((await t.current.call({ method: 'GET', url: `${CRATES}/${inner.id}` })).body.parent).toBe(outer.id)
    })

    it('keeps list totals exact through deletes and restores, filtered or not', async () => {
      const word = unique('Counted').replace(' ', '')
      const made = [await make(t.current, KINDS, { name: `${word} a` }), await make(t.current, KINDS, { name: `${word} b` })]
      const total = async (query = '') => (await listed(t.current, KINDS, 'crate_kinds', query)).total
      const [all, mine] = [await total(), await total(`&q=${word}`)]
      expect(mine).toBe(2)
      const del = await t.current.call({ method: 'DELETE', url: `${KINDS}/delete/${made[0]!.id}` })
      expect([await total(), await total(`&q=${word}`)]).toEqual([all - 1, 1])
      await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, payload: { batch: del.body.batch } })
      expect([await total(), await total(`&q=${word}`)]).toEqual([all, 2])
    })

    it('deletes for good only with <PREFIX>_PURGE: the engine’s delete, refused while a row of the Trash still refers', async () => {
      const kind = await make(t.current, KINDS, { name: unique('Sack') })
      const sack = await make(t.current, CRATES, { name: unique('Sack crate'), kind: kind.id })
      await t.current.call({ method: 'DELETE', url: `${CRATES}/delete/${sack.id}` })
      await t.current.call({ method: 'DELETE', url: `${KINDS}/delete/${kind.id}` })

      const deleter = await callerWith(t.current, ['CRATE_KIND_DELETE'])
      expect((await deleter({ method: 'GET', url: `${KINDS}/trash/` })).status).toBe(200)
      const forbidden = await deleter({ method: 'DELETE', url: `${KINDS}/purge/`, payload: { ids: [kind.id] } })
      expect([forbidden.status, forbidden.body]).toEqual([403, { detail: 'You don\'t have these permissions [CRATE_KIND_PURGE]' }])
      const reader = await callerWith(t.current, ['CRATE_KIND_LIST', 'CRATE_KIND_PURGE'])
      for (const call of [{ method: 'GET' as const, url: `${KINDS}/trash/` }, { method: 'POST' as const, url: `${KINDS}/restore/`, payload: { ids: [kind.id] } }]) {
        expect((await reader(call)).status, call.url).toBe(403)
      }
      expect((await t.current.call({ method: 'GET', url: `${KINDS}/trash/`, asAnonymous: true })).status).toBe(401)

      const purger = await callerWith(t.current, ['CRATE_KIND_PURGE'])
      const held = await purger({ method: 'DELETE', url: `${KINDS}/purge/`, payload: { ids: [kind.id] } })
      expect([held.status, held.body]).toEqual([409, { detail: `Crate kind '${kind.name}' cannot be deleted: one of the Crates refers to it.` }])
      expect((await t.current.call({ method: 'DELETE', url: `${CRATES}/purge/`, payload: { ids: [sack.id] } })).body).toEqual({ detail: `Crates deleted for good: [${sack.id}]` })
      const purged = await purger({ method: 'DELETE', url: `${KINDS}/purge/`, payload: { ids: [kind.id] } })
      expect([purged.status, purged.body]).toEqual([200, { detail: `Crate kinds deleted for good: [${kind.id}]` }])
      expect((await sql`select 1 from crate_kind where id = ${kind.id}`.execute(t.current.db)).rows).toEqual([])
      const audit = await sql<{ action: string }>`select action from audit_log where entity = 'crate_kind' and entity_id = ${kind.id} order by id`.execute(t.current.db)
      expect(audit.rows.map((r) => r.action)).toEqual(['create', 'delete', 'purge'])
      // A row not in the Trash is not purged.
      const live = await make(t.current, KINDS, { name: unique('Live') })
      expect((await t.current.call({ method: 'DELETE', url: `${KINDS}/purge/`, payload: { ids: [live.id] } })).status).toBe(404)
    })

    it('bounds what restore and purge take: 400 {detail} for a malformed body, too many ids, or no uuid', async () => {
      const bodies: unknown[] = [undefined, {}, { ids: [] }, { ids: ['x'] }, { ids: Array.from({ length: MAX_IDS + 1 }, (_, i) => i + 1) }, { batch: 'nope' }, { batch: 5 }, { ids: [1], batch: '00000000-0000-4000-8000-000000000000', extra: 1 }, [1, 2]]
      for (const payload of bodies) {
        const restore = await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, ...(payload === undefined ? {} : { payload: payload as never }) })
        expect(restore.status, JSON.stringify(payload)).toBe(400)
        expect(restore.body).toEqual({ detail: expect.any(String) })
      }
      for (const payload of [{}, { ids: [] }, { batch: '00000000-0000-4000-8000-000000000000' }]) {
        expect((await t.current.call({ method: 'DELETE', url: `${KINDS}/purge/`, payload })).status, JSON.stringify(payload)).toBe(400)
      }
      const unknown = await t.current.call({ method: 'POST', url: `${KINDS}/restore/`, payload: { batch: '00000000-0000-4000-8000-000000000000' } })
      expect(unknown.status).toBe(404)
      const nul = await t.current.call({ method: 'GET', url: `${KINDS}/trash/?q=a%00b` })
      expect(nul.status).toBe(400)
      const paged = await t.current.call({ method: 'GET', url: `${KINDS}/trash/?page=999&size=2` })
      expect(paged.body).toMatchObject({ size: 2, page: paged.body.total_pages })
    })

    describe('of the app’s Districts', () => {
      const district = async (name = unique('Sylhet')) => {
        const { row: country } = await createSample(t.current, registry.country)
        const city = await createRow(t.current, registry.city, { ...sampleInput(registry.city, {}), name, country: country.id })
        return { country: country.id as number, id: city.id as number, name: city.name as string }
      }

      it('deletes a District to the Trash with the contract’s words, out of lists, pickers and police stations', async () => {
        const city = await district()
        const del = await t.current.call({ method: 'DELETE', url: `${CITIES}/delete/${city.id}` })
        expect(del.body).toEqual({ detail: `City id - ${city.id} is deleted successfully`, batch: expect.stringMatching(UUID) })
        const tr = await district()
        const trDel = await t.current.call({ method: 'DELETE', url: `${CITIES}/delete/${tr.id}`, headers: { 'accept-language': 'tr' } })
        expect(trDel.body.detail).toBe(`${tr.id} numaralı İlçe silindi.`)
        // The picker of a police station's District asks `all/?q=`.
        const picker = await t.current.call({ method: 'GET', url: `${CITIES}/all/?q=${encodeURIComponent(city.name)}&size=20` })
        expect(picker.body.cities).toEqual([])
        expect((await t.current.call({ method: 'GET', url: `${CITIES}/${city.id}` })).status).toBe(404)
        const thana = await t.current.call({ method: 'POST', url: `${registry.thana.api.base}/create/`, payload: { ...sampleInput(registry.thana, {}), city: city.id } })
        expect([thana.status, thana.body]).toEqual([400, { city: ['This District is in the Trash.'] }])
        expect((await t.current.call({ method: 'GET', url: `${registry.thana.api.base}/all_thana_by_city_id/${city.id}` })).body.thanas).toEqual([])

        // Its name is free within its country, until it comes back.
        const again = await createRow(t.current, registry.city, { ...sampleInput(registry.city, {}), name: city.name, country: city.country })
        const refused = await t.current.call({ method: 'POST', url: `${CITIES}/restore/`, payload: { batch: del.body.batch } })
        expect([refused.status, refused.body]).toEqual([409, { detail: `District '${city.name}' cannot be restored: another record has its Name (${city.name}) now.` }])
        await t.current.call({ method: 'DELETE', url: `${CITIES}/delete/${again.id}` })
        expect((await t.current.call({ method: 'POST', url: `${CITIES}/restore/`, payload: { batch: del.body.batch } })).body.ids).toEqual([city.id])
      })

      it('refuses to trash a District police stations refer to, as a delete does; clears a branch’s and puts it back', async () => {
        const city = await district()
        const thana = await createRow(t.current, registry.thana, { ...sampleInput(registry.thana, {}), city: city.id })
        const del = await t.current.call({ method: 'DELETE', url: `${CITIES}/delete/${city.id}` })
        expect([del.status, del.body]).toEqual([409, { detail: `District '${city.name}' cannot be deleted: one of the Police Stations refers to it.` }])
        expect((await t.current.call({ method: 'DELETE', url: `${registry.thana.api.base}/delete/${thana.id}` })).status).toBe(200)

        const branch = await createRow(t.current, registry.branch, { ...sampleInput(registry.branch, {}), city: city.id, country: city.country, thana: null })
        const gone = await t.current.call({ method: 'DELETE', url: `${CITIES}/delete_multiple/`, payload: { ids: [city.id] } })
        expect(gone.body).toEqual({ detail: `City ids - [${city.id}] deleted successfully`, batch: expect.stringMatching(UUID) })
        expect((await t.current.call({ method: 'GET', url: `${registry.branch.api.base}/${branch.id}` })).body.city).toBeNull()
        // Its country may go too now (a trashed District does not hold it), but the District cannot come back alone.
        expect((await t.current.call({ method: 'DELETE', url: `${registry.country.api.base}/delete/${city.country}` })).status).toBe(200)
        const alone = await t.current.call({ method: 'POST', url: `${CITIES}/restore/`, payload: { ids: [city.id] } })
        expect([alone.status, alone.body]).toEqual([409, { detail: `District '${city.name}' cannot be restored: its Country is in the Trash. Restore that first.` }])
        expect((await t.current.call({ method: 'POST', url: `${registry.country.api.base}/restore/`, payload: { ids: [city.country] } })).status).toBe(200)
        expect((await t.current.call({ method: 'POST', url: `${CITIES}/restore/`, payload: { batch: gone.body.batch } })).status).toBe(200)
        expect((await t.current.call({ method: 'GET', url: `${registry.branch.api.base}/${branch.id}` })).body.city).toBe(city.id)
        // The police station in the Trash keeps its District, by name.
        const station = (await trashed(t.current, registry.thana.api.base, 'thanas')).rows.find((r) => r.id === thana.id)
        expect(station?.city).toEqual({ id: city.id, name: city.name })
      })

      it('purges a District for good with CITY_PURGE (ADMIN’s and STAFF’s)', async () => {
        const city = await district()
        await t.current.call({ method: 'DELETE', url: `${CITIES}/delete/${city.id}` })
        const granted = await sql<{ name: string }>`select r.name from role r join role_permissions rp on rp.owner_id = r.id join permission p on p.id = rp.target_id
          where p.name = 'CITY_PURGE' order by r.name`.execute(t.current.db)
        expect(granted.rows.map((r) => r.name)).toEqual(['ADMIN', 'STAFF'])
        expect((await t.current.call({ method: 'DELETE', url: `${CITIES}/purge/`, payload: { ids: [city.id] } })).status).toBe(200)
        expect((await sql`select 1 from city where id = ${city.id}`.execute(t.current.db)).rows).toEqual([])
      })
    })

    it('trashes a category with its sub categories in one batch (the contract’s cascade), out of the level lists, and restores them together', async () => {
      const CATEGORIES = registry.category.api.base
      const parent = await createRow(t.current, registry.category, { ...sampleInput(registry.category, {}), name: unique('Garden'), parent: null })
      const child = await createRow(t.current, registry.category, { ...sampleInput(registry.category, {}), name: unique('Tools'), parent: parent.id })
      const del = await t.current.call({ method: 'DELETE', url: `${CATEGORIES}/delete/${parent.id}` })
      expect(del.status).toBe(200)
      const inTrash = (await trashed(t.current, CATEGORIES, 'categorys')).rows.map((r) => r.id)
      expect(inTrash).toEqual(expect.arrayContaining([parent.id, child.id]))
      const parents = await t.current.call({ method: 'GET', url: `${CATEGORIES}/get_all_parent_category_without_pagination/` })
      expect(parents.body.parent_categories.map((r: { id: number }) => r.id)).not.toContain(parent.id)
      expect((await t.current.call({ method: 'POST', url: `${CATEGORIES}/restore/`, payload: { batch: del.body.batch } })).body.ids).toEqual(expect.arrayContaining([parent.id, child.id]))
      const subs = await t.current.call({ method: 'GET', url: `${CATEGORIES}/get_all_sub_category_by_category_id_without_pagination/${parent.id}` })
      expect(subs.body.sub_categories.map((r: { id: number }) => r.id)).toEqual([child.id])
    })

    it('keeps a trashed payment method out of its list, and the start-up seed neither brings it back nor fails on it', async () => {
      const METHODS = registry.payment_method.api.base
      const card = (await sql<{ id: number }>`select id from payment_method where name = 'card'`.execute(t.current.db)).rows[0]!
      expect((await t.current.call({ method: 'DELETE', url: `${METHODS}/delete/${card.id}` })).status).toBe(200)
      const { seedPaymentMethods } = await import('../../server/domain/membership/payment-method-seed')
      await seedPaymentMethods(t.current.db)
      const cards = await sql<{ id: number; deleted_at: unknown }>`select id, deleted_at from payment_method where name = 'card'`.execute(t.current.db)
      expect(cards.rows).toEqual([{ id: card.id, deleted_at: expect.anything() }])
      expect((await t.current.call({ method: 'GET', url: `${METHODS}/all/?size=100` })).body.paymentmethods.map((r: { name: string }) => r.name)).not.toContain('card')
      expect((await t.current.call({ method: 'POST', url: `${METHODS}/restore/`, payload: { ids: [card.id] } })).status).toBe(200)
    })
  },
  { entities: testEntities },
)

describe('the sync of a table given a Trash', () => {
  const plain = defineEntity({ ...crateKindConfig(), trash: false })
  const withTrash = defineEntity({ ...crateKindConfig(), trash: true })
  for (const kind of databaseKinds) {
    it.skipIf(!isAvailable(kind))(`adds its columns and makes its values unique outside it, keeping the rows; refuses to take it away while rows are in it [${kind}]`, async () => {
      const connection = await freshDatabase(kind)
      try {
        const db = connection.db
        await migrate(db, [...entities, plain])
        await sql`insert into crate_kind (name) values ('A'), ('B')`.execute(db)
        const result = await migrate(db, [...entities, withTrash])
        expect(result.applied).toEqual(
          expect.arrayContaining(['add column crate_kind.deleted_at', 'add column crate_kind.deleted_by', "drop unique crate_kind.name (the Trash's takes its place)", 'unique crate_kind.name outside the Trash']),
        )
        expect((await sql<{ name: string }>`select name from crate_kind order by name`.execute(db)).rows).toEqual([{ name: 'A' }, { name: 'B' }])
        expect(await migrate(db, [...entities, withTrash])).toEqual({ applied: [], notices: [] })
        await sql`update crate_kind set deleted_at = now() where name = 'A'`.execute(db)
        await sql`insert into crate_kind (name) values ('A')`.execute(db)
        const refused = await migrate(db, [...entities, plain]).catch((e: unknown) => e)
        expect(refused).toBeInstanceOf(MigrationRefusedError)
        expect((refused as MigrationRefusedError).problems).toContainEqual('crate_kind has 1 row(s) in its Trash but the registry no longer gives it one: restore or purge them first (or write a migration that decides)')
      } finally {
        await connection.close()
      }
    })
  }
})

function crateKindConfig() {
  return { name: 'crate_kind', module: 'test', listKey: 'crate_kinds', route: { area: 'crateKind-management', list: 'crateKinds' }, fields: { name: f.text({ max: 50, required: true, search: true, unique: true }) }, nav: false as const }
}
