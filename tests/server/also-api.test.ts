import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { catalogues } from '../../server/i18n'
import { callerWith, describeEachDatabase } from './helpers/app'

/**
 * One resource the original served from two apps (`alsoApi`: the donation app's
 * `/payment_method/…` and the shop's `/paymentmethod/…`), for an entity defined at run time: its
 * whole API answers at both bases, over the same rows, behind the same permissions.
 */
const gizmo = defineEntity({
  name: 'gizmo_item',
  module: 'test',
  listKey: 'gizmo_items',
  ordering: '-id',
  route: { area: 'gizmoItem-management', list: 'gizmoItems' },
  fields: {
    name: f.text({ max: 40, required: true, search: true, unique: true }),
    note: f.text({ max: 100, label: 'field.details' }),
  },
  alsoApi: ['gizmoitem'],
})
/** Another app gives one of its paths another meaning: that route is left out at that base (`except`). */
const gizmoPart = defineEntity({
  name: 'gizmo_part',
  module: 'test',
  listKey: 'gizmo_parts',
  route: { area: 'gizmoPart-management', list: 'gizmoParts' },
  fields: { name: f.text({ max: 40, required: true, search: true }) },
  alsoApi: [{ name: 'gizmopart', except: ['create', 'delete'] }],
})
const withGizmo = [...entities, gizmo, gizmoPart]
const BASE = '/gizmo_item/api/v1/gizmo_item'
const OTHER = '/gizmoitem/api/v1/gizmoitem'

const labels = { gizmo_item: { one: 'Gizmo', other: 'Gizmos' }, gizmo_part: { one: 'Gizmo part', other: 'Gizmo parts' } }
beforeAll(() => {
  for (const catalogue of Object.values(catalogues)) Object.assign(catalogue.entity as Record<string, unknown>, labels)
})
afterAll(() => {
  for (const catalogue of Object.values(catalogues)) for (const name of Object.keys(labels)) delete (catalogue.entity as Record<string, unknown>)[name]
})

describe('an entity answering under another name too', () => {
  it('knows both bases, its own first', () => {
    expect(gizmo.api).toMatchObject({ base: BASE, bases: [BASE, OTHER] })
  })
})

