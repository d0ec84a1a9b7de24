import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { signToken } from '../../server/auth/tokens'
import { withPublicRead } from '../../server/engine/access'
import { describeEachDatabase, JWT_SECRET, type TestApp } from './helpers/app'
import { tinyPng } from './helpers/images'
import { multipart } from './helpers/multipart'
import { countRows, translate } from './helpers/samples'

/**
 * The catalogue's plain entities (issue 11, api-contract §4.8): categories in at most three
 * levels with no cycles and the contract's level lists, and the names §2.6 normalises.
 * Routes, validation, paging and permissions of every entity are the registry suites'.
 */
const CATEGORY = registry.category.api.base
const LEVELS = {
  parents: `${CATEGORY}/get_all_parent_category_without_pagination/`,
  subs: (id: number) => `${CATEGORY}/get_all_sub_category_by_category_id_without_pagination/${id}`,
  subSubs: (id: number) => `${CATEGORY}/get_all_sub_sub_category_by_category_id_without_pagination/${id}`,
}

let sequence = 0
const unique = (prefix: string) => `${prefix} ${String.fromCharCode(97 + (++sequence % 26))}${sequence}`

type Listed = { id: number; name: string; parent: { id: number; name: string } | null }

async function createCategory(t: TestApp, name: string, parent: number | null = null): Promise<number> {
  const res = await t.call({ method: 'POST', url: `${CATEGORY}/create/`, payload: { name, parent } })
  expect(res.status, res.raw).toBe(201)
  return res.body.id as number
}

/** A parent category, a sub category under it and a sub-sub category under that. */
async function tree(t: TestApp): Promise<{ top: number; sub: number; subSub: number }> {
  const top = await createCategory(t, unique('Top'))
  const sub = await createCategory(t, unique('Sub'), top)
  const subSub = await createCategory(t, unique('Leaf'), sub)
  return { top, sub, subSub }
}

const ids = (rows: Listed[]) => rows.map((r) => r.id).sort((a, b) => a - b)

