import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { checkRegistry, entities, registry } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { navigationEntries } from '../../schema/navigation'
import { signToken } from '../../server/auth/tokens'
import { branchNote, deliveryNote, stockTransfer, throwawayEntities } from '../support/throwaway-registry'
import { JWT_SECRET, describeEachDatabase, type Reply, type TestApp } from './helpers/app'
import { createRow } from './helpers/samples'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'

/**
 * List views, `field__in` and the caller's attributes (issue 18 §4), for entities defined at
 * run time: several lists of one entity, each with its address and menu entry, whose filter
 * the server applies whatever else is asked; any of several values in `search/`; and a row
 * scope on the caller's branch — "my branch's notes" — that no filter can lift.
 */
const TRANSFERS = stockTransfer.api.base
const options = throwawayApp

useThrowawayLabels()

describe('list views in the registry', () => {
  it('gives each view its address, its filter, its columns and a menu entry in the entity’s group', () => {
    expect(stockTransfer.views.drafts).toMatchObject({ label: 'view.stock_transfer.drafts', filter: { status: 'draft' }, columns: ['number', 'note', 'value'], ui: { listPath: '/apps/stockTransfer-management/drafts' } })
    expect(stockTransfer.views.moving!.ui.listPath).toBe('/apps/transfersInMotion-management/transfers')
    const entries = navigationEntries(throwawayEntities)
    expect(entries.find((e) => e.key === 'view:stock_transfer.moving')).toMatchObject({ url: '/apps/transfersInMotion-management/transfers', parent: 'group:settings', permission: 'STOCK_TRANSFER_LIST', label: 'view.stock_transfer.moving' })
    expect(entries.some((e) => e.key === 'view:delivery_note.north')).toBe(false)
  })

  it('is refused by the start-up check when it filters by what a list cannot, or clashes with a route', () => {
    const broken = defineEntity({
      name: 'broken_view', module: 'test', listKey: 'broken_views', route: { area: 'brokenView-management', list: 'brokenViews' },
      fields: { name: f.text({ required: true, search: true }), state: f.choice(['a', 'b']) },
      views: { bad: { route: { area: 'brokenView-management', list: 'brokenViews' }, filter: { name: 'x', state: 'c' } as never }, empty: { route: { area: 'x-management', list: 'y' }, filter: {} } },
    })
    expect(checkRegistry([...entities, broken]).filter((p) => p.entity === 'broken_view' && !p.message.includes('translation')).map((p) => p.message)).toEqual([
      "duplicate list route of the view 'bad' '/apps/brokenView-management/brokenViews' (also used by 'broken_view')",
      "view 'bad': it filters by 'name', which is not a stored field a list can be filtered by",
      "view 'bad': it filters 'state' by a value that is not one of its choices (a, b)",
      "view 'empty': it filters nothing: a view lists some of the rows",
    ])
  })
})

async function employeeOf(t: TestApp, branch: number): Promise<(o: Parameters<TestApp['call']>[0]) => Promise<Reply>> {
  const name = `E${Math.floor(Math.random() * 1e9)}`
  const role = await sql<{ id: number }>`insert into role (name) values (${name}) returning id`.execute(t.db)
  await sql`insert into role_permissions (owner_id, target_id) select ${role.rows[0]!.id}, id from permission where name like 'BRANCH_NOTE_%'`.execute(t.db)
  const id = await t.createUser({ email: `${name.toLowerCase()}@example.com` })
  await sql`update "user" set role = ${role.rows[0]!.id} where id = ${id}`.execute(t.db)
  await sql`insert into employee (id, branch) values (${id}, ${branch})`.execute(t.db)
  const token = await signToken(JWT_SECRET, id)
  return (o) => t.call({ ...o, headers: { authorization: `Bearer ${token}`, ...(o.headers as Record<string, string>) } })
}