describeEachDatabase(
  'an entity’s API at another base (alsoApi)',
  (t) => {
    let n = 0
    const name = () => `Gizmo ${t.current.kind} ${++n}`

    it('reads, lists, searches, changes and deletes at one base what was written at the other', async () => {
      const made = await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload: { name: name(), note: 'made at the base' } })
      expect(made.status, made.raw).toBe(201)
      const read = await t.current.call({ method: 'GET', url: `${OTHER}/${made.body.id}` })
      expect(read.status, read.raw).toBe(200)
      expect(read.body).toEqual((await t.current.call({ method: 'GET', url: `${BASE}/${made.body.id}` })).body)
      const listed = await t.current.call({ method: 'GET', url: `${OTHER}/all/` })
      expect(listed.status, listed.raw).toBe(200)
      expect(listed.body.gizmo_items.map((r: { id: number }) => r.id)).toContain(made.body.id)
      const found = await t.current.call({ method: 'GET', url: `${OTHER}/search/?q=${encodeURIComponent(made.body.name)}` })
      expect(found.body.gizmo_items.map((r: { id: number }) => r.id)).toEqual([made.body.id])

      // Written at the other base: the same table, read back at the first.
      const other = await t.current.call({ method: 'POST', url: `${OTHER}/create/`, payload: { name: name(), note: 'made at the other base' } })
      expect(other.status, other.raw).toBe(201)
      expect((await t.current.call({ method: 'GET', url: `${BASE}/${other.body.id}` })).body).toMatchObject({ id: other.body.id, note: 'made at the other base' })
      const changed = await t.current.call({ method: 'PATCH', url: `${OTHER}/update/${made.body.id}`, payload: { note: 'changed at the other base' } })
      expect(changed.status, changed.raw).toBe(200)
      expect((await t.current.call({ method: 'GET', url: `${BASE}/${made.body.id}` })).body.note).toBe('changed at the other base')
      // Its rules hold there too: the same name twice is refused.
      const twice = await t.current.call({ method: 'POST', url: `${OTHER}/create/`, payload: { name: made.body.name } })
      expect(twice.status, twice.raw).toBe(400)
      expect(Object.keys(twice.body)).toEqual(['name'])

      expect((await t.current.call({ method: 'DELETE', url: `${OTHER}/delete/${made.body.id}` })).status).toBe(200)
      expect((await t.current.call({ method: 'GET', url: `${BASE}/${made.body.id}` })).status).toBe(404)
      expect((await t.current.call({ method: 'DELETE', url: `${OTHER}/delete_multiple/`, payload: { ids: [other.body.id] } })).status).toBe(200)
      expect((await t.current.call({ method: 'GET', url: `${BASE}/${other.body.id}` })).status).toBe(404)
    })

    it('guards the other base as its own: 401 without a token, 403 without the permission the route needs', async () => {
      const made = await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload: { name: name() } })
      const id = made.body.id as number
      const routes = [
        { method: 'GET', url: `${OTHER}/all/`, permission: 'LIST' },
        { method: 'GET', url: `${OTHER}/search/?q=x`, permission: 'LIST' },
        { method: 'GET', url: `${OTHER}/${id}`, permission: 'DETAILS' },
        { method: 'POST', url: `${OTHER}/create/`, payload: { name: name() }, permission: 'CREATE' },
        { method: 'PUT', url: `${OTHER}/update/${id}`, payload: { name: name() }, permission: 'UPDATE' },
        { method: 'DELETE', url: `${OTHER}/delete/${id}`, permission: 'DELETE' },
      ] as const
      const nobody = await callerWith(t.current, [])
      for (const route of routes) {
        const request = { method: route.method, url: route.url, payload: 'payload' in route ? route.payload : undefined }
        const anonymous = await t.current.call({ ...request, asAnonymous: true })
        expect(anonymous.status, `${route.method} ${route.url} without a token`).toBe(401)
        const refused = await nobody(request)
        expect(refused.status, `${route.method} ${route.url} without permissions`).toBe(403)
        expect(refused.body).toEqual({ detail: `You don't have these permissions [GIZMO_ITEM_${route.permission}]` })
      }

      // A reader reads at the other base and no more: its writes are refused there as at the first.
      const reader = await callerWith(t.current, ['GIZMO_ITEM_LIST', 'GIZMO_ITEM_DETAILS'])
      expect((await reader({ method: 'GET', url: `${OTHER}/all/` })).status).toBe(200)
      expect((await reader({ method: 'GET', url: `${OTHER}/${id}` })).body).toMatchObject({ id })
      for (const url of [`${OTHER}/create/`, `${BASE}/create/`]) {
        const create = await reader({ method: 'POST', url, payload: { name: name() } })
        expect(create.status, url).toBe(403)
        expect(create.body).toEqual({ detail: "You don't have these permissions [GIZMO_ITEM_CREATE]" })
      }
      const remove = await reader({ method: 'DELETE', url: `${OTHER}/delete/${id}` })
      expect(remove.status).toBe(403)
      expect((await t.current.call({ method: 'GET', url: `${BASE}/${id}` })).status).toBe(200)
      // One allowed to create does so at the other base.
      const maker = await callerWith(t.current, ['GIZMO_ITEM_CREATE'])
      const created = await maker({ method: 'POST', url: `${OTHER}/create/`, payload: { name: name() } })
      expect(created.status, created.raw).toBe(201)
    })

    it('leaves out at the other base the routes it excepts, and serves them at its own', async () => {
      const PARTS = '/gizmo_part/api/v1/gizmo_part'
      const OTHER_PARTS = '/gizmopart/api/v1/gizmopart'
      expect((await t.current.call({ method: 'POST', url: `${OTHER_PARTS}/create/`, payload: { name: 'Spring' } })).status).toBe(404)
      const made = await t.current.call({ method: 'POST', url: `${PARTS}/create/`, payload: { name: 'Spring' } })
      expect(made.status, made.raw).toBe(201)
      // The rest answers there.
      expect((await t.current.call({ method: 'GET', url: `${OTHER_PARTS}/${made.body.id}` })).body).toMatchObject({ id: made.body.id, name: 'Spring' })
      expect((await t.current.call({ method: 'PATCH', url: `${OTHER_PARTS}/update/${made.body.id}`, payload: { name: 'Coil' } })).status).toBe(200)
      expect((await t.current.call({ method: 'DELETE', url: `${OTHER_PARTS}/delete/${made.body.id}` })).status).toBe(404)
      expect((await t.current.call({ method: 'GET', url: `${PARTS}/${made.body.id}` })).body.name).toBe('Coil')
      expect((await t.current.call({ method: 'DELETE', url: `${PARTS}/delete/${made.body.id}` })).status).toBe(200)
    })
  },
  { entities: withGizmo },
)