describeEachDatabase('catalogue', (t) => {
  it('keeps three levels: a category under a sub-sub category is refused on parent, in each language, and nothing is written', async () => {
    const { subSub } = await tree(t.current)
    const before = await countRows(t.current, 'category')
    for (const lang of ['en', 'tr', 'ar'] as const) {
      const res = await t.current.call({ method: 'POST', url: `${CATEGORY}/create/`, payload: { name: unique('Fourth'), parent: subSub }, headers: { 'accept-language': lang } })
      expect(res.status, res.raw).toBe(400)
      expect(res.body).toEqual({ parent: [translate(lang, 'validation.category_too_deep')] })
    }
    expect(await countRows(t.current, 'category')).toBe(before)
    // An existing category moved there is refused alike.
    const other = await createCategory(t.current, unique('Loose'))
    const moved = await t.current.call({ method: 'PATCH', url: `${CATEGORY}/update/${other}`, payload: { parent: subSub } })
    expect(moved.status).toBe(400)
    expect(moved.body).toEqual({ parent: ['Categories go three levels deep at most: a sub-sub category cannot have sub categories.'] })
    expect((await t.current.call({ method: 'GET', url: `${CATEGORY}/${other}` })).body.parent).toBeNull()
  })

  it('refuses to move a category with its sub categories where they would be a fourth level, and allows it where they fit', async () => {
    const target = await tree(t.current)
    const branch = await createCategory(t.current, unique('Branch'))
    const leaf = await createCategory(t.current, unique('Twig'), branch)
    // Under a sub category, `branch` would be level 3 and `leaf` level 4.
    const tooDeep = await t.current.call({ method: 'PATCH', url: `${CATEGORY}/update/${branch}`, payload: { parent: target.sub }, headers: { 'accept-language': 'tr' } })
    expect(tooDeep.status).toBe(400)
    expect(tooDeep.body).toEqual({ parent: [translate('tr', 'validation.category_subtree_too_deep')] })
    expect((await t.current.call({ method: 'GET', url: `${CATEGORY}/${branch}` })).body.parent).toBeNull()
    // Under a parent category both fit (levels 2 and 3).
    const fits = await t.current.call({ method: 'PATCH', url: `${CATEGORY}/update/${branch}`, payload: { parent: target.top } })
    expect(fits.status, fits.raw).toBe(200)
    expect((await t.current.call({ method: 'GET', url: `${CATEGORY}/${leaf}` })).body.parent).toBe(branch)
  })

  it('refuses a category under itself or under one of its own sub categories (400 on parent) and keeps the tree', async () => {
    const { top, sub, subSub } = await tree(t.current)
    for (const parent of [top, sub, subSub]) {
      const res = await t.current.call({ method: 'PATCH', url: `${CATEGORY}/update/${top}`, payload: { parent } })
      expect(res.status, res.raw).toBe(400)
      expect(res.body).toEqual({ parent: ['A category cannot be placed under itself or under one of its own sub categories.'] })
    }
    const ar = await t.current.call({ method: 'PATCH', url: `${CATEGORY}/update/${sub}`, payload: { parent: sub }, headers: { 'accept-language': 'ar' } })
    expect(ar.body).toEqual({ parent: [translate('ar', 'validation.category_cycle')] })
    expect((await t.current.call({ method: 'GET', url: `${CATEGORY}/${top}` })).body.parent).toBeNull()
    expect((await t.current.call({ method: 'GET', url: `${CATEGORY}/${sub}` })).body.parent).toBe(top)
    // A sub-sub category may become a parent category.
    const freed = await t.current.call({ method: 'PATCH', url: `${CATEGORY}/update/${subSub}`, payload: { parent: null } })
    expect(freed.status, freed.raw).toBe(200)
  })

  it('answers the three level lists under their keys, each with rows of its own level only', async () => {
    const a = await tree(t.current)
    const secondSub = await createCategory(t.current, unique('Sub'), a.top)
    const parents = await t.current.call({ method: 'GET', url: LEVELS.parents })
    expect(parents.status, parents.raw).toBe(200)
    expect(Object.keys(parents.body).sort()).toEqual(['categorys', 'parent_categories'])
    const tops = parents.body.parent_categories as Listed[]
    expect(parents.body.categorys).toEqual(tops)
    expect(tops.map((c) => c.id)).toContain(a.top)
    expect(tops.every((c) => c.parent === null)).toBe(true)
    expect(tops.map((c) => c.id)).not.toContain(a.sub)

    const subs = await t.current.call({ method: 'GET', url: LEVELS.subs(a.top) })
    expect(Object.keys(subs.body)).toEqual(['sub_categories'])
    expect(ids(subs.body.sub_categories)).toEqual([a.sub, secondSub])
    expect((subs.body.sub_categories as Listed[])[0]!.parent).toMatchObject({ id: a.top })
    const subSubs = await t.current.call({ method: 'GET', url: LEVELS.subSubs(a.sub) })
    expect(Object.keys(subSubs.body)).toEqual(['sub_sub_categories'])
    expect(ids(subSubs.body.sub_sub_categories)).toEqual([a.subSub])

    // A category of another level has none of that level.
    expect((await t.current.call({ method: 'GET', url: LEVELS.subs(a.sub) })).body).toEqual({ sub_categories: [] })
    expect((await t.current.call({ method: 'GET', url: LEVELS.subSubs(a.top) })).body).toEqual({ sub_sub_categories: [] })
    // An unknown id, or one that is not an id, is a 404, as `{id}` answers them.
    const missing = await t.current.call({ method: 'GET', url: LEVELS.subs(999999999) })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ detail: "Category id - 999999999 doesn't exists" })
    expect((await t.current.call({ method: 'GET', url: `${CATEGORY}/get_all_sub_sub_category_by_category_id_without_pagination/abc` })).status).toBe(404)
  })

  it('answers the level lists with the LIST permission only', async () => {
    const { top } = await tree(t.current)
    const userId = await t.current.createUser({ email: `catalogue-${++sequence}@example.com` })
    const headers = { authorization: `Bearer ${await signToken(JWT_SECRET, userId)}` }
    for (const url of [LEVELS.parents, LEVELS.subs(top), LEVELS.subSubs(top)]) {
      expect((await t.current.call({ method: 'GET', url, headers })).status, url).toBe(403)
      expect((await t.current.call({ method: 'GET', url, asAnonymous: true })).status, url).toBe(401)
    }
  })

  it('deletes a category with its sub categories to the Trash, each audited, in one batch; its image is released when purged', async () => {
    const { top, sub, subSub } = await tree(t.current)
    const png = tinyPng()
    const form = multipart({ name: unique('Pictured') }, [{ name: 'image', filename: 'leaf.png', type: 'image/png', data: png }])
    const upload = await t.current.call({ method: 'PUT', url: `${CATEGORY}/update/${subSub}`, payload: form.payload, headers: form.headers })
    expect(upload.status, upload.raw).toBe(200)
    const image = upload.body.image as string
    expect(image).toMatch(/^\/media\//)

    const impact = await t.current.call({ method: 'GET', url: `${CATEGORY}/delete_impact/${top}` })
    expect(impact.body).toMatchObject({ can_delete: true, references: [{ entity: 'category', field: 'parent', count: 1, effect: 'delete' }] })
    const del = await t.current.call({ method: 'DELETE', url: `${CATEGORY}/delete/${top}` })
    expect(del.status, del.raw).toBe(200)
    expect(del.body).toEqual({ detail: `Category id - ${top} is deleted successfully`, batch: expect.any(String) })
    for (const id of [top, sub, subSub]) expect((await t.current.call({ method: 'GET', url: `${CATEGORY}/${id}` })).status).toBe(404)
    const audits = await sql<{ entity_id: number; batch: string }>`select entity_id, batch::text from audit_log where entity = 'category' and action = 'delete' and entity_id = any(${[top, sub, subSub]}::bigint[])`.execute(t.current.db)
    expect(audits.rows.map((r) => Number(r.entity_id)).sort((a, b) => a - b)).toEqual([top, sub, subSub].sort((a, b) => a - b))
    expect(new Set(audits.rows.map((r) => r.batch))).toEqual(new Set([del.body.batch]))
    const releasedAt = async () => (await sql<{ released_at: unknown }>`select released_at from media_file where path = ${image}`.execute(t.current.db)).rows[0]?.released_at ?? null
    // In the Trash the picture stays: a restore brings it back.
    expect(await releasedAt()).toBeNull()
    expect((await t.current.call({ method: 'DELETE', url: `${CATEGORY}/purge/`, payload: { ids: [subSub, sub, top] } })).status).toBe(200)
    expect(await releasedAt()).not.toBeNull()
  })

  it('deletes a selection that holds a category and its own sub categories (delete_multiple/)', async () => {
    const { top, sub, subSub } = await tree(t.current)
    const del = await t.current.call({ method: 'DELETE', url: `${CATEGORY}/delete_multiple/`, payload: { ids: [top, subSub, sub] } })
    expect(del.status, del.raw).toBe(200)
    for (const id of [top, sub, subSub]) expect((await t.current.call({ method: 'GET', url: `${CATEGORY}/${id}` })).status).toBe(404)
  })

  it('keeps brand and category names in Title Case, colours and sizes in capitals, manufacturers as typed with a capital first letter', async () => {
    const cases: Array<[string, string, string]> = [
      [registry.brand.api.base, '  acme   SPORTS wear ', 'Acme Sports Wear'],
      [CATEGORY, 'mens  shoes', 'Mens Shoes'],
      [registry.color.api.base, ' navy  blue', 'NAVY BLUE'],
      [registry.size.api.base, 'xl', 'XL'],
      [registry.manufacturer.api.base, 'lG Electronics', 'LG Electronics'],
    ]
    for (const [base, sent, stored] of cases) {
      const res = await t.current.call({ method: 'POST', url: `${base}/create/`, payload: { name: sent } })
      expect(res.status, res.raw).toBe(201)
      expect(res.body.name, base).toBe(stored)
      const read = await t.current.call({ method: 'GET', url: `${base}/${res.body.id}` })
      expect(read.body.name).toBe(stored)
    }
    // Normalised before the uniqueness check: the same colour in other letters is the same colour.
    const again = await t.current.call({ method: 'POST', url: `${registry.color.api.base}/create/`, payload: { name: 'Navy Blue' } })
    expect(again.status).toBe(400)
    expect(Object.keys(again.body)).toEqual(['name'])
  })

  it('answers the list keys of §2.3: categorys, brands, manufacturers, colors, sizes', async () => {
    const keys = [
      [CATEGORY, 'categorys'],
      [registry.brand.api.base, 'brands'],
      [registry.manufacturer.api.base, 'manufacturers'],
      [registry.color.api.base, 'colors'],
      [registry.size.api.base, 'sizes'],
    ]
    for (const [base, key] of keys) {
      const page = await t.current.call({ method: 'GET', url: `${base}/all/?page=1&size=5` })
      expect(Object.keys(page.body).sort(), base).toEqual([key, 'page', 'size', 'total_elements', 'total_pages'].sort())
      expect(Object.keys((await t.current.call({ method: 'GET', url: `${base}/without_pagination/all/` })).body)).toEqual([key])
    }
  })
})

describeEachDatabase(
  'catalogue with PUBLIC_READ=category',
  (t) => {
    it("answers the level lists without a token and leaves out who wrote the rows, as the engine's own reads do", async () => {
      const { top, sub } = await tree(t.current)
      const parents = await t.current.call({ method: 'GET', url: LEVELS.parents, asAnonymous: true })
      expect(parents.status, parents.raw).toBe(200)
      const listed = (parents.body.parent_categories as Array<Listed & { created_by: unknown }>).find((c) => c.id === top)!
      expect(listed.created_by).toBeNull()
      const subs = await t.current.call({ method: 'GET', url: LEVELS.subs(top), asAnonymous: true })
      expect(ids(subs.body.sub_categories)).toEqual([sub])
    })
  },
  { entities: withPublicRead(entities, ['category']) },
)
