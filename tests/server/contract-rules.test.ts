import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { signToken } from '../../server/auth/tokens'
import { JWT_SECRET, describeEachDatabase, type TestApp } from './helpers/app'
import { multipart } from './helpers/multipart'
import { countRows, createReferences, createRow, createSample, renumberedBy, sampleInput, type AnyEntity } from './helpers/samples'

/** Rules of the contract beyond the generic CRUD shape (api-contract §2.4–2.6, §4.1–4.2). */
type AuditRow = { actor: number | null; entity: string; entity_id: number; action: string; changes: Record<string, [unknown, unknown]>; at: Date }

async function auditOf(t: TestApp, entity: string, entityId: number): Promise<AuditRow[]> {
  const r = await sql<AuditRow>`select actor, entity, entity_id, action, changes, at from audit_log
    where entity = ${entity} and entity_id = ${entityId} order by id`.execute(t.db)
  return r.rows
}

const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown

describeEachDatabase('contract rules', (t) => {
  describe('name normalisation on save (api-contract §2.6)', () => {
    const cases: Array<{ entity: AnyEntity; sent: string; stored: string }> = [
      { entity: registry.city, sent: "  cox's   bazar DOHS ", stored: "Cox's bazar DOHS" },
      { entity: registry.thana, sent: 'gulshan model town', stored: 'Gulshan model town' },
      { entity: registry.branch, sent: 'head office', stored: 'Head office' },
      { entity: registry.department, sent: 'human resources', stored: 'Human resources' },
      { entity: registry.customer_type, sent: 'retail shop', stored: 'Retail shop' },
      { entity: registry.designation, sent: 'senior SALES   executive', stored: 'Senior Sales Executive' },
      { entity: registry.country, sent: 'the Gambia', stored: 'the Gambia' },
    ]
    for (const { entity, sent, stored } of cases) {
      it(`${entity.name}: "${sent}" is stored as "${stored}", on create and on update`, async () => {
        const refIds = await createReferences(t.current, entity)
        const row = await createRow(t.current, entity, { ...sampleInput(entity, refIds), name: sent })
        expect(row.name).toBe(stored)
        // Deleted first, so that a unique name (country) can be reused by the update.
        expect((await t.current.call({ method: 'DELETE', url: `${entity.api.base}/delete/${row.id}` })).status).toBe(200)
        const other = await createRow(t.current, entity, sampleInput(entity, refIds))
        const updated = await t.current.call({ method: 'PUT', url: `${entity.api.base}/update/${other.id}`, payload: { name: sent } })
        expect(updated.status, updated.raw).toBe(200)
        expect(updated.body.name).toBe(stored)
      })
    }
  })

  describe('default orderings (api-contract §2.6)', () => {
    const expected: Record<string, string> = {
      country: 'name', branch: 'name', department: 'name', designation: 'name',
      city: 'id', thana: 'id', customer_type: '-id',
    }
    for (const [name, ordering] of Object.entries(expected)) {
      it(`${name} lists by ${ordering} unless asked otherwise`, async () => {
        const entity = entities.find((e) => e.name === name)!
        expect(entity.ordering).toBe(ordering)
        const refIds = await createReferences(t.current, entity)
        const tag = `ord${name.length}x`
        const created: Array<{ id: number; name: string }> = []
        for (const word of ['Zulu', 'Alpha', 'Mike']) {
          created.push((await createRow(t.current, entity, { ...sampleInput(entity, refIds), name: `${word} ${tag}` })) as never)
        }
        const byName = [...created].sort((a, b) => (a.name < b.name ? -1 : 1)).map((r) => r.id)
        const byId = created.map((r) => r.id)
        const want = ordering === 'name' ? byName : ordering === 'id' ? byId : [...byId].reverse()
        for (const url of [`${entity.api.base}/search/?name=${tag}`, `${entity.api.base}/without_pagination/all/?name=${tag}`]) {
          const res = await t.current.call({ method: 'GET', url })
          expect(res.status, res.raw).toBe(200)
          expect(res.body[entity.listKey].map((r: { id: number }) => r.id), url).toEqual(want)
        }
      })
    }
  })

  describe('references that protect rows', () => {
    it('refuses to delete a district that still has police stations: 409 {detail}, nothing deleted', async () => {
      const { row: thana } = await createSample(t.current, registry.thana)
      const cityId = thana.city as number
      const free = await createSample(t.current, registry.city)
      const before = { cities: await countRows(t.current, 'city'), audits: await countRows(t.current, 'audit_log') }

      const one = await t.current.call({ method: 'DELETE', url: `/city/api/v1/city/delete/${cityId}` })
      expect(one.status).toBe(409)
      expect(one.body).toEqual({ detail: expect.stringMatching(/^District '.+' cannot be deleted: (one of the Police Stations refers|\d+ Police Stations refer) to it\.$/) })

      const many = await t.current.call({ method: 'DELETE', url: '/city/api/v1/city/delete_multiple/', payload: { ids: [free.id, cityId] } })
      expect(many.status).toBe(409)
      expect(many.body).toEqual({ detail: expect.any(String) })

      expect(await countRows(t.current, 'city')).toBe(before.cities)
      expect(await countRows(t.current, 'audit_log')).toBe(before.audits)
      expect((await t.current.call({ method: 'GET', url: `/city/api/v1/city/${free.id}` })).status).toBe(200)
      expect((await t.current.call({ method: 'GET', url: `/thana/api/v1/thana/${thana.id}` })).body).toEqual(thana)
    })

    it('refuses to delete a country that still has districts: 409 {detail}', async () => {
      const { row: city } = await createSample(t.current, registry.city)
      const res = await t.current.call({ method: 'DELETE', url: `/country/api/v1/country/delete/${city.country}` })
      expect(res.status).toBe(409)
      expect(res.body.detail).toContain('Districts')
    })

    it('clears an optional reference when its target is deleted (branch.thana is set null)', async () => {
      const { row: branch, refIds } = await createSample(t.current, registry.branch)
      const del = await t.current.call({ method: 'DELETE', url: `/thana/api/v1/thana/delete/${refIds.thana}` })
      expect(del.status).toBe(200)
      const after = await t.current.call({ method: 'GET', url: `/branch/api/v1/branch/${branch.id}` })
      expect(after.body.thana).toBeNull()
    })
  })

  describe('unique fields', () => {
    it('refuses a second country with the same name: 400 field map, nothing written', async () => {
      const { row } = await createSample(t.current, registry.country)
      const before = await countRows(t.current, 'country')
      const res = await t.current.call({ method: 'POST', url: '/country/api/v1/country/create/', payload: { name: row.name } })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ name: ['Country with this Name already exists.'] })
      expect(await countRows(t.current, 'country')).toBe(before)

      const other = await createSample(t.current, registry.country)
      const renamed = await t.current.call({ method: 'PUT', url: `/country/api/v1/country/update/${other.id}`, payload: { name: row.name } })
      expect(renamed.status).toBe(400)
      expect(renamed.body).toEqual({ name: ['Country with this Name already exists.'] })
      expect((await t.current.call({ method: 'GET', url: `/country/api/v1/country/${other.id}` })).body.name).toBe(other.row.name)
    })
  })

  describe('concurrent requests', () => {
    it('keeps total_elements exact under parallel creates and deletes', async () => {
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) => t.current.call({ method: 'POST', url: '/department/api/v1/department/create/', payload: { name: `Parallel ${i}` } })),
      )
      expect(created.map((r) => r.status)).toEqual(Array(20).fill(201))
      const deleted = await Promise.all(created.slice(0, 10).map((r) => t.current.call({ method: 'DELETE', url: `/department/api/v1/department/delete/${r.body.id}` })))
      expect(deleted.map((r) => r.status)).toEqual(Array(10).fill(200))
      const page = await t.current.call({ method: 'GET', url: '/department/api/v1/department/all/' })
      expect(page.body.total_elements).toBe(await countRows(t.current, 'department'))
    })

    it('lets exactly one of several parallel creates with the same unique name through; the others get 400', async () => {
      const results = await Promise.all(
        Array.from({ length: 6 }, () => t.current.call({ method: 'POST', url: '/country/api/v1/country/create/', payload: { name: 'Raceland' } })),
      )
      expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400])
      for (const r of results.filter((x) => x.status === 400)) expect(r.body).toEqual({ name: ['Country with this Name already exists.'] })
    })

    it('deletes a row once when two deletes race: one 200, one 404', async () => {
      const { id } = await createSample(t.current, registry.designation)
      const results = await Promise.all([1, 2].map(() => t.current.call({ method: 'DELETE', url: `/designation/api/v1/designation/delete/${id}` })))
      expect(results.map((r) => r.status).sort()).toEqual([200, 404])
      expect((await auditOf(t.current, 'designation', id)).map((r) => r.action)).toEqual(['create', 'delete'])
    })
  })

  describe('audit log', () => {
    const generic = entities.filter((e) => e.routes.create === 'generic' && e.routes.update === 'generic' && e.routes.delete === 'generic')
    for (const entity of generic) {
      it(`${entity.name}: create, update and delete each append who did what, with the changed fields before and after${entity.fieldNames.some((n) => entity.fields[n]!.isWriteOnly) ? ', a password only as set' : ''}`, async () => {
        const { row, refIds } = await createSample(t.current, entity)
        const id = row.id as number
        // What the log records: not secrets, not lines (each has its own entries), not what is declared unaudited (UI settings).
        const readable = entity.fieldNames.filter((n) => !entity.fields[n]!.isWriteOnly && entity.fields[n]!.kind !== 'lines' && entity.fields[n]!.isAudited)
        // A stored secret shows as set; an input-only confirmation is never stored, so never audited.
        const secrets = entity.fieldNames.filter((n) => entity.fields[n]!.isWriteOnly && !entity.fields[n]!.isTransient)
        // The field changed: a plain one, or — a document with nothing else to enter — its lines.
        // (A file is changed by an upload alone, which the uploads suites audit.)
        const field = readable.find((n) => !['ref', 'refs', 'boolean', 'file', 'image'].includes(entity.fields[n]!.kind) && !entity.fields[n]!.isReadOnly) ?? entity.linesFieldNames[0]!
        const lines = entity.linesFieldNames
        const count = (r: Record<string, unknown>, n: string) => (r[n] as unknown[]).length
        const changed = await t.current.call({ method: 'PUT', url: `${entity.api.base}/update/${id}`, payload: { [field]: sampleInput(entity, refIds)[field] } })
        expect(changed.status).toBe(200)
        const unchanged = await t.current.call({ method: 'PUT', url: `${entity.api.base}/update/${id}`, payload: {} })
        expect(unchanged.status).toBe(200)
        expect((await t.current.call({ method: 'DELETE', url: `${entity.api.base}/delete/${id}` })).status).toBe(200)

        const rows = await auditOf(t.current, entity.name, id)
        expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete'])
        for (const r of rows) {
          expect(r.actor).toBe(t.current.adminId)
          expect(r.at).toBeInstanceOf(Date)
        }
        const filled = readable.filter((n) => row[n] !== null && !(Array.isArray(row[n]) && (row[n] as unknown[]).length === 0))
        expect(rows[0]!.changes).toEqual({
          ...Object.fromEntries(filled.map((n) => [n, [null, json(row[n])]])),
          ...Object.fromEntries(secrets.map((n) => [n, [null, '***']])),
          ...Object.fromEntries(lines.map((n) => [n, [null, count(row, n)]])),
        })
        expect(JSON.stringify(rows)).not.toContain('$argon2')
        // The field, and what is computed from it (a document's total from its lines; its number, counted by the day changed).
        const differs = (n: string) => JSON.stringify(json(row[n])) !== JSON.stringify(json(changed.body[n]))
        const followed = readable.filter((n) => n !== field && (entity.fields[n]!.compute !== undefined || renumberedBy(entity, field).includes(n)) && differs(n))
        expect(rows[1]!.changes).toEqual({
          [field]: lines.includes(field) ? [count(row, field), count(changed.body, field)] : [json(row[field]), json(changed.body[field])],
          ...Object.fromEntries(followed.map((n) => [n, [json(row[n]), json(changed.body[n])]])),
        })
        expect(readable.filter((n) => n !== field && !followed.includes(n) && differs(n) && n !== 'updated_at')).toEqual([])
        expect(rows[2]!.changes).toEqual({
          ...Object.fromEntries(filled.map((n) => [n, [json(changed.body[n]), null]])),
          ...Object.fromEntries(lines.map((n) => [n, [count(changed.body, n), null]])),
        })
      })
    }
  })

  describe('audit columns', () => {
    it('sets id, created_by/updated_by and created_at/updated_at itself, ignoring what the client sends', async () => {
      const forged = { id: 424242, created_by: 999, updated_by: 999, created_at: '2000-01-01T00:00:00.000Z', updated_at: '2099-01-01T00:00:00.000Z' }
      const created = await t.current.call({ method: 'POST', url: '/department/api/v1/department/create/', payload: { name: 'Audit columns', ...forged } })
      expect(created.status).toBe(201)
      expect(created.body.id).not.toBe(424242)
      expect(created.body).toMatchObject({ created_by: t.current.adminId, updated_by: t.current.adminId })
      expect(created.body.created_at).not.toBe(forged.created_at)
      expect(created.body.updated_at).toBe(created.body.created_at)

      const editorId = await t.current.createUser({ email: `editor-${t.current.kind}@example.com`, isAdmin: true })
      const editor = await signToken(JWT_SECRET, editorId)
      const updated = await t.current.call({
        method: 'PUT',
        url: `/department/api/v1/department/update/${created.body.id}`,
        payload: { name: 'Audit columns two', ...forged },
        headers: { authorization: `Bearer ${editor}` },
      })
      expect(updated.status).toBe(200)
      expect(updated.body).toMatchObject({ id: created.body.id, created_by: t.current.adminId, updated_by: editorId, created_at: created.body.created_at })
      expect(Date.parse(updated.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.body.created_at))
      const listed = await t.current.call({ method: 'GET', url: '/department/api/v1/department/search/?name=audit columns two' })
      expect(listed.body.departments[0]).toMatchObject({ created_by: 'admin@example.com', updated_by: `editor-${t.current.kind}@example.com` })
    })
  })

  describe('HTTP edges', () => {
    it('answers an unknown API path with 404 {detail}, not the browser app', async () => {
      for (const url of ['/nothing/api/v1/nothing/all/', '/api/nothing', '/country/api/v1/country/no/such/route']) {
        const res = await t.current.call({ method: 'GET', url })
        expect(res.status, url).toBe(404)
        expect(res.body).toEqual({ detail: expect.any(String) })
      }
    })

    it('answers a body that is neither JSON nor a form with 415 {detail}', async () => {
      const res = await t.current.call({ method: 'POST', url: '/department/api/v1/department/create/', payload: 'name=Sales', headers: { 'content-type': 'text/csv' } })
      expect(res.status).toBe(415)
      expect(res.body).toEqual({ detail: expect.any(String) })
    })

    it('updates with PATCH like PUT: only the fields sent change', async () => {
      const { row } = await createSample(t.current, registry.branch)
      const res = await t.current.call({ method: 'PATCH', url: `/branch/api/v1/branch/update/${row.id}`, payload: { postal_code: '1212' } })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ ...row, postal_code: '1212', updated_at: res.body.updated_at })
    })
  })

  describe('health and multipart', () => {
    it('answers GET /api/health with {"status":"ok"} without a token', async () => {
      const res = await t.current.call({ method: 'GET', url: '/api/health', asAnonymous: true })
      expect(res.status).toBe(200)
      expect(res.raw).toBe('{"status":"ok"}')
    })

    it('creates and updates a plain entity from a multipart form (fields as form parts)', async () => {
      const country = await createSample(t.current, registry.country)
      const form = multipart({ name: 'multipart district', bn_name: '', lat: '23.8103', country: String(country.id) })
      const res = await t.current.call({ method: 'POST', url: '/city/api/v1/city/create/', ...form })
      expect(res.status, res.raw).toBe(201)
      expect(res.body).toMatchObject({ name: 'Multipart district', bn_name: null, lat: '23.8103000', country: country.id })

      const edit = multipart({ lon: '90.4125' })
      const updated = await t.current.call({ method: 'PUT', url: `/city/api/v1/city/update/${res.body.id}`, ...edit })
      expect(updated.status, updated.raw).toBe(200)
      expect(updated.body).toMatchObject({ name: 'Multipart district', lat: '23.8103000', lon: '90.4125000' })

      const bad = await t.current.call({ method: 'POST', url: '/city/api/v1/city/create/', ...multipart({ name: 'x', country: 'abc' }) })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.body)).toEqual(['country'])
    })
  })
})
