import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { registry } from '../../schema'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { countRows, requestOf, translate } from './helpers/samples'

/**
 * Products and what hangs on them (issue 11, api-contract §4.8): prices as decimals, a unique
 * product code, colours and sizes many-to-many — through the product and through the
 * contract's `productcolor` / `productsize` — the gallery in order, and one discount per
 * product. Routes, validation, paging and permissions of every entity are the registry suites'.
 */
const PRODUCT = registry.product.api.base
const IMAGE = registry.productimage.api.base
const DISCOUNT = registry.discount.api.base
const PRODUCT_COLOR = '/productcolor/api/v1/productcolor'
const PRODUCT_SIZE = '/productsize/api/v1/productsize'

let sequence = 0
const unique = (prefix: string) => `${prefix} ${String.fromCharCode(97 + (++sequence % 26))}${sequence}`

async function create(t: TestApp, base: string, payload: Record<string, unknown>): Promise<Record<string, any>> {
  // A picture is uploaded with the record that holds it (a file field takes nothing else).
  const entity = base === IMAGE ? registry.productimage : undefined
  const res = await t.call({ method: 'POST', url: `${base}/create/`, ...(entity ? requestOf(entity, payload) : { payload }) })
  expect(res.status, res.raw).toBe(201)
  return res.body
}

const createProduct = (t: TestApp, payload: Record<string, unknown> = {}) => create(t, PRODUCT, { name: unique('gadget'), ...payload })
const createColor = async (t: TestApp) => (await create(t, registry.color.api.base, { name: unique('shade') })).id as number
const createSize = async (t: TestApp) => (await create(t, registry.size.api.base, { name: unique('fit') })).id as number
const byId = (a: number, b: number) => a - b

