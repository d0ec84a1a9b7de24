import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { registry } from '../../schema'
import { checkRegistry } from '../../schema/check'
import { defineEntity, f } from '../../schema/kit'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { requestOf } from './helpers/samples'

/**
 * Galleries (EntityConfig.gallery): `reorder/` puts every picture of one owner in the given
 * order in one transaction — each moved picture updated and audited — and refuses, writing
 * nothing, an order that leaves a picture out, repeats one or takes another owner's. Deleting
 * the owner deletes its pictures through the engine (the engine's cascade).
 */
const PRODUCT = registry.product.api.base
const IMAGE = registry.productimage.api.base

async function create(t: TestApp, base: string, payload: Record<string, unknown>): Promise<Record<string, any>> {
  // A picture is uploaded with the record that holds it (a file field takes nothing else).
  const res = await t.call({ method: 'POST', url: `${base}/create/`, ...(base === IMAGE ? requestOf(registry.productimage, payload) : { payload }) })
  expect(res.status, res.raw).toBe(201)
  return res.body
}

let n = 0
async function productWithPictures(t: TestApp, count: number): Promise<{ product: number; pictures: number[] }> {
  const product = (await create(t, PRODUCT, { name: `framed print ${++n}` })).id as number
  const pictures: number[] = []
  for (let i = 0; i < count; i++) pictures.push((await create(t, IMAGE, { product, image: `/media/productimage/${product}-${i}.png` })).id as number)
  return { product, pictures }
}

const order = async (t: TestApp, product: number) =>
  ((await t.call({ method: 'GET', url: `${IMAGE}/all_productimage_by_product_id/${product}` })).body.product_images as Array<{ id: number; position: number }>).map((p) => p.id)

describeEachDatabase('galleries', (t) => {
  it('puts a product’s pictures in the order given, answers the gallery in that order and audits each moved picture', async () => {
    const { product, pictures } = await productWithPictures(t.current, 3)
    const [a, b, c] = pictures as [number, number, number]
    const res = await t.current.call({ method: 'POST', url: `${IMAGE}/reorder/`, payload: { product, ids: [c, a, b] } })
    expect(res.status, res.raw).toBe(200)
    expect(Object.keys(res.body)).toEqual(['product_images'])
    expect(res.body.product_images.map((p: { id: number; position: number }) => [p.id, p.position])).toEqual([[c, 0], [a, 1], [b, 2]])
    expect(await order(t.current, product)).toEqual([c, a, b])
    const audits = await sql<{ entity_id: string }>`select entity_id from audit_log where entity = 'productimage' and action = 'update' and entity_id = any(${pictures}::bigint[])`.execute(t.current.db)
    expect(audits.rows.map((r) => Number(r.entity_id)).sort()).toEqual([a, b, c].sort())
  })

  it('refuses an order that leaves a picture out, repeats one or takes another product’s, and moves nothing', async () => {
    const { product, pictures } = await productWithPictures(t.current, 3)
    const other = await productWithPictures(t.current, 1)
    const [a, b, c] = pictures as [number, number, number]
    for (const ids of [[a, b], [a, b, c, c], [a, b, other.pictures[0]!], [a, b, c, other.pictures[0]!]]) {
      const res = await t.current.call({ method: 'POST', url: `${IMAGE}/reorder/`, payload: { product, ids } })
      expect(res.status, res.raw).toBe(400)
      expect(res.body.detail).toMatch(/Product Images/)
    }
    expect(await order(t.current, product)).toEqual([a, b, c])
    const tr = await t.current.call({ method: 'POST', url: `${IMAGE}/reorder/`, payload: { product, ids: [a] }, headers: { 'accept-language': 'tr' } })
    expect(tr.status).toBe(400)
    expect(tr.body.detail).not.toMatch(/Send every one/)
  })

  it('names the owner field when it is missing, not an id or not stored; a body without ids is a {detail}', async () => {
    const missing = await t.current.call({ method: 'POST', url: `${IMAGE}/reorder/`, payload: { ids: [] } })
    expect(missing.status).toBe(400)
    expect(Object.keys(missing.body)).toEqual(['product'])
    const notId = await t.current.call({ method: 'POST', url: `${IMAGE}/reorder/`, payload: { product: 'x', ids: [] } })
    expect(Object.keys(notId.body)).toEqual(['product'])
    const unknown = await t.current.call({ method: 'POST', url: `${IMAGE}/reorder/`, payload: { product: 99_999_999, ids: [] } })
    expect(unknown.status).toBe(400)
    expect(Object.keys(unknown.body)).toEqual(['product'])
    const { product } = await productWithPictures(t.current, 1)
    const noIds = await t.current.call({ method: 'POST', url: `${IMAGE}/reorder/`, payload: { product, ids: 'all' } })
    expect(noIds.status).toBe(400)
    expect(noIds.body).toHaveProperty('detail')
  })

  it('deletes a product’s pictures with it through the engine: each audited, its file released', async () => {
    const { product, pictures } = await productWithPictures(t.current, 2)
    const paths = (await sql<{ image: string }>`select image from productimage where product = ${product} order by id`.execute(t.current.db)).rows.map((r) => r.image)
    expect((await t.current.call({ method: 'DELETE', url: `${PRODUCT}/delete/${product}` })).status).toBe(200)
    const audits = await sql<{ entity_id: string }>`select entity_id from audit_log where entity = 'productimage' and action = 'delete' and entity_id = any(${pictures}::bigint[])`.execute(t.current.db)
    expect(audits.rows.map((r) => Number(r.entity_id)).sort()).toEqual([...pictures].sort())
    const released = await sql<{ path: string }>`select path from media_file where path = any(${paths}::text[]) and released_at is not null`.execute(t.current.db)
    expect(released.rows.map((r) => r.path).sort()).toEqual([...paths].sort())
  })

  it('lets an owner with no pictures be "reordered" to nothing', async () => {
    const { product } = await productWithPictures(t.current, 0)
    const res = await t.current.call({ method: 'POST', url: `${IMAGE}/reorder/`, payload: { product, ids: [] } })
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toEqual({ product_images: [] })
  })
})

it('the start-up check refuses a gallery without an owner reference, an image or a writable integer place', () => {
  const owner = defineEntity({ name: 'album', module: 'test', listKey: 'albums', route: { area: 'albums', list: 'albums' }, fields: { name: f.text({ required: true }) } })
  const bad = defineEntity({
    name: 'snapshot',
    module: 'test',
    listKey: 'snapshots',
    route: { area: 'snapshots', list: 'snapshots' },
    labelField: 'caption',
    fields: { caption: f.text(), album: f.ref('album'), picture: f.file(), place: f.text() },
    gallery: { of: 'album', image: 'picture', position: 'place' },
  })
  const messages = checkRegistry([owner, bad]).map((p) => p.message)
  expect(messages).toEqual(
    expect.arrayContaining([expect.stringContaining("gallery.of 'album'"), expect.stringContaining("gallery.image 'picture'"), expect.stringContaining("gallery.position 'place'")]),
  )
})
