import { describe, expect, it } from 'vitest'
import { hashPassword } from '../../../server/auth/passwords'
import { modelName, validateRecord } from '../../../server/engine/validate'
import { ADMIN, type TestApp } from './app'
import { clearMadeWith, countListed as countRows, createReferences, createRow, createSample, labelOfRow, readableFields, renumberedBy, requestOf, sampleInput, type AnyEntity } from './samples'

/**
 * The contract's generic endpoints (api-contract §2.1–2.2) for one entity, as a suite
 * that the registry test runs for every entity and the throwaway-entity test for its own.
 */
const UNKNOWN_ID = 999_999_999
const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as Record<string, unknown>
/** What a response shows of a valid input: the validated values, without the write-only ones; a file sent is stored as an upload of its own. */
const expected = (entity: AnyEntity, input: Record<string, unknown>) => {
  const values = json(validateRecord(entity, input))
  for (const name of entity.fieldNames) if (entity.fields[name]!.isWriteOnly) delete values[name]
  for (const name of entity.fieldNames) if (entity.fields[name]!.kind === 'file' && values[name] !== null && values[name] !== undefined) values[name] = expect.stringMatching(new RegExp(`^/media/${entity.name}/`))
  return values
}
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id)

async function listAll(t: TestApp, entity: AnyEntity, query = ''): Promise<Array<Record<string, any>>> {
  const res = await t.call({ method: 'GET', url: `${entity.api.base}/without_pagination/all/${query}` })
  expect(res.status, res.raw).toBe(200)
  return res.body[entity.listKey]
}

/**
 * Adds rows straight into the tables (with validated values), for tests that need many: one
 * password hash for all, an entity that extends another gets its parent's rows first, and
 * a unique reference (a role's menu) a row of its own for each. Returns the new ids.
 */
async function insertMany(t: TestApp, entity: AnyEntity, count: number, all: readonly AnyEntity[]): Promise<number[]> {
  const refIds = await createReferences(t, entity, all)
  const secret = await hashPassword('password123')
  const isUniqueRef = (n: string) => entity.fields[n]!.kind === 'ref' && entity.fields[n]!.isUnique
  // A required unique reference gets a row of its own for each; an optional one (a ledger row's `reverses`, which names the row it undoes) is left empty.
  const uniqueRefs = entity.fieldNames.filter((n) => isUniqueRef(n) && entity.fields[n]!.isRequired)
  const emptied = Object.fromEntries(entity.fieldNames.filter((n) => isUniqueRef(n) && !entity.fields[n]!.isRequired).map((n) => [n, null]))
  const distinct: Record<string, number[]> = {}
  for (const name of uniqueRefs) distinct[name] = await insertMany(t, all.find((e) => e.name === entity.fields[name]!.ref!.target)!, count, all)
  const rows = Array.from({ length: count }, (_, i) => {
    const values = validateRecord(entity, { ...sampleInput(entity, refIds), ...emptied, ...Object.fromEntries(uniqueRefs.map((n) => [n, distinct[n]![i]])) })
    // A document kept one row per line: each row its own document, under a number of its own.
    if (entity.rowsPerLine) values[entity.rowsPerLine.key] = `T${Date.now().toString(36)}${i}${Math.floor(Math.random() * 1e6)}`
    for (const name of entity.fieldNames) {
      const field = entity.fields[name]!
      // Only columns: not many-to-many links, lines, or values never stored.
      if (field.kind === 'refs' || !field.sql) delete values[name]
      else if (field.kind === 'json' && values[name] !== null) values[name] = JSON.stringify(values[name])
      else if (field.kind === 'password') values[name] = secret
    }
    return values
  })
  const columns = (row: Record<string, unknown>, names: readonly string[]) => Object.fromEntries(names.filter((n) => n in row).map((n) => [n, row[n]]))
  if (!entity.parent) {
    const own = (r: Record<string, unknown>) => (entity.idFrom ? { id: r[entity.idFrom] } : {})
    await clearMadeWith(t, entity, rows.map((r) => r[entity.idFrom ?? '']))
    const inserted = await t.db.insertInto(entity.name).values(rows.map((r) => ({ ...r, ...own(r), created_by: t.adminId, updated_by: t.adminId }))).returning('id').execute()
    return inserted.map((r) => Number(r.id))
  }
  const inherited = entity.fieldNames.filter((n) => !entity.ownFieldNames.includes(n))
  const parents = await t.db
    .insertInto(entity.parent.name)
    .values(rows.map((r) => ({ ...columns(r, inherited), created_by: t.adminId, updated_by: t.adminId })))
    .returning('id')
    .execute()
  await t.db.insertInto(entity.name).values(rows.map((r, i) => ({ id: parents[i]!.id, ...columns(r, entity.ownFieldNames) }))).execute()
  return parents.map((r) => Number(r.id))
}

