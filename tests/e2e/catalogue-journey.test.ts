import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'
import { choose as pick, saveTo, signInAsDemoAdmin } from './support/forms'
import { inEveryLook, overflowOf, shoot } from './support/looks'

/**
 * The catalogue in real Chromium against a real server (issue 11): a category under another
 * (picked in the tree), a brand, a product with two colours and two gallery images chosen on
 * its form before it exists (real PNGs: the server reads the bytes and makes thumbnails),
 * found from the list search by part of its name, its pictures reordered by keyboard drag, its
 * price changed, one image deleted — and its form in every look.
 */
const shotsDir = process.env.SHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'catalogue-shots-'))
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
  mkdirSync(shotsDir, { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const save = (listPath: string) => saveTo(page, listPath)
const choose = (label: string | RegExp, text: string, option: RegExp) => pick(page, label, text, option)

describe('the catalogue in the browser', () => {
  it('builds a category tree, a brand and a product with two colours and two images; finds it, reprices it, deletes an image', async () => {
    await signInAsDemoAdmin(page, server.url)

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

    // The product: its category, brand, two colours, a price, and two pictures chosen before it exists.
    const products = '/apps/e-commerce/products'
    await page.goto(`${server.url}${products}`)
    await page.getByRole('link', { name: 'New' }).click()
    await page.getByRole('textbox', { name: /^Name/ }).fill('acme phone x200')
    await choose(/^Category/, 'phon', /^Phones/)
    await choose(/^Brand/, 'acm', /^Acme/)
    for (const colour of ['RED', 'BLUE']) await choose(/^Colors/, colour.toLowerCase(), new RegExp(`^${colour}$`))
    await page.getByRole('textbox', { name: /^Unit Price/ }).fill('199.99')
    await page.getByLabel(/Add pictures/).setInputFiles([
      { name: 'red.png', mimeType: 'image/png', buffer: await png('#c00') },
      { name: 'blue.png', mimeType: 'image/png', buffer: await png('#00c') },
    ])
    await expect.poll(() => page.getByRole('listitem', { name: /^Picture \d$/ }).count()).toBe(2)
    // What was typed is still there when Save is pressed (a CI run once saved 0.00: this says where it went).
    expect(await page.getByRole('textbox', { name: /^Unit Price/ }).inputValue()).toBe('199.99')
    await save(products)
    const { products: created } = await api<{ products: Array<{ id: number; name: string; unit_price: string; colors: unknown[] }> }>('/product/api/v1/product/all/?q=x200')
    expect(created).toHaveLength(1)
    expect(created[0]).toMatchObject({ name: 'Acme Phone X200', unit_price: '199.99' })
    expect(created[0]!.colors).toHaveLength(2)
    const productId = created[0]!.id
    const galleryOf = async () => (await api<{ product_images: Array<{ id: number; image: string }> }>(`/productimage/api/v1/productimage/all_productimage_by_product_id/${productId}`)).product_images
    const uploaded = await galleryOf()
    expect(uploaded).toHaveLength(2)
    // The server made a thumbnail of each.
    for (const image of uploaded) expect((await fetch(`${server.url}${image.image.replace(/\.[a-z]+$/, '.thumb.webp')}`)).status).toBe(200)
    const [red, blue] = uploaded.map((image) => image.id)

    // Found from the list search by part of its name.
    await page.goto(`${server.url}${products}`)
    await page.getByRole('searchbox').fill('phone x2')
    const row = page.getByRole('row', { name: /Acme Phone X200/ })
    await expect.poll(() => row.count()).toBe(1)
    await row.getByRole('link').first().click()
    const price = page.getByRole('textbox', { name: /^Unit Price/ })
    await expect.poll(() => price.inputValue()).toBe('199.99')

    // The second picture dragged first with the keyboard (space, arrow, space): saved at once.
    await expect.poll(() => page.getByRole('listitem', { name: /^Picture \d$/ }).count()).toBe(2)
    const handle = page.getByRole('button', { name: 'Drag picture 2' })
    await handle.focus()
    await page.keyboard.press('Space')
    // Each step as a person takes it: picked up (the handle says so), moved over place 1 (the live region says so), dropped.
    await expect.poll(() => handle.getAttribute('aria-pressed')).toBe('true')
    // dnd-kit measures the places just after the pick-up: an arrow pressed before that moves nothing, so it is pressed until one does.
    await expect
      .poll(async () => {
        await page.keyboard.press('ArrowLeft')
        return page.getByText('Over place 1.').count()
      })
      .toBe(1)
    await page.keyboard.press('Space')
    await expect.poll(async () => (await galleryOf()).map((image) => image.id), { timeout: 10_000 }).toEqual([blue, red])
    await shoot(page, { path: join(shotsDir, 'product-gallery.png'), fullPage: true })

    // One picture removed on the form, after the confirmation.
    await page.getByRole('button', { name: 'Remove picture 2' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click()
    await expect.poll(async () => (await galleryOf()).map((image) => image.id), { timeout: 10_000 }).toEqual([blue])
    // The question is gone once answered: nothing is left over the form to catch the next click.
    await expect.poll(() => page.locator('#headlessui-portal-root').count()).toBe(0)

    // Its price changed.
    await price.fill('149.50')
    await save(products)
    expect((await api<{ unit_price: string }>(`/product/api/v1/product/${productId}`)).unit_price).toBe('149.50')
  })

  it('shows the product form with its gallery in light and dark, English and Arabic, on a desktop and a phone', async () => {
    const { products: found } = await api<{ products: Array<{ id: number }> }>('/product/api/v1/product/all/?q=x200')
    const stored = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage)) as Record<string, string>)
    await inEveryLook(browser, stored, async (shot, { width, language, mode }) => {
      await shot.goto(`${server.url}/apps/e-commerce/product/${found[0]!.id}`)
      await expect.poll(() => shot.locator('section img').count()).toBe(1)
      // Tiles load lazily: brought into view, the picture is there before the shot.
      await shot.locator('section img').scrollIntoViewIfNeeded()
      await expect.poll(() => shot.locator('section img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
      await shot.waitForLoadState('networkidle')
      await shoot(shot, { path: join(shotsDir, `product-form-${width}-${language}-${mode}.png`), fullPage: true })
      expect(await overflowOf(shot)).toBeLessThanOrEqual(0)
    })
  })
})
