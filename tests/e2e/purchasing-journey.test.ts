import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'
import { runLedgerReport, signInAsDemoAdmin } from './support/forms'
import { inEveryLook, overflowOf, shoot } from './support/looks'

/**
 * Purchasing in real Chromium against a real server (issue 21): a vendor's offer with a
 * picture from the storefront (the contract's multipart form, as a guest — the vendor is
 * registered by it), reviewed on its form (Start Processing, Submit, Verify), made a final
 * purchase there (Make Final Purchase), paid in part and confirmed on its form; then the stock list shows the goods and
 * the vendor's ledger the bill and the payment. The purchase's form in every look.
 */
let server: RunningServer
let browser: Browser
let page: Page
let purchasePath = ''
const shotsDir = process.env.SHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'purchasing-shots-'))

beforeAll(async () => {
  mkdirSync(shotsDir, { recursive: true })
  server = await startServer()
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (!process.env.SHOTS_DIR) rmSync(shotsDir, { recursive: true, force: true })
})

describe('purchasing in the browser', () => {
  it('takes a vendor’s offer with a picture through review, purchase, pay & confirm, into stock and the vendor’s ledger', async () => {
    // The storefront's "sell to us" form, sent as a guest.
    const offer = new FormData()
    for (const [name, value] of Object.entries({
      first_name: 'Nasrin',
      last_name: 'Sultana',
      email: 'nasrin@looms.example.com',
      contact_no: '+8801555000777',
      'items[0][item_name]': 'Jute Shopping Bag',
      'items[0][item_price]': '120',
      'items[0][item_quantity]': '50',
      'items[0][item_description]': 'Natural jute, 40 × 35 cm',
    }))
      offer.append(name, value)
    const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#a0522d' } }).png().toBuffer()
    offer.append('items[0][images][0]', new Blob([picture], { type: 'image/png' }), 'bag.png')
    const sent = await fetch(`${server.url}/purchase_request/api/v1/purchase_request/create_vendor_purchase_request/`, { method: 'POST', body: offer })
    expect(sent.status, await sent.clone().text()).toBe(201)
    const { data } = (await sent.json()) as { data: { id: number; purchase_request_items: Array<{ purchase_request_item_images: unknown[] }> } }
    expect(data.purchase_request_items[0]!.purchase_request_item_images).toHaveLength(1)

    await signInAsDemoAdmin(page, server.url)
    const nav = page.getByRole('navigation', { name: 'Main navigation' })
    await nav.getByRole('link', { name: 'Purchase Requests' }).click()
    await page.waitForURL((url) => url.pathname === '/apps/purchase-management/purchase-requests')
    const row = page.getByRole('row', { name: /Nasrin/ })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.innerText()).toContain('Pending')
    // The spec's address of its items opens its form.
    await page.goto(`${server.url}/apps/purchase-management/purchase-request/items/${data.id}/Nasrin`)
    await page.waitForURL((url) => url.pathname.startsWith(`/apps/purchase-management/purchase-request/${data.id}`))
    // The pictures the vendor sent, under the offer's form.
    const pictures = page.getByRole('region', { name: 'Item Pictures' })
    await expect.poll(() => pictures.getByRole('img', { name: 'Jute Shopping Bag 1' }).isVisible()).toBe(true)
    expect(await pictures.getByRole('img', { name: 'Jute Shopping Bag 1' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    for (const step of ['Start Processing', 'Submit', 'Verify']) {
      await page.getByRole('button', { name: step, exact: true }).click()
      await expect.poll(() => page.getByRole('button', { name: step, exact: true }).count()).toBe(0)
    }
    await expect.poll(() => page.getByText('Verified', { exact: true }).first().isVisible()).toBe(true)
    await shoot(page, { path: join(shotsDir, 'purchase-request.png'), fullPage: true })

    // The purchase from the offer (the bag is a product of the demo, matched by its name), shown under the offer.
    await page.getByRole('button', { name: 'Make Final Purchase', exact: true }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Make Final Purchase', exact: true }).click()
    const purchases = page.getByRole('region', { name: 'Final Purchases' })
    const made = purchases.getByRole('link', { name: /^PF\d{11}$/ })
    await expect.poll(() => made.count()).toBe(1)
    const purchase = { invoice_no: await made.innerText() }
    await made.click()
    await page.waitForURL((url) => /^\/apps\/purchasefinal-management\/purchase-final\/\d+$/.test(url.pathname))
    purchasePath = new URL(page.url()).pathname
    await page.getByRole('button', { name: 'Pay Bill & Confirm', exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('textbox', { name: 'Paid Now' }).fill('2000')
    const from = dialog.getByLabel('Paid From')
    await from.click()
    await from.fill('cash')
    await page.getByRole('option', { name: /^Cash/ }).first().click()
    await shoot(page, { path: join(shotsDir, 'purchase-pay-and-confirm.png') })
    await dialog.getByRole('button', { name: 'Pay Bill & Confirm', exact: true }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Pay Bill & Confirm', exact: true }).count()).toBe(0)
    await expect.poll(() => page.getByText('Partly Paid', { exact: true }).first().isVisible()).toBe(true)
    // What was paid against it, under its form.
    const payments = page.getByRole('region', { name: 'Purchase Payments' })
    await expect.poll(() => payments.getByRole('row', { name: /PV\d{11}/ }).count()).toBe(1)
    expect(await payments.getByRole('row', { name: /PV\d{11}/ }).innerText()).toContain('2,000.00')
    await shoot(page, { path: join(shotsDir, 'purchase-confirmed.png'), fullPage: true })
    // Its invoice, printed through the one print view of every document: who supplied it, its lines, the amount in words.
    await page.emulateMedia({ media: 'print' })
    const printed = page.getByTestId('print-document')
    await expect.poll(() => printed.isVisible()).toBe(true)
    expect(await printed.getByTestId('print-party').innerText()).toContain('nasrin')
    await expect.poll(() => printed.getByTestId('print-amount-words').innerText()).toBe('Six thousand taka only')
    await shoot(page, { path: join(shotsDir, 'purchase-print.png'), fullPage: true })
    await page.emulateMedia({ media: 'screen' })

    // The stock: the demo's 4 bags less the one its order sold, and the 50 bought.
    await nav.getByRole('link', { name: 'Stock', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/apps/inventory-management/inventories')
    const bags = page.getByRole('row', { name: /Jute Shopping Bag/ })
    await expect.poll(() => bags.count()).toBe(1)
    await expect.poll(() => bags.innerText()).toMatch(/\b53\b/)
    await shoot(page, { path: join(shotsDir, 'purchase-stock.png'), fullPage: true })
    // The product's movement history, on its form: the demo's opening stock, its order's sale and this purchase.
    await nav.getByRole('link', { name: 'Products', exact: true }).click()
    await page.getByRole('link', { name: 'Jute Shopping Bag' }).click()
    const movements = page.getByRole('region', { name: 'Stock Movements' })
    await expect.poll(() => movements.getByRole('row').count()).toBe(4)
    expect(await movements.getByRole('row').nth(1).innerText()).toContain(purchase.invoice_no)
    await shoot(page, { path: join(shotsDir, 'purchase-product-movements.png'), fullPage: true })

    // The vendor's ledger (named by the username the offer gave them): the bill credited, the payment debited.
    await runLedgerReport(page, 'nasrin', /^Nasrin/)
    await expect.poll(() => page.getByRole('row', { name: /PU\d{11}/ }).count()).toBe(1)
    expect(await page.getByRole('row', { name: /PU\d{11}/ }).innerText()).toContain('6,000.00')
    expect(await page.getByRole('row', { name: /PV\d{11}/ }).innerText()).toContain('2,000.00')
    expect(await page.getByRole('row', { name: /Closing balance/ }).innerText()).toContain('4,000.00')
    await shoot(page, { path: join(shotsDir, 'purchase-vendor-ledger.png'), fullPage: true })
  })

  it('fits light and dark, English and Arabic, a desktop and a phone', async () => {
    const stored = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage)) as Record<string, string>)
    await inEveryLook(browser, stored, async (shot, { width, language, mode }) => {
      await shot.goto(`${server.url}${purchasePath}`)
      await shot.waitForLoadState('networkidle')
      expect(await shot.evaluate(() => document.documentElement.dir)).toBe(language === 'ar' ? 'rtl' : 'ltr')
      await shoot(shot, { path: join(shotsDir, `purchase-${width}-${language}-${mode}.png`), fullPage: true })
      expect(await overflowOf(shot)).toBeLessThanOrEqual(0)
    })
  })
})