/** Comparable in JavaScript exactly as PostgreSQL orders them (no collation involved). */
const NUMERIC_KINDS = new Set(['integer', 'decimal'])

export function endpointSuite(t: { readonly current: TestApp }, entity: AnyEntity, all: readonly AnyEntity[]): void {
  const base = entity.api.base
  const model = modelName(entity)
  const has = (route: keyof AnyEntity['routes']) => entity.routes[route] === 'generic'
  // Rows flagged built-in by their default (primary groups) are never deleted: their refusal is the entity's own test.
  const flag = entity.builtIn && entity.fields[entity.builtIn.field]
  const deletable = (route: 'delete' | 'delete_multiple') => has(route) && !(flag && entity.builtIn!.values.includes(flag.defaultValue as string | boolean))
  // The paged envelope: `all/`, or `search/` where `all/` answers otherwise (unpaged, or a module's shape).
  const paged = has('all') && entity.paginateAll ? 'all/' : 'search/'
  const readable = readableFields(entity)
  // A module that serves both list routes answers its own shape (the vouchers: one row per invoice); its own tests cover them.
  const listsGenerically = has('all') || has('search')

  describe(`${entity.name} (${base})`, () => {
    if (has('create')) it('creates a row: 201 with the validated values and the audit columns set by the server', async () => {
      const refIds = await createReferences(t.current, entity, all)
      const input = sampleInput(entity, refIds)
      const res = await t.current.call({ method: 'POST', url: `${base}/create/`, ...requestOf(entity, input) })
      expect(res.status, res.raw).toBe(201)
      expect(res.body).toMatchObject(expected(entity, input))
      expect(res.body.id).toEqual(expect.any(Number))
      expect(res.body.created_by).toBe(t.current.adminId)
      expect(res.body.updated_by).toBe(t.current.adminId)
      expect(Number.isNaN(Date.parse(res.body.created_at))).toBe(false)
      expect(Object.keys(res.body).sort()).toEqual(['id', ...readable, 'created_at', 'updated_at', 'created_by', 'updated_by', '_labels'].sort())
    })

    it('reads one row by id with raw reference ids, and their display names in _labels', async () => {
      const { row, refIds } = await createSample(t.current, entity, {}, all)
      const res = await t.current.call({ method: 'GET', url: `${base}/${row.id}` })
      expect(res.status).toBe(200)
      expect(res.body).toEqual(row)
      const labels: Record<string, unknown> = {}
      for (const name of readable) {
        const field = entity.fields[name]!
        const targetId = field.ref ? refIds[field.ref.target] : undefined
        // A reference the server sets (who verified a product) is its rules' to judge; its name comes along when set.
        if (field.isReadOnly && field.ref) {
          if (res.body[name] !== null) labels[name] = expect.any(String)
          continue
        }
        if (field.kind === 'ref') expect(res.body[name]).toBe(targetId ?? null)
        if (field.kind === 'refs') expect(res.body[name]).toEqual(targetId ? [targetId] : [])
        if (!field.ref || field.kind === 'lines' || targetId === undefined) continue
        const target = all.find((e) => e.name === field.ref!.target)!
        const label = String(await labelOfRow(t.current, target, targetId))
        labels[name] = field.kind === 'ref' ? label : { [String(targetId)]: label }
      }
      // The form opens with this one answer: no request per reference for its name.
      expect(res.body._labels).toEqual(labels)
    })

    it(`lists a page in the envelope {${entity.listKey}, page, size, total_pages, total_elements}, page 1 size 10 by default (${paged})`, async () => {
      await insertMany(t.current, entity, 12, all)
      const total = await countRows(t.current, entity.name)
      const res = await t.current.call({ method: 'GET', url: `${base}/${paged}` })
      expect(res.status).toBe(200)
      // A search answers under its own keys too (`searchAlsoKeys`), each with the same rows.
      const keys = paged === 'search/' ? entity.searchKeys : entity.listKeys
      expect(Object.keys(res.body).sort()).toEqual([...keys, 'page', 'size', 'total_pages', 'total_elements'].sort())
      // Its other keys (`alsoListKeys`) carry the same rows.
      for (const key of keys) expect(res.body[key]).toEqual(res.body[entity.listKey])
      expect(res.body).toMatchObject({ page: 1, size: 10, total_elements: total, total_pages: Math.ceil(total / 10) })
      expect(res.body[entity.listKey]).toHaveLength(10)
    })

    it('pages through every row exactly once', async () => {
      const total = await countRows(t.current, entity.name)
      const seen: number[] = []
      const size = 7
      for (let page = 1; page <= Math.ceil(total / size); page++) {
        const res = await t.current.call({ method: 'GET', url: `${base}/${paged}?page=${page}&size=${size}` })
        expect(res.body.page).toBe(page)
        seen.push(...ids(res.body[entity.listKey]))
      }
      expect(seen).toHaveLength(total)
      expect(new Set(seen).size).toBe(total)
    })

    it('caps the page size at 100', async () => {
      await insertMany(t.current, entity, 101, all)
      const res = await t.current.call({ method: 'GET', url: `${base}/${paged}?size=500` })
      expect(res.status).toBe(200)
      expect(res.body.size).toBe(100)
      expect(res.body[entity.listKey]).toHaveLength(100)
    })

    it('ignores page and size that are not digits', async () => {
      for (const query of ['?page=abc&size=xyz', '?page=-2&size=1.5', '?page=&size=']) {
        const res = await t.current.call({ method: 'GET', url: `${base}/${paged}${query}` })
        expect(res.status, query).toBe(200)
        expect(res.body, query).toMatchObject({ page: 1, size: 10 })
      }
    })

    it('clamps a page past the end to the last page', async () => {
      const total = await countRows(t.current, entity.name)
      const lastPage = Math.ceil(total / 3)
      const res = await t.current.call({ method: 'GET', url: `${base}/${paged}?page=99999&size=3` })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ page: lastPage, size: 3, total_pages: lastPage, total_elements: total })
      expect(res.body[entity.listKey]).toHaveLength(total - (lastPage - 1) * 3)
    })

    if (listsGenerically) it("nests references as {id, name} and shows created_by as the creator's e-mail in list rows", async () => {
      const { row, refIds } = await createSample(t.current, entity, {}, all)
      const listed = (await listAll(t.current, entity)).find((r) => r.id === row.id)!
      expect(listed).toBeDefined()
      expect(listed.created_by).toBe(ADMIN.email)
      expect(listed.updated_by).toBe(ADMIN.email)
      for (const name of entity.fieldNames.filter((n) => entity.fields[n]!.isWriteOnly)) expect(listed, name).not.toHaveProperty(name)
      for (const name of readable) {
        const field = entity.fields[name]!
        // A document's lines are read with the document, not listed.
        if (field.kind === 'lines') {
          expect(listed, name).not.toHaveProperty(name)
          continue
        }
        // A document's list values (a voucher's amount over its lines) are the list's, not a row's.
        const listValues = { ...entity.rowsPerLine?.sums, ...entity.rowsPerLine?.others }
        if (name in listValues) continue
        if (field.kind !== 'ref' && field.kind !== 'refs') {
          expect(listed[name], name).toEqual(row[name])
          continue
        }
        const target = all.find((e) => e.name === field.ref!.target)!
        const targetId = refIds[target.name]
        // A reference to the entity itself (a parent menu item) is left empty by the sample; one the server sets is its rules'.
        if (targetId === undefined || field.isReadOnly) {
          if (!field.isReadOnly) expect(listed[name], name).toEqual(field.kind === 'ref' ? null : [])
          continue
        }
        const nested = { id: targetId, name: await labelOfRow(t.current, target, targetId) }
        // A contract that lists the referenced row by its label (role menus: the role's name) gets that;
        // one that lists the raw id (a menu item's parent) gets it, with the label in `_labels`.
        if (field.listAs === 'id') {
          const labels = (listed._labels as Record<string, unknown>)[name]
          expect(listed[name], name).toEqual(field.kind === 'refs' ? [targetId] : targetId)
          expect(labels, name).toEqual(field.kind === 'refs' ? { [String(targetId)]: nested.name } : nested.name)
          continue
        }
        expect(listed[name], name).toEqual(field.kind === 'refs' ? [nested] : field.listAs === 'label' ? nested.name : nested)
      }
    })

    if (entity.routes.without_pagination !== false) it(`lists every row without pagination as {${entity.listKey}}`, async () => {
      const res = await t.current.call({ method: 'GET', url: `${base}/without_pagination/all/` })
      expect(res.status).toBe(200)
      expect(Object.keys(res.body)).toEqual([...entity.listKeys])
      expect(res.body[entity.listKey]).toHaveLength(await countRows(t.current, entity.name))
    })

    if (!entity.paginateAll && has('all')) it(`answers all/ with every row, unpaged, as {${entity.listKey}}`, async () => {
      await createSample(t.current, entity, {}, all)
      const res = await t.current.call({ method: 'GET', url: `${base}/all/?page=1&size=1` })
      expect(res.status).toBe(200)
      expect(Object.keys(res.body)).toEqual([...entity.listKeys])
      expect(res.body[entity.listKey]).toHaveLength(await countRows(t.current, entity.name))
    })

    for (const [alias, route] of Object.entries(entity.routeAliases)) {
      it(`answers the contract's alias ${alias}/ as ${route}`, async () => {
        if (route === 'create') {
          const made = await createReferences(t.current, entity, all)
          const res = await t.current.call({ method: 'POST', url: `${base}/${alias}/`, ...requestOf(entity, sampleInput(entity, made)) })
          expect(res.status, res.raw).toBe(201)
          expect((await t.current.call({ method: 'GET', url: `${base}/${res.body.id}` })).body).toEqual(res.body)
          return
        }
        if (route === 'read') {
          const { row } = await createSample(t.current, entity, {}, all)
          const res = await t.current.call({ method: 'GET', url: `${base}/${alias}/${row.id}` })
          expect(res.status, res.raw).toBe(200)
          expect(res.body).toEqual((await t.current.call({ method: 'GET', url: `${base}/${row.id}` })).body)
          return
        }
        if (route === 'update') {
          const { row } = await createSample(t.current, entity, {}, all)
          const res = await t.current.call({ method: 'PUT', url: `${base}/${alias}/${row.id}`, payload: {} })
          expect(res.status, res.raw).toBe(200)
          expect(res.body.id).toBe(row.id)
          return
        }
        const target = await t.current.call({ method: 'GET', url: `${base}/without_pagination/all/` })
        const res = await t.current.call({ method: 'GET', url: `${base}/${alias}/` })
        expect(res.status).toBe(200)
        expect(res.body).toEqual(target.body)
      })
    }

    it("answers 404 {detail} for an unknown or non-numeric id on read, update and delete", async () => {
      const res = await t.current.call({ method: 'GET', url: `${base}/${UNKNOWN_ID}` })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ detail: `${model} id - ${UNKNOWN_ID} doesn't exists` })
      for (const bad of ['abc', '-1', '1.5', '0']) {
        const r = await t.current.call({ method: 'GET', url: `${base}/${bad}` })
        expect(r.status, bad).toBe(404)
        expect(r.body.detail, bad).toEqual(expect.any(String))
      }
      if (has('update')) {
        const put = await t.current.call({ method: 'PUT', url: `${base}/update/${UNKNOWN_ID}`, payload: {} })
        expect(put.status).toBe(404)
        expect(put.body).toEqual({ detail: `${model} id - ${UNKNOWN_ID} doesn't exists` })
      }
      if (has('delete')) {
        const del = await t.current.call({ method: 'DELETE', url: `${base}/delete/${UNKNOWN_ID}` })
        expect(del.status).toBe(404)
        expect(del.body.detail).toEqual(expect.any(String))
        expect((await t.current.call({ method: 'DELETE', url: `${base}/delete/abc` })).status).toBe(404)
      }
    })

    // Suites only declare what applies to the entity: nothing is registered just to be skipped.
    if (listsGenerically && entity.searchFields.length > 0) it(
      `searches ${entity.searchFields.join(', ')} case-insensitively by "contains", with %, _ and \\ taken literally`,
      async () => {
        const refIds = await createReferences(t.current, entity, all)
        for (const name of entity.searchFields) {
          const field = entity.fields[name]!
          const tag = uniqueWord(5)
          // `b` matches `%_\<tag>` only if %, _ and \ were pattern characters.
          // A value a module judges is the registry's example in every sample: no needle tells one row apart.
          if (field.example !== undefined) continue
          // (A read-only field is the server's to fill: it is searched for what the server gave.)
          const literal = field.kind === 'text' && !field.isReadOnly ? `q%_\\${tag}` : undefined
          const a = await createRow(t.current, entity, { ...sampleInput(entity, refIds), ...(literal ? { [name]: literal } : {}) })
          const b = literal ? await createRow(t.current, entity, { ...sampleInput(entity, refIds), [name]: `qzz${tag}` }) : undefined
          // A reference is searched by the label of the row it points to.
          const shown = (r: Record<string, any>) => String(field.kind !== 'ref' ? r[name] : typeof r[name] === 'object' ? r[name].name : r[name])
          const needle = literal ? `%_\\${tag.toUpperCase()}` : String(field.kind === 'ref' ? (a._labels as Record<string, unknown>)[name] : a[name]).slice(1, -1).toUpperCase()
          const res = await t.current.call({ method: 'GET', url: `${base}/search/?${name}=${encodeURIComponent(needle)}&size=100` })
          expect(res.status, res.raw).toBe(200)
          expect(Object.keys(res.body).sort()).toEqual([...entity.searchKeys, 'page', 'size', 'total_pages', 'total_elements'].sort())
      // Its other keys (`alsoListKeys`, `searchAlsoKeys`) carry the same rows.
      for (const key of entity.searchKeys) expect(res.body[key]).toEqual(res.body[entity.listKey])
          const found = res.body[entity.listKey] as Array<Record<string, unknown>>
          expect(ids(found as never)).toContain(a.id)
          if (b) expect(ids(found as never)).not.toContain(b.id)
          for (const r of found) expect(shown(r).toLowerCase()).toContain(needle.toLowerCase())
          expect(res.body.total_elements).toBe(found.length)
        }
      },
    )

    // A value worked out on read has no column: it is not a filter (refused with the others, below).
    const exactFields = entity.fieldNames.filter((n) => ['ref', 'integer', 'boolean', 'enum', 'date'].includes(entity.fields[n]!.kind) && !entity.fields[n]!.isVirtual)
    if (listsGenerically && exactFields.length > 0) it(`filters by equality on ${exactFields.join(', ')} (?field=value)`, async () => {
      const { row } = await createSample(t.current, entity, {}, all)
      for (const name of exactFields) {
        const value = row[name]
        if (value === null) continue
        const rows = await listAll(t.current, entity, `?${name}=${encodeURIComponent(String(value))}`)
        expect(ids(rows as never), name).toContain(row.id)
        const field = entity.fields[name]!
        const listedAs = field.kind === 'ref' ? (field.listAs === 'label' ? (row._labels as Record<string, unknown>)[name] : value) : value
        for (const r of rows) expect(field.kind === 'ref' && field.listAs === undefined ? r[name].id : r[name], name).toEqual(listedAs)
        const paged = await t.current.call({ method: 'GET', url: `${base}/search/?${name}=${encodeURIComponent(String(value))}&size=1` })
        expect(paged.body.total_elements, name).toBe(rows.length)
      }
      // A searchable reference takes text too (its row's label); the other exact fields refuse it.
      const strict = exactFields.find((n) => !entity.searchFields.includes(n))
      if (!strict) return
      // A bad value is the client's to correct: a field map keyed by the parameter.
      const bad = await t.current.call({ method: 'GET', url: `${base}/search/?${strict}=not-a-valid-value-!` })
      expect(bad.status).toBe(400)
      expect(bad.body).toEqual({ [strict]: [expect.any(String)] })
    })

    // The original answered 400 "There are no … matching your search"; an empty result is not an error here.
    if (entity.searchFields.length > 0) it('answers a search without matches with an empty page (200)', async () => {
      const res = await t.current.call({ method: 'GET', url: `${base}/search/?${entity.searchFields[0]}=no-row-has-this-text-zq` })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ ...Object.fromEntries(entity.searchKeys.map((key) => [key, []])), page: 1, size: 10, total_pages: 1, total_elements: 0 })
    })

    it('refuses an unknown search parameter, or a value with a NUL character, with 400 {detail}', async () => {
      // A value worked out on read (a ledger's nature, a voucher's amount) is no filter either.
      const virtual = entity.fieldNames.filter((n) => entity.fields[n]!.isVirtual && !entity.fields[n]!.isTransient && !entity.fields[n]!.pastDue).map((n) => `${n}=1`)
      const queries = ['no_such_field=1', ...virtual, ...entity.searchFields.map((n) => `${n}=a%00b`)]
      for (const query of queries) {
        const res = await t.current.call({ method: 'GET', url: `${base}/search/?${query}` })
        expect(res.status, query).toBe(400)
        expect(res.body).toEqual({ detail: expect.any(String) })
      }
    })

    if (listsGenerically) it('orders by every sortable field with ordering=field and ordering=-field', async () => {
      const sortable = ['id', ...entity.fieldNames.filter((n) => entity.fields[n]!.isSortable)]
      for (const name of sortable) {
        const up = await listAll(t.current, entity, `?ordering=${name}`)
        const down = await listAll(t.current, entity, `?ordering=-${name}`)
        expect(ids(down as never), name).toEqual(ids(up as never).reverse())
        const kind = name === 'id' ? 'integer' : entity.fields[name]!.kind
        if (NUMERIC_KINDS.has(kind)) {
          const values = up.map((r) => r[name]).filter((v) => v !== null).map(Number)
          expect(values, name).toEqual([...values].sort((x, y) => x - y))
        }
        if (kind === 'date') {
          const values = up.map((r) => r[name]).filter((v) => v !== null)
          expect(values, name).toEqual([...values].sort())
        }
      }
      const page = await t.current.call({ method: 'GET', url: `${base}/${paged}?ordering=-id&size=5` })
      expect(ids(page.body[entity.listKey])).toEqual(ids((await listAll(t.current, entity, '?ordering=-id')).slice(0, 5) as never))
    })

    if (listsGenerically) it('refuses ordering by an unknown field with 400 {detail}', async () => {
      for (const url of [`${base}/${paged}?ordering=no_such_field`, `${base}/without_pagination/all/?ordering=-password`]) {
        const res = await t.current.call({ method: 'GET', url })
        expect(res.status, url).toBe(400)
        expect(res.body).toEqual({ detail: expect.any(String) })
      }
    })

    if (has('update')) it('updates with PUT: the fields sent change, the others keep their values', async () => {
      const { row, refIds } = await createSample(t.current, entity, {}, all)
      const fresh = sampleInput(entity, refIds)
      const scalar = readable.find((n) => !['ref', 'refs', 'boolean', 'file'].includes(entity.fields[n]!.kind) && !entity.fields[n]!.isReadOnly)!
      const one = await t.current.call({ method: 'PUT', url: `${base}/update/${row.id}`, payload: { [scalar]: fresh[scalar] } })
      expect(one.status, one.raw).toBe(200)
      // Lines come back with their ids, names and computed values: each holds what was sent.
      if (entity.fields[scalar]!.kind === 'lines') expect(one.body[scalar]).toMatchObject(expected(entity, fresh)[scalar] as object)
      else expect(one.body[scalar]).toEqual(expected(entity, fresh)[scalar])
      // A number counted by the day it changes is the new day's (numbering.ts, renumberIfMoved).
      const renumbered = renumberedBy(entity, scalar)
      for (const name of readable) if (name !== scalar && !renumbered.includes(name)) expect(one.body[name], name).toEqual(row[name])
      expect(one.body.created_at).toBe(row.created_at)
      expect(one.body.updated_by).toBe(t.current.adminId)

      const whole = await t.current.call({ method: 'PUT', url: `${base}/update/${row.id}/`, ...requestOf(entity, fresh) })
      expect(whole.status, whole.raw).toBe(200)
      expect(whole.body).toMatchObject(expected(entity, fresh))
      const read = await t.current.call({ method: 'GET', url: `${base}/${row.id}` })
      expect(read.body).toEqual(whole.body)
    })

    if (deletable('delete')) it(`deletes one row: {detail: "${model} id - N is deleted successfully"}`, async () => {
      const { id } = await createSample(t.current, entity, {}, all)
      const before = await countRows(t.current, entity.name)
      const res = await t.current.call({ method: 'DELETE', url: `${base}/delete/${id}` })
      expect(res.status).toBe(200)
      // An entity with a Trash also names the delete's batch (what `restore/` undoes).
      expect(res.body).toEqual({ detail: `${model} id - ${id} is deleted successfully`, ...(entity.trash ? { batch: expect.any(String) } : {}) })
      expect((await t.current.call({ method: 'GET', url: `${base}/${id}` })).status).toBe(404)
      expect(await countRows(t.current, entity.name)).toBe(before - 1)
    })

    if (deletable('delete_multiple')) it('deletes several rows all-or-nothing: one unknown id is a 404 and nothing is deleted', async () => {
      const a = (await createSample(t.current, entity, {}, all)).id
      const b = (await createSample(t.current, entity, {}, all)).id
      const before = await countRows(t.current, entity.name)
      const refused = await t.current.call({ method: 'DELETE', url: `${base}/delete_multiple/`, payload: { ids: [a, b, UNKNOWN_ID] } })
      expect(refused.status).toBe(404)
      expect(refused.body).toEqual({ detail: expect.stringContaining(String(UNKNOWN_ID)) })
      expect(await countRows(t.current, entity.name)).toBe(before)

      for (const ids of [[], ['x'], [0], [1.5], ['99999999999999999999'], 99999999999999999999]) {
        const malformed = await t.current.call({ method: 'DELETE', url: `${base}/delete_multiple/`, payload: { ids } })
        expect(malformed.status, JSON.stringify(ids)).toBe(400)
        expect(malformed.body).toEqual({ detail: expect.any(String) })
      }

      const res = await t.current.call({ method: 'DELETE', url: `${base}/delete_multiple/`, payload: { ids: [a, b] } })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ detail: `${model} ids - [${a}, ${b}] deleted successfully`, ...(entity.trash ? { batch: expect.any(String) } : {}) })
      expect(await countRows(t.current, entity.name)).toBe(before - 2)
    })

    it('answers with and without the trailing slash, never with a redirect', async () => {
      const { id, input } = await createSample(t.current, entity, {}, all)
      const paths = ['all', 'all/', ...(entity.routes.without_pagination === false ? [] : ['without_pagination/all', 'without_pagination/all/']), 'search', 'search/', `${id}`, `${id}/`]
      for (const path of paths) {
        const res = await t.current.call({ method: 'GET', url: `${base}/${path}` })
        expect(res.status, path).toBe(200)
      }
      if (has('create')) {
        const created = await t.current.call({ method: 'POST', url: `${base}/create`, ...requestOf(entity, { ...input, ...(await uniqueOverrides(t.current, entity, all)) }) })
        expect(created.status, created.raw).toBe(201)
        if (has('delete')) {
          const deleted = await t.current.call({ method: 'DELETE', url: `${base}/delete/${created.body.id}/` })
          expect(deleted.status).toBe(200)
        }
      }
      if (has('update')) {
        const updated = await t.current.call({ method: 'PUT', url: `${base}/update/${id}/`, payload: {} })
        expect(updated.status).toBe(200)
      }
    })

    for (const route of entity.extraRoutes) {
      it(`lists the rows of one ${route.field} at ${route.path}/{${route.field}}`, async () => {
        const { id, row } = await createSample(t.current, entity, {}, all)
        const value = row[route.field] as number
        for (const url of [`${base}/${route.path}/${value}`, `${base}/${route.path}/${value}/`]) {
          const res = await t.current.call({ method: 'GET', url })
          expect(res.status, url).toBe(200)
          expect(Object.keys(res.body)).toEqual([...entity.listKeys])
          const rows = res.body[entity.listKey] as Array<Record<string, any>>
          expect(ids(rows as never)).toContain(id)
          for (const r of rows) expect(entity.fields[route.field]!.kind === 'ref' ? r[route.field].id : r[route.field]).toEqual(value)
        }
        const none = await t.current.call({ method: 'GET', url: `${base}/${route.path}/${UNKNOWN_ID}` })
        expect(none.body).toEqual(Object.fromEntries(entity.listKeys.map((key) => [key, []])))
        const bad = await t.current.call({ method: 'GET', url: `${base}/${route.path}/abc` })
        expect(bad.status).toBe(400)
        expect(bad.body).toEqual({ detail: expect.any(String) })
      })
    }
  })
}

/** Fresh values for unique fields, so that re-sending an input does not collide. */
async function uniqueOverrides(t: TestApp, entity: AnyEntity, all: readonly AnyEntity[]): Promise<Record<string, unknown>> {
  const fresh = sampleInput(entity, {})
  const unique = entity.fieldNames.filter((n) => entity.fields[n]!.isUnique)
  const out: Record<string, unknown> = Object.fromEntries(unique.filter((n) => entity.fields[n]!.kind !== 'ref').map((n) => [n, fresh[n]]))
  // A unique reference (a product's one discount) points at a row of its own.
  for (const n of unique.filter((n) => entity.fields[n]!.kind === 'ref')) out[n] = (await createSample(t, all.find((e) => e.name === entity.fields[n]!.ref!.target)!, {}, all)).id
  return out
}

let tags = 0
/** Distinct lower-case words (`baaaa`, `baaab`…) that appear in no other sample value. */
function uniqueWord(length: number): string {
  let n = 26 ** (length - 1) + ++tags
  let out = ''
  for (let i = 0; i < length; i++, n = Math.floor(n / 26)) out = String.fromCharCode(97 + (n % 26)) + out
  return out
}
