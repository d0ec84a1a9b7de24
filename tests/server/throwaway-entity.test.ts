import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import type { Catalogue } from '../../schema/check'
import { defineEntity, f } from '../../schema/kit'
import { introspect } from '../../server/db/introspect'
import { registrySchema } from '../../server/db/registry-schema'
import { catalogues } from '../../server/i18n'
import { describeEachDatabase, testApp } from './helpers/app'
import { databaseKinds, isAvailable } from './helpers/databases'
import { endpointSuite } from './helpers/endpoint-suite'
import { countRows, createReferences, createSample } from './helpers/samples'
import { tinyPng } from './helpers/images'
import { multipart } from './helpers/multipart'
import { validationSuite } from './helpers/validation-suite'

/**
 * "Adding an entity = one file and one line in the registry": an entity defined here, at
 * run time, with a field of every kind and a reference to city, gets its table, every
 * endpoint, validation and audit with no change anywhere else.
 *
 * Field labels reuse keys the catalogues already have. The entity's own label
 * (`entity.gadget.one/other`) and the option labels of its choice field cannot be reused,
 * so the test adds them to the loaded catalogues for its duration, as a new entity's
 * author adds them to the locale files.
 */
const gadget = defineEntity({
  name: 'gadget',
  module: 'test',
  listKey: 'gadgets',
  ordering: '-id',
  route: { area: 'gadget-management', list: 'gadgets' },
  fields: {
    name: f.text({ max: 40, required: true, search: true, normalize: 'title', unique: true }),
    contact_email: f.email({ search: true, label: 'field.email' }),
    phone: f.phone({ label: 'field.phone_code' }),
    url: f.url({ max: 200 }),
    quantity: f.integer({ min: 0, label: 'field.postal_code' }),
    price: f.money({ label: 'field.currency_code' }),
    is_active: f.boolean({ default: true }),
    launch_date: f.date({ label: 'field.short_desc' }),
    launched_at: f.datetime({ label: 'field.full_desc' }),
    status: f.choice(['draft', 'live', 'retired'], { default: 'draft', label: 'field.continent_code' }),
    city: f.ref('city', { required: true, label: 'field.district' }),
    cities: f.refs('city', { label: 'field.district' }),
    manual: f.file({ label: 'field.street_address_one' }),
    photo: f.image({ maxBytes: 1024, label: 'field.country_code2' }),
    specs: f.json({ label: 'field.street_address_two' }),
  },
  extraRoutes: [{ kind: 'listBy', path: 'all_gadget_by_city_id', field: 'city' }],
})
/** A second run-time entity that refers to the first: references resolve in the app's registry. */
const gadgetPart = defineEntity({
  name: 'gadget_part',
  module: 'test',
  listKey: 'gadget_parts',
  route: { area: 'gadget-management', list: 'gadget-parts' },
  fields: {
    name: f.text({ max: 40, required: true, search: true }),
    gadget: f.ref('gadget', { required: true, label: 'field.name' }),
  },
})
const withGadget = [...entities, gadget, gadgetPart]

const added: Record<string, Catalogue> = {
  entity: { gadget: { one: 'Gadget', other: 'Gadgets' }, gadget_part: { one: 'Gadget part', other: 'Gadget parts' } },
  option: { draft: 'Draft', live: 'Live', retired: 'Retired' },
}
const mutable = catalogues as unknown as Record<string, Record<string, Record<string, unknown>>>
beforeAll(() => {
  for (const lang of Object.keys(mutable)) {
    mutable[lang]!.entity = { ...mutable[lang]!.entity, ...(added.entity as object) }
    mutable[lang]!.option = { ...mutable[lang]!.option, ...(added.option as object) }
  }
})
afterAll(() => {
  for (const lang of Object.keys(mutable)) {
    delete (mutable[lang]!.entity as Record<string, unknown>).gadget
    delete (mutable[lang]!.entity as Record<string, unknown>).gadget_part
    for (const option of Object.keys(added.option as object)) delete (mutable[lang]!.option as Record<string, unknown>)[option]
  }
})

describe('a throwaway entity defined at run time', () => {
  for (const kind of databaseKinds) {
    it.runIf(isAvailable(kind))(`gets its table, join table, constraints and indexes [${kind}]`, async () => {
      const t = await testApp(kind, { entities: withGadget })
      try {
        const live = await introspect(t.db)
        const spec = registrySchema([gadget, gadgetPart])
        for (const table of spec.tables) {
          const columns = live.tables.get(table.name)
          expect(columns, table.name).toBeDefined()
          for (const c of table.columns) expect(columns!.get(c.name), `${table.name}.${c.name}`).toEqual({ type: c.type, notNull: c.notNull })
        }
        for (const fk of spec.foreignKeys) expect(live.constraints.has(fk.name), fk.name).toBe(true)
        for (const u of spec.uniques) expect(live.constraints.has(u.name), u.name).toBe(true)
        for (const ix of spec.indexes) expect(live.indexes.has(ix.name), ix.name).toBe(true)
      } finally {
        await t.close()
      }
    })
  }
})