describeEachDatabase('products', (t) => {
  it('keeps prices as decimal strings, never floats: "19.99" stays "19.99" in the record and the list', async () => {
    const made = await createProduct(t.current, { unit_price: '19.99', old_price: '25.5', product_code: unique('SKU') })
    expect(made).toMatchObject({ unit_price: '19.99', old_price: '25.50' })
    const read = await t.current.call({ method: 'GET', url: `${PRODUCT}/${made.id}` })
    expect(read.body).toMatchObject({ unit_price: '19.99', old_price: '25.50' })
    const listed = await t.current.call({ method: 'GET', url: `${PRODUCT}/search/?name=${encodeURIComponent(made.name)}` })
    expect(listed.body.products).toEqual([expect.objectContaining({ id: made.id, unit_price: '19.99', old_price: '25.50' })])
    // Sums the database makes stay exact: 0.10 + 0.20 is 0.30, not 0.30000000000000004.
    const a = await createProduct(t.current, { unit_price: '0.10' })
    const b = await createProduct(t.current, { unit_price: '0.20' })
    const sum = await sql<{ total: string }>`select sum(unit_price)::text as total from product where id in (${a.id}, ${b.id})`.execute(t.current.db)
    expect(sum.rows[0]!.total).toBe('0.30')
    // The largest price money takes keeps every cent.
    const big = await createProduct(t.current, { unit_price: '999999999999.99' })
    expect(big.unit_price).toBe('999999999999.99')
  })

  it('gives a new product its defaults (price 0.00, low-stock alert 5, not verified) and its name in Title Case', async () => {
    const made = await createProduct(t.current, { name: 'blue cotton shirt' })
    expect(made).toMatchObject({ name: 'Blue Cotton Shirt', unit_price: '0.00', old_price: null, low_stock_alert: 5, is_verified: false, colors: [], sizes: [] })
  })

  it('refuses a negative price, a third decimal and a negative low-stock alert (400 on each field) and writes nothing', async () => {
    const before = await countRows(t.current, 'product')
    const res = await t.current.call({ method: 'POST', url: `${PRODUCT}/create/`, payload: { name: unique('bad'), unit_price: '-1.00', old_price: '1.999', low_stock_alert: -1 } })
    expect(res.status, res.raw).toBe(400)
    expect(Object.keys(res.body).sort()).toEqual(['low_stock_alert', 'old_price', 'unit_price'])
    expect(await countRows(t.current, 'product')).toBe(before)
  })

  it('keeps product codes unique: a second product with the same code is a 400 on product_code, in each language', async () => {
    const code = unique('SKU').replace(' ', '-')
    await createProduct(t.current, { product_code: code })
    const before = await countRows(t.current, 'product')
    const again = await t.current.call({ method: 'POST', url: `${PRODUCT}/create/`, payload: { name: unique('copy'), product_code: code } })
    expect(again.status, again.raw).toBe(400)
    expect(again.body).toEqual({ product_code: ['Product with this Product Code already exists.'] })
    const tr = await t.current.call({ method: 'POST', url: `${PRODUCT}/create/`, payload: { name: unique('copy'), product_code: code }, headers: { 'accept-language': 'tr' } })
    expect(tr.body.product_code[0]).toContain(translate('tr', 'field.product_code'))
    expect(await countRows(t.current, 'product')).toBe(before)
    // Products without a code are many.
    await createProduct(t.current)
    await createProduct(t.current)
  })

  it('records who verified a product (verified_by) when the flag goes on, clears it when it goes off, and ignores a client’s value', async () => {
    const made = await createProduct(t.current, { verified_by: 424242 })
    expect(made.verified_by).toBeNull()
    const verified = await t.current.call({ method: 'PATCH', url: `${PRODUCT}/update/${made.id}`, payload: { is_verified: true } })
    expect(verified.status, verified.raw).toBe(200)
    expect(verified.body).toMatchObject({ is_verified: true, verified_by: t.current.adminId })
    // Another edit keeps who verified it.
    const renamed = await t.current.call({ method: 'PATCH', url: `${PRODUCT}/update/${made.id}`, payload: { name: 'renamed product', verified_by: 424242 } })
    expect(renamed.body.verified_by).toBe(t.current.adminId)
    const unverified = await t.current.call({ method: 'PATCH', url: `${PRODUCT}/update/${made.id}`, payload: { is_verified: false } })
    expect(unverified.body).toMatchObject({ is_verified: false, verified_by: null })
    const bornVerified = await createProduct(t.current, { is_verified: true })
    expect(bornVerified.verified_by).toBe(t.current.adminId)
  })

  it('holds colours and sizes many-to-many: set on create, replaced on update, named in _labels and the list, unlinked when a colour goes', async () => {
    const [red, blue] = [await createColor(t.current), await createColor(t.current)]
    const small = await createSize(t.current)
    const made = await createProduct(t.current, { colors: [blue, red], sizes: [small] })
    expect(made.colors).toEqual([red, blue].sort(byId))
    expect(made.sizes).toEqual([small])
    const read = await t.current.call({ method: 'GET', url: `${PRODUCT}/${made.id}` })
    expect(Object.keys(read.body._labels.colors).map(Number).sort(byId)).toEqual([red, blue].sort(byId))
    const listed = await t.current.call({ method: 'GET', url: `${PRODUCT}/search/?name=${encodeURIComponent(made.name)}` })
    expect((listed.body.products[0].colors as Array<{ id: number }>).map((c) => c.id).sort(byId)).toEqual([red, blue].sort(byId))

    const updated = await t.current.call({ method: 'PATCH', url: `${PRODUCT}/update/${made.id}`, payload: { colors: [blue] } })
    expect(updated.status, updated.raw).toBe(200)
    expect(updated.body).toMatchObject({ colors: [blue], sizes: [small] })
    // Deleting a colour takes it off the products that had it.
    expect((await t.current.call({ method: 'DELETE', url: `${registry.color.api.base}/delete/${blue}` })).status).toBe(200)
    expect((await t.current.call({ method: 'GET', url: `${PRODUCT}/${made.id}` })).body.colors).toEqual([])
  })

  it('serves productcolor over the product: get_all_by_product_id, get_by_product_id, create, update and delete read and set its colours', async () => {
    const [red, blue] = [await createColor(t.current), await createColor(t.current)]
    const made = await createProduct(t.current, { colors: [red] })
    const all = await t.current.call({ method: 'GET', url: `${PRODUCT_COLOR}/get_all_by_product_id/${made.id}` })
    expect(all.status, all.raw).toBe(200)
    expect(Object.keys(all.body)).toEqual(['product_colors'])
    expect(all.body.product_colors).toEqual([expect.objectContaining({ id: made.id, product: made.id, color: [red], _labels: { product: made.name, color: { [red]: expect.any(String) } } })])
    const one = await t.current.call({ method: 'GET', url: `${PRODUCT_COLOR}/get_by_product_id/${made.id}` })
    expect(one.body).toEqual(all.body.product_colors[0])
    expect((await t.current.call({ method: 'GET', url: `${PRODUCT_COLOR}/${made.id}` })).body).toEqual(one.body)

    const created = await t.current.call({ method: 'POST', url: `${PRODUCT_COLOR}/create/`, payload: { product: made.id, color: [blue, red] } })
    expect(created.status, created.raw).toBe(201)
    expect(created.body).toMatchObject({ id: made.id, product: made.id, color: [red, blue].sort(byId) })
    expect((await t.current.call({ method: 'GET', url: `${PRODUCT}/${made.id}` })).body.colors).toEqual([red, blue].sort(byId))

    const updated = await t.current.call({ method: 'PUT', url: `${PRODUCT_COLOR}/update/${made.id}`, payload: { color: [blue] } })
    expect(updated.status, updated.raw).toBe(200)
    expect(updated.body.color).toEqual([blue])
    expect((await t.current.call({ method: 'GET', url: `${PRODUCT}/${made.id}` })).body.colors).toEqual([blue])
    // Each change is an audited update of the product.
    const audits = await sql<{ n: number }>`select count(*)::int as n from audit_log where entity = 'product' and entity_id = ${made.id} and action = 'update'`.execute(t.current.db)
    expect(audits.rows[0]!.n).toBe(2)

    const deleted = await t.current.call({ method: 'DELETE', url: `${PRODUCT_COLOR}/delete/${made.id}` })
    expect(deleted.status, deleted.raw).toBe(200)
    expect(deleted.body).toEqual({ detail: `ProductColor id - ${made.id} is deleted successfully` })
    expect((await t.current.call({ method: 'GET', url: `${PRODUCT}/${made.id}` })).body.colors).toEqual([])
  })

  it('refuses productcolor writes it cannot apply with a field map under the contract names, and answers 404 for an unknown product', async () => {
    const made = await createProduct(t.current)
    const red = await createColor(t.current)
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ color: [red] }, 'product'],
      [{ product: 'abc', color: [red] }, 'product'],
      [{ product: 999_999_999, color: [red] }, 'product'],
      [{ product: made.id }, 'color'],
      [{ product: made.id, color: [999_999_999] }, 'color'],
      [{ product: made.id, color: ['x'] }, 'color'],
    ]
    for (const [payload, field] of cases) {
      const res = await t.current.call({ method: 'POST', url: `${PRODUCT_COLOR}/create/`, payload })
      expect(res.status, `${JSON.stringify(payload)}: ${res.raw}`).toBe(400)
      expect(Object.keys(res.body), JSON.stringify(payload)).toEqual([field])
    }
    const moved = await t.current.call({ method: 'PATCH', url: `${PRODUCT_COLOR}/update/${made.id}`, payload: { product: made.id + 1, color: [red] } })
    expect(moved.status).toBe(400)
    expect(Object.keys(moved.body)).toEqual(['product'])
    expect((await t.current.call({ method: 'GET', url: `${PRODUCT}/${made.id}` })).body.colors).toEqual([])
    const missing = await t.current.call({ method: 'GET', url: `${PRODUCT_COLOR}/get_by_product_id/999999999` })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ detail: "Product id - 999999999 doesn't exists" })
    expect((await t.current.call({ method: 'GET', url: `${PRODUCT_COLOR}/get_all_by_product_id/abc` })).status).toBe(404)
    expect((await t.current.call({ method: 'PUT', url: `${PRODUCT_COLOR}/update/999999999`, payload: { color: [red] } })).status).toBe(404)
  })

  it('serves productsize alike over the product’s sizes', async () => {
    const [s, m] = [await createSize(t.current), await createSize(t.current)]
    const made = await createProduct(t.current)
    const created = await t.current.call({ method: 'POST', url: `${PRODUCT_SIZE}/create/`, payload: { product: made.id, size: [m, s] } })
    expect(created.status, created.raw).toBe(201)
    expect(created.body).toMatchObject({ id: made.id, product: made.id, size: [s, m].sort(byId) })
    const all = await t.current.call({ method: 'GET', url: `${PRODUCT_SIZE}/get_all_by_product_id/${made.id}` })
    expect(all.body).toEqual({ product_sizes: [expect.objectContaining({ product: made.id, size: [s, m].sort(byId) })] })
    // One id alone is a set of one.
    const updated = await t.current.call({ method: 'PATCH', url: `${PRODUCT_SIZE}/update/${made.id}`, payload: { size: s } })
    expect(updated.status, updated.raw).toBe(200)
    expect((await t.current.call({ method: 'GET', url: `${PRODUCT_SIZE}/get_by_product_id/${made.id}` })).body.size).toEqual([s])
    expect((await t.current.call({ method: 'GET', url: `${PRODUCT}/${made.id}` })).body.sizes).toEqual([s])
  })

  it('lists a product’s gallery by position (all_productimage_by_product_id), a picture without a place going last', async () => {
    const made = await createProduct(t.current)
    const other = await createProduct(t.current)
    const picture = (n: number) => `/media/productimage/${made.id}-${n}.png`
    const third = await create(t.current, IMAGE, { product: made.id, image: picture(3), position: 2 })
    const first = await create(t.current, IMAGE, { product: made.id, image: picture(1), position: 0 })
    const second = await create(t.current, IMAGE, { product: made.id, image: picture(2), position: 1 })
    await create(t.current, IMAGE, { product: other.id, image: '/media/productimage/other.png' })
    const last = await create(t.current, IMAGE, { product: made.id, image: picture(4) })
    expect(last.position).toBe(3)
    const gallery = await t.current.call({ method: 'GET', url: `${IMAGE}/all_productimage_by_product_id/${made.id}` })
    expect(gallery.status, gallery.raw).toBe(200)
    expect(Object.keys(gallery.body)).toEqual(['product_images'])
    expect((gallery.body.product_images as Array<{ id: number }>).map((i) => i.id)).toEqual([first.id, second.id, third.id, last.id])
    // A picture given a later place moves there.
    expect((await t.current.call({ method: 'PATCH', url: `${IMAGE}/update/${third.id}`, payload: { position: 5 } })).status).toBe(200)
    const again = await t.current.call({ method: 'GET', url: `${IMAGE}/all_productimage_by_product_id/${made.id}` })
    expect((again.body.product_images as Array<{ id: number }>).map((i) => i.id)).toEqual([first.id, second.id, last.id, third.id])
    // Deleting the product deletes its gallery.
    expect((await t.current.call({ method: 'DELETE', url: `${PRODUCT}/delete/${made.id}` })).status).toBe(200)
    expect((await t.current.call({ method: 'GET', url: `${IMAGE}/all_productimage_by_product_id/${made.id}` })).body).toEqual({ product_images: [] })
  })

  it('keeps a discount’s percent within 0–100, whole', async () => {
    for (const percent of [0, 100]) {
      const made = await createProduct(t.current)
      expect((await create(t.current, DISCOUNT, { product: made.id, discount_percent: percent })).discount_percent).toBe(percent)
    }
    const made = await createProduct(t.current)
    for (const [percent, key] of [[101, 'validation.max_value'], [-1, 'validation.min_value'], [12.5, 'validation.integer']] as const) {
      const res = await t.current.call({ method: 'POST', url: `${DISCOUNT}/create/`, payload: { product: made.id, discount_percent: percent } })
      expect(res.status, res.raw).toBe(400)
      expect(Object.keys(res.body)).toEqual(['discount_percent'])
      expect(res.body.discount_percent[0]).toBe(translate('en', key).replace('{{max}}', '100').replace('{{min}}', '0'))
    }
    expect((await t.current.call({ method: 'GET', url: `${DISCOUNT}/get_a_discount_by_product_id/${made.id}` })).status).toBe(404)
  })

  it('refuses a discount that ends before it starts, in each language, on create and on update', async () => {
    const made = await createProduct(t.current)
    for (const lang of ['en', 'tr', 'ar'] as const) {
      const res = await t.current.call({
        method: 'POST',
        url: `${DISCOUNT}/create/`,
        payload: { product: made.id, discount_percent: 10, start_date: '2025-06-10', end_date: '2025-06-09' },
        headers: { 'accept-language': lang },
      })
      expect(res.status, res.raw).toBe(400)
      expect(res.body).toEqual({ end_date: [translate(lang, 'validation.discount_dates')] })
    }
    // One day is a period: start and end the same day.
    const ok = await create(t.current, DISCOUNT, { product: made.id, discount_percent: 10, start_date: '2025-06-10', end_date: '2025-06-10' })
    const later = await t.current.call({ method: 'PATCH', url: `${DISCOUNT}/update/${ok.id}`, payload: { start_date: '2025-07-01' } })
    expect(later.status).toBe(400)
    expect(later.body).toEqual({ end_date: [translate('en', 'validation.discount_dates')] })
    expect((await t.current.call({ method: 'GET', url: `${DISCOUNT}/${ok.id}` })).body.start_date).toBe('2025-06-10')
  })

  it('gives a product one discount at most, found by get_a_discount_by_product_id', async () => {
    const made = await createProduct(t.current)
    const first = await create(t.current, DISCOUNT, { product: made.id, discount_percent: 15, start_date: '2025-01-01', end_date: '2025-01-31' })
    const second = await t.current.call({ method: 'POST', url: `${DISCOUNT}/create/`, payload: { product: made.id, discount_percent: 20 } })
    expect(second.status, second.raw).toBe(400)
    expect(second.body).toEqual({ product: ['Discount with this Product already exists.'] })

    const found = await t.current.call({ method: 'GET', url: `${DISCOUNT}/get_a_discount_by_product_id/${made.id}` })
    expect(found.status, found.raw).toBe(200)
    expect(found.body).toEqual((await t.current.call({ method: 'GET', url: `${DISCOUNT}/${first.id}` })).body)
    expect(found.body).toMatchObject({ product: made.id, discount_percent: 15, _labels: { product: made.name } })

    const bare = await createProduct(t.current)
    const none = await t.current.call({ method: 'GET', url: `${DISCOUNT}/get_a_discount_by_product_id/${bare.id}`, headers: { 'accept-language': 'tr' } })
    expect(none.status).toBe(404)
    expect(none.body).toEqual({ detail: translate('tr', 'detail.no_discount_for_product').replace('{{id}}', String(bare.id)) })
    const unknown = await t.current.call({ method: 'GET', url: `${DISCOUNT}/get_a_discount_by_product_id/999999999` })
    expect(unknown.body).toEqual({ detail: "Product id - 999999999 doesn't exists" })
    // The discount goes with its product.
    expect((await t.current.call({ method: 'DELETE', url: `${PRODUCT}/delete/${made.id}` })).status).toBe(200)
    expect((await t.current.call({ method: 'GET', url: `${DISCOUNT}/${first.id}` })).status).toBe(404)
  })
})
