import sharp from 'sharp'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'

/**
 * The catalogue in real Chromium against a real server (issue 11): a category under another
 * (picked in the tree), a brand, a product with two colours and two gallery images (real
 * PNGs: the server reads the bytes and makes thumbnails), found from the list search by part
 * of its name, its price changed, one image deleted.
 */
let server: RunningServer
let browser: Browser
let page: Page
let token = ''

async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const r = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`)
  return (await r.json()) as T
}

const png = (color: string) => sharp({ create: { width: 64, height: 48, channels: 3, background: color } }).png().toBuffer()

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  const login = await fetch(`${server.url}/user/api/v1/user/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'admin123' }) })
  token = `Bearer ${((await login.json()) as { access: string }).access}`
  for (const name of ['red', 'blue', 'green']) await api('/color/api/v1/color/create/', { method: 'POST', body: { name } })
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function save(listPath: string): Promise<void> {
  await page.getByRole('button', { name: 'Save' }).click()
  await page.waitForURL((url) => url.pathname === listPath)
}

async function choose(label: string | RegExp, text: string, option: RegExp): Promise<void> {
  const input = page.getByLabel(label).first()
  await input.click()
  await input.fill(text)
  await page.getByRole('option', { name: option }).first().click()
}

describe('the catalogue in the browser', () => {
  it('builds a category tree, a brand and a product with two colours and two images; finds it, reprices it, deletes an image', async () => {
    await page.goto(`${server.url}/login`)
    await page.waitForFunction(() => (document.querySelector('input[type=email]') as HTMLInputElement | null)?.value === 'admin@example.com')
    await page.getByRole('button', { name: 'Login' }).click()
    await page.waitForURL(/\/apps\/dashboards\/project$/)

    // Categories: Electronics, and Phones under it (the parent picked in the tree).
    const categories = '/apps/categories-management/categories'
    for (const [name, parent] of [['Electronics', null], ['Phones', 'Electronics']] as const) {
      await page.goto(`${server.url}${categories}`)
      await page.getByRole('link', { name: 'New' }).click()
      await page.getByRole('textbox', { name: /^Name/ }).fill(name)
      if (parent) await choose(/^Parent/, parent.slice(0, 4), new RegExp(`^${parent}`))
      await save(categories)
    }
    const tree = await api<{ categorys: Array<{ name: string; parent: { name: string } | null }> }>('/category/api/v1/category/all/?size=50')
    expect(tree.categorys.find((c) => c.name === 'Phones')?.parent?.name).toBe('Electronics')

    const brands = '/apps/brand-management/brands'
    await page.goto(`${server.url}${brands}`)
    await page.getByRole('link', { name: 'New' }).click()
    await page.getByRole('textbox', { name: /^Name/ }).fill('acme')
    await save(brands)

    // The product: its category, brand, two colours, a price.
    const products = '/apps/e-commerce/products'
    await page.goto(`${server.url}${products}`)
    await page.getByRole('link', { name: 'New' }).click()
    await page.getByRole('textbox', { name: /^Name/ }).fill('acme phone x200')
    await choose(/^Category/, 'phon', /^Phones/)
    await choose(/^Brand/, 'acm', /^Acme/)
    for (const colour of ['RED', 'BLUE']) await choose(/^Colors/, colour.toLowerCase(), new RegExp(`^${colour}$`))
    await page.getByRole('textbox', { name: /^Unit Price/ }).fill('199.99')
    await save(products)
    const { products: created } = await api<{ products: Array<{ id: number; name: string; unit_price: string; colors: unknown[] }> }>('/product/api/v1/product/all/?q=x200')
    expect(created).toHaveLength(1)
    expect(created[0]).toMatchObject({ name: 'Acme Phone X200', unit_price: '199.99' })
    expect(created[0]!.colors).toHaveLength(2)

    // Two gallery images, real PNGs uploaded through the form.
    const images = '/apps/productImage-management/productImages'
    const imagesList = (await api<{ product_images: unknown[] }>(`/productimage/api/v1/productimage/all_productimage_by_product_id/${created[0]!.id}`)).product_images
    expect(imagesList).toHaveLength(0)
    for (const color of ['#c00', '#00c']) {
      await page.goto(`${server.url}${images}`)
      await page.getByRole('link', { name: 'New' }).click()
      await choose(/^Product/, 'x200', /^Acme Phone X200/)
      await page.locator('input[type=file]').first().setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: await png(color) })
      await page.getByRole('button', { name: 'Save' }).click()
      await page.waitForURL((url) => !url.pathname.endsWith('/new'))
    }
    const gallery = (await api<{ product_images: Array<{ id: number; image: string }> }>(`/productimage/api/v1/productimage/all_productimage_by_product_id/${created[0]!.id}`)).product_images
    expect(gallery).toHaveLength(2)
    // The server made a thumbnail of each.
    for (const image of gallery) expect((await fetch(`${server.url}${image.image.replace(/\.[a-z]+$/, '.thumb.webp')}`)).status).toBe(200)

    // Found from the list search by part of its name; its price changed.
    await page.goto(`${server.url}${products}`)
    await page.getByRole('searchbox').fill('phone x2')
    const row = page.getByRole('row', { name: /Acme Phone X200/ })
    await expect.poll(() => row.count()).toBe(1)
    await row.getByRole('link').first().click()
    const price = page.getByRole('textbox', { name: /^Unit Price/ })
    await expect.poll(() => price.inputValue()).toBe('199.99')
    await price.fill('149.50')
    await save(products)
    expect((await api<{ unit_price: string }>(`/product/api/v1/product/${created[0]!.id}`)).unit_price).toBe('149.50')

    // One image deleted from the gallery's list.
    await page.goto(`${server.url}${images}`)
    await page.getByRole('button', { name: /^Delete/ }).first().click()
    await page.getByRole('dialog').getByRole('button', { name: /^Delete/ }).click()
    await expect
      .poll(async () => (await api<{ product_images: unknown[] }>(`/productimage/api/v1/productimage/all_productimage_by_product_id/${created[0]!.id}`)).product_images.length)
      .toBe(1)
  })
})
