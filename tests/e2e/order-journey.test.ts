import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'
import { fromMail } from './support/mail'
import { signInAsDemoAdmin } from './support/forms'
import { inEveryLook, overflowOf, shoot } from './support/looks'

/**
 * An order in real Chromium against a real server (issue 22): a customer's order of two
 * products entered on the order screen (each product found with its stock), confirmed with a
 * part payment, packed, shipped and delivered, its invoice mailed — the `.eml` the outbox
 * writes holds a real PDF — and the dashboard's figures moved by it. The order's screen and
 * the dashboard in every look.
 */
let server: RunningServer
let browser: Browser
let page: Page
let orderPath = ''
const shotsDir = process.env.SHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'order-shots-'))

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

const figure = async (name: string) => Number((await page.getByTestId(`figure-${name}`).innerText()).replace(/[^\d]/g, ''))

async function pickInLine(label: string, text: string, option: RegExp): Promise<void> {
  const input = page.getByLabel(label)
  await input.click()
  await input.fill(text)
  await page.getByRole('option', { name: option }).first().click()
}

describe('an order in the browser', () => {
  it('takes a customer’s order of two products through confirmation with a part payment to delivery, mails its invoice as a PDF, and moves the dashboard', async () => {
    await signInAsDemoAdmin(page, server.url)
    await expect.poll(() => page.getByTestId('figure-unpaid_orders').isVisible(), { timeout: 15_000 }).toBe(true)
    const [paidBefore, unpaidBefore] = [await figure('paid_orders'), await figure('unpaid_orders')]
    await shoot(page, { path: join(shotsDir, 'dashboard-before.png'), fullPage: true })

    await page.goto(`${server.url}/apps/e-commerce/orders/new`)
    await page.getByRole('heading', { name: 'New Order' }).waitFor()
    await pickInLine('Customer', 'farh', /^farhana/)
    // Each product is found with its units on hand.
    const product = page.getByLabel('Product, line 1')
    await product.click()
    await product.fill('green tea')
    await expect.poll(() => page.getByRole('option', { name: /Srimangal Green Tea 500g.*in stock/ }).count()).toBe(1)
    await shoot(page, { path: join(shotsDir, 'order-product-search.png') })
    await page.getByRole('option', { name: /Srimangal Green Tea 500g/ }).click()
    await page.getByLabel('Quantity, line 1').fill('2')
    await page.getByRole('button', { name: 'Add line' }).click()
    await pickInLine('Product, line 2', 'jute', /Jute Shopping Bag/)
    await page.getByLabel('Quantity, line 2').fill('1')
    // Each line's price is the product's, filled in as it is picked.
    await expect.poll(() => page.getByLabel('Unit Price, line 2').inputValue()).toBe('220.00')
    expect(await page.getByLabel('Unit Price, line 1').inputValue()).toBe('450.00')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await page.waitForURL((url) => /^\/apps\/e-commerce\/orders\/\d+$/.test(url.pathname))
    orderPath = new URL(page.url()).pathname
    // Sold at the products' prices: 2 × 450 + 220.
    await expect.poll(() => page.getByText('1,120.00').first().isVisible()).toBe(true)

    // Confirmed with 500 paid in cash: the goods leave, the sale posts, the payment is taken.
    await page.getByRole('button', { name: 'Confirm', exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('textbox', { name: 'Paid Now' }).fill('500')
    const into = dialog.getByLabel('Received Into')
    await into.click()
    await into.fill('cash')
    await page.getByRole('option', { name: /^Cash/ }).first().click()
    await shoot(page, { path: join(shotsDir, 'order-confirm.png') })
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click()
    await expect.poll(() => page.getByText('Partly Paid', { exact: true }).first().isVisible()).toBe(true)
    const payments = page.getByRole('region', { name: 'Order Payments' })
    await expect.poll(() => payments.getByRole('row', { name: /RV\d{11}/ }).count()).toBe(1)
    expect(await payments.getByRole('row', { name: /RV\d{11}/ }).innerText()).toContain('500.00')

    for (const step of ['Pack', 'Ship', 'Mark Delivered']) {
      await page.getByRole('button', { name: step, exact: true }).click()
      await expect.poll(() => page.getByRole('button', { name: step, exact: true }).count()).toBe(0)
    }
    await expect.poll(() => page.getByText('Delivered', { exact: true }).first().isVisible()).toBe(true)
    await shoot(page, { path: join(shotsDir, 'order-delivered.png'), fullPage: true })

    // Its invoice, mailed to the customer: the outbox's .eml holds a real PDF.
    const orderNo = (await page.getByRole('heading', { level: 1 }).innerText()).match(/OR\d{11}/)![0]
    await page.getByRole('button', { name: 'Send Invoice', exact: true }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Send Invoice', exact: true }).click()
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0)
    const mail = await fromMail(server.dataDir, (m) => (m.includes(`invoice-${orderNo}.pdf`) ? m : undefined))
    expect(mail).toContain('farhana@example.com')
    expect(mail).toMatch(/Content-Type: application\/pdf/i)
    const part = mail.split(/Content-Type: application\/pdf/i)[1]!
    const base64 = part.split(/\r?\n\r?\n/)[1]!.split(/\r?\n--/)[0]!.replace(/\s+/g, '')
    expect(Buffer.from(base64, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-')

    // The dashboard: one more sale not paid in full.
    await page.goto(`${server.url}/apps/dashboards/project`)
    await expect.poll(() => page.getByTestId('figure-unpaid_orders').isVisible(), { timeout: 15_000 }).toBe(true)
    await expect.poll(() => figure('unpaid_orders')).toBe(unpaidBefore + 1)
    expect(await figure('paid_orders')).toBe(paidBefore)
    await shoot(page, { path: join(shotsDir, 'dashboard-after.png'), fullPage: true })
    // Its figure opens the unpaid sales, this one among them.
    await page.getByRole('link', { name: 'Open Unpaid Orders' }).click()
    await page.waitForURL((url) => url.pathname === '/apps/order-managements/orders/unpaid')
    await expect.poll(() => page.getByRole('row', { name: new RegExp(orderNo) }).count()).toBe(1)

    // The spec's invoice address of a demo order opens it; printed, it shows where it goes with its lines and totals.
    await page.goto(`${server.url}/apps/order-managements/order-invoice/1`)
    await page.waitForURL((url) => url.pathname === '/apps/e-commerce/orders/1')
    await page.emulateMedia({ media: 'print' })
    const printed = page.getByTestId('print-document')
    await expect.poll(() => printed.isVisible()).toBe(true)
    await expect.poll(() => printed.getByTestId('print-block-shippingaddress').innerText()).toContain('House 7, Road 2, Banani')
    expect(await printed.getByTestId('print-total-total_price').innerText()).toBe('1,220.00')
    await shoot(page, { path: join(shotsDir, 'order-print.png'), fullPage: true })
    await page.emulateMedia({ media: 'screen' })
  })

  it('fits light and dark, English and Arabic, a desktop and a phone', async () => {
    const storage = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage)))
    await inEveryLook(browser, storage, async (look, { width, language, mode }) => {
      for (const [name, path] of [
        ['order', orderPath],
        ['dashboard', '/apps/dashboards/project'],
        ['analytics', '/apps/dashboards/analytics'],
      ] as const) {
        await look.goto(`${server.url}${path}`)
        await look.waitForLoadState('networkidle')
        await look.locator(name === 'order' ? 'form' : '[data-testid^="widget-"]').first().waitFor()
        expect(await overflowOf(look), `${name} ${width} ${language} ${mode}`).toBeLessThanOrEqual(0)
        await shoot(look, { path: join(shotsDir, `${name}-${width}-${language}-${mode}.png`), fullPage: true })
      }
    })
  })
})