describeEachDatabase(
  'throwaway entity endpoints',
  (t) => {
    endpointSuite(t, gadget, withGadget)
    validationSuite(t, gadget, withGadget)
    endpointSuite(t, gadgetPart, withGadget)
    validationSuite(t, gadgetPart, withGadget)

    describe('uploads (multipart with file parts)', () => {
      const png = tinyPng()
      const mediaFiles = () => (existsSync(join(t.current.mediaDir, 'gadget')) ? readdirSync(join(t.current.mediaDir, 'gadget')).sort() : [])
      let cityId: number
      beforeAll(async () => {
        cityId = (await createReferences(t.current, gadget, withGadget)).city!
      })

      it('stores an uploaded image under /media/<entity>/ and serves it back', async () => {
        const form = multipart({ name: 'with photo', city: String(cityId) }, [{ name: 'photo', filename: 'p.png', type: 'image/png', data: png }])
        const res = await t.current.call({ method: 'POST', url: '/gadget/api/v1/gadget/create/', ...form })
        expect(res.status, res.raw).toBe(201)
        expect(res.body.photo).toMatch(/^\/media\/gadget\/[0-9a-f-]{36}\.png$/)
        const served = await t.current.app.inject({ method: 'GET', url: res.body.photo })
        expect(served.statusCode).toBe(200)
        expect(served.rawPayload.equals(png)).toBe(true)

        // Sending the stored URL back keeps the file; any other string (an absolute URL of it too) is refused on that field.
        const kept = await t.current.call({ method: 'PUT', url: `/gadget/api/v1/gadget/update/${res.body.id}`, ...multipart({ photo: res.body.photo, quantity: '3' }) })
        expect(kept.status, kept.raw).toBe(200)
        expect(kept.body).toMatchObject({ photo: res.body.photo, quantity: 3 })
        const absolute = await t.current.call({ method: 'PUT', url: `/gadget/api/v1/gadget/update/${res.body.id}`, ...multipart({ photo: `http://localhost${res.body.photo}`, quantity: '4' }) })
        expect(absolute.status, absolute.raw).toBe(400)
        expect(Object.keys(absolute.body)).toEqual(['photo'])
      })

      it('refuses a file of the wrong type or too large with a 400 on that field, keeping nothing', async () => {
        const before = { rows: await countRows(t.current, 'gadget'), files: mediaFiles() }
        const cases = [
          { type: 'text/plain', data: Buffer.from('not an image') },
          { type: 'image/png', data: Buffer.alloc(2048, 1) },
        ]
        for (const file of cases) {
          const form = multipart({ name: 'bad photo', city: String(cityId) }, [{ name: 'photo', filename: 'x', ...file }])
          const res = await t.current.call({ method: 'POST', url: '/gadget/api/v1/gadget/create/', ...form })
          expect(res.status, file.type).toBe(400)
          expect(Object.keys(res.body)).toEqual(['photo'])
        }
        expect(await countRows(t.current, 'gadget')).toBe(before.rows)
        expect(mediaFiles()).toEqual(before.files)
      })

      it('removes the uploaded file again when the record is refused', async () => {
        const before = mediaFiles()
        const form = multipart({ city: String(cityId) }, [{ name: 'photo', filename: 'p.png', type: 'image/png', data: png }])
        const res = await t.current.call({ method: 'POST', url: '/gadget/api/v1/gadget/create/', ...form })
        expect(res.status).toBe(400)
        expect(Object.keys(res.body)).toEqual(['name'])
        expect(mediaFiles()).toEqual(before)
      })
    })

    it('refuses to delete a gadget that still has parts: 409 naming the referring entity', async () => {
      const part = await createSample(t.current, gadgetPart, {}, withGadget)
      const res = await t.current.call({ method: 'DELETE', url: `/gadget/api/v1/gadget/delete/${part.row.gadget}` })
      expect(res.status).toBe(409)
      expect(res.body).toEqual({ detail: expect.stringMatching(/^Gadget '.+' cannot be deleted: one of the Gadget parts refers to it\.$/) })
    })
  },
  { entities: withGadget },
)