describeEachDatabase(
  'list views and caller attributes',
  (t) => {
    let place: number
    const numbersOf = (r: Reply) => r.body.stock_transfers.map((x: { number: string }) => x.number).sort()
    const made: Record<string, string> = {}
    beforeAll(async () => {
      const country = await createRow(t.current, registry.country, { name: `Viewland ${Math.random()}` })
      place = Number((await createRow(t.current, registry.city, { name: `North`, country: country.id })).id)
      for (const state of ['draft', 'confirmed', 'cancelled']) {
        const r = await t.current.call({ method: 'POST', url: `${TRANSFERS}/create/`, payload: { note: `View ${state}`, items: [{ gadget: place, quantity: 1 }] } })
        made[state] = r.body.number
        if (state !== 'draft') await t.current.call({ method: 'POST', url: `${TRANSFERS}/${state === 'confirmed' ? 'confirm' : 'cancel'}/${r.body.id}` })
      }
    })

    it('lists a view’s rows on all/, search/ and without_pagination/ — its filter held whatever else is asked — and counts them alike', async () => {
      const drafts = await t.current.call({ method: 'GET', url: `${TRANSFERS}/all/?view=drafts&q=View` })
      expect(drafts.status, drafts.raw).toBe(200)
      expect(numbersOf(drafts)).toEqual([made.draft])
      expect(drafts.body.total_elements).toBe(1)
      const moving = await t.current.call({ method: 'GET', url: `${TRANSFERS}/search/?view=moving&q=View` })
      expect(numbersOf(moving)).toEqual([made.draft, made.confirmed].sort())
      // A filter of the list narrows the view; it cannot widen it.
      const narrowed = await t.current.call({ method: 'GET', url: `${TRANSFERS}/search/?view=drafts&status=confirmed` })
      expect(narrowed.body).toMatchObject({ stock_transfers: [], total_elements: 0 })
      const whole = await t.current.call({ method: 'GET', url: `${TRANSFERS}/without_pagination/all/?view=moving&q=View` })
      expect(numbersOf(whole)).toEqual(numbersOf(moving))
      const unknown = await t.current.call({ method: 'GET', url: `${TRANSFERS}/all/?view=nope` })
      expect(unknown.status).toBe(400)
      expect(unknown.body).toEqual({ detail: "There is no list view 'nope' here (views: drafts, moving)." })
    })

    it('filters a reference by its row’s name in a view (the notes to the North depot), a document kept one row per line too', async () => {
      const note = (depot: number) => ({ note_date: '2026-05-04', depot, items: [{ gadget: depot, quantity: 1 }] })
      const other = Number((await createRow(t.current, registry.city, { name: `South ${Math.random()}`, country: (await createRow(t.current, registry.country, { name: `C ${Math.random()}` })).id })).id)
      const north = (await t.current.call({ method: 'POST', url: `${deliveryNote.api.base}/create/`, payload: note(place) })).body
      await t.current.call({ method: 'POST', url: `${deliveryNote.api.base}/create/`, payload: note(other) })
      const r = await t.current.call({ method: 'GET', url: `${deliveryNote.api.base}/all/?view=north&size=100` })
      expect(r.body.delivery_notes.map((x: { number: string }) => x.number)).toContain(north.number)
      expect(r.body.delivery_notes.every((x: { depot: { name: string } }) => x.depot.name === 'North')).toBe(true)
    })

    it('takes any of several values with field__in, checked, bounded, on search/ and all/', async () => {
      const both = await t.current.call({ method: 'GET', url: `${TRANSFERS}/search/?status__in=draft,cancelled&q=View` })
      expect(both.status, both.raw).toBe(200)
      expect(numbersOf(both)).toEqual([made.draft, made.cancelled].sort())
      expect(numbersOf(await t.current.call({ method: 'GET', url: `${TRANSFERS}/all/?status__in=confirmed&q=View` }))).toEqual([made.confirmed])
      const bad = await t.current.call({ method: 'GET', url: `${TRANSFERS}/search/?status__in=draft,shipped` })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.body)).toEqual(['status__in'])
      const many = await t.current.call({ method: 'GET', url: `${TRANSFERS}/search/?id__in=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}` })
      expect(many.status).toBe(400)
      const cities = await t.current.call({ method: 'GET', url: `${registry.city.api.base}/search/?id__in=${place},999999999` })
      expect(cities.body.cities.map((c: { id: number }) => c.id)).toEqual([place])
    })

    it('scopes rows by the caller’s branch, loaded with them: other branches’ rows are not there for any list, read or write', async () => {
      const [a, b] = [
        Number((await createRow(t.current, registry.branch, { name: `Branch A ${Math.random()}` })).id),
        Number((await createRow(t.current, registry.branch, { name: `Branch B ${Math.random()}` })).id),
      ]
      const ours = (await t.current.call({ method: 'POST', url: `${branchNote.api.base}/create/`, payload: { name: 'Open at nine', branch: a } })).body
      const theirs = (await t.current.call({ method: 'POST', url: `${branchNote.api.base}/create/`, payload: { name: 'Closed on Friday', branch: b } })).body
      const clerk = await employeeOf(t.current, a)
      const list = await clerk({ method: 'GET', url: `${branchNote.api.base}/all/` })
      expect(list.body.branch_notes.map((n: { id: number }) => n.id)).toEqual([ours.id])
      expect((await clerk({ method: 'GET', url: `${branchNote.api.base}/search/?branch=${b}` })).body.branch_notes).toEqual([])
      expect((await clerk({ method: 'GET', url: `${branchNote.api.base}/${theirs.id}` })).status).toBe(404)
      expect((await clerk({ method: 'PUT', url: `${branchNote.api.base}/update/${theirs.id}`, payload: { name: 'Mine now' } })).status).toBe(404)
      expect((await clerk({ method: 'DELETE', url: `${branchNote.api.base}/delete/${theirs.id}` })).status).toBe(404)
      // A user who is no employee has no branch: none of the notes.
      const outsider = await t.current.createUser({ email: `outsider${Math.floor(Math.random() * 1e9)}@example.com` })
      await sql`update "user" set role = (select role from "user" u join employee e on e.id = u.id order by u.id desc limit 1) where id = ${outsider}`.execute(t.current.db)
      const token = await signToken(JWT_SECRET, outsider)
      const none = await t.current.call({ method: 'GET', url: `${branchNote.api.base}/all/`, headers: { authorization: `Bearer ${token}` } })
      expect(none.body.branch_notes).toEqual([])
    })
  },
  options,
)
