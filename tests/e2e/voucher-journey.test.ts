import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'
import { runLedgerReport, signInAsDemoAdmin } from './support/forms'
import { inEveryLook, overflowOf, shoot } from './support/looks'

/**
 * A payment voucher in real Chromium against a real server (issue 10): two expense lines
 * and a cash credit, seen unbalanced with its difference and refused, fixed, saved; found
 * in the payment vouchers list; then the ledger report of Cash shows the payment and the
 * balance it leaves. Screens are shot into `SHOTS_DIR` when set (else a temp directory).
 */
let server: RunningServer
let browser: Browser
let page: Page
let voucherPath = ''
const shotsDir = process.env.SHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'voucher-shots-'))

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

async function pickLedger(line: number, text: string, name: string): Promise<void> {
  const input = page.getByLabel(`Ledger, line ${line}`)
  await input.click()
  await input.fill(text)
  await page.getByRole('option', { name: new RegExp(`^${name}`) }).click()
}

describe('a payment voucher in the browser', () => {
  it('is refused while unbalanced, saved once fixed, listed, and moves the Cash ledger', async () => {
    await signInAsDemoAdmin(page, server.url)
    // The modules' own screens are there after a sign-in too (their maps once lost to a chunk cycle).
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Groups', exact: true }).click()
    await expect.poll(() => page.getByRole('tab', { name: 'Tree' }).count()).toBe(1)

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Payment Vouchers' }).click()
    await page.waitForURL((url) => url.pathname === '/apps/accounts/paymentvouchers')
    await page.getByRole('link', { name: 'New' }).click()
    await page.getByRole('heading', { name: 'New Payment Voucher' }).waitFor()

    await pickLedger(1, 'company pur', 'Company Purchase')
    await page.getByRole('textbox', { name: 'Debit, line 1' }).fill('1200')
    await pickLedger(2, 'profit', 'Profit & Loss A/C')
    await page.getByRole('textbox', { name: 'Debit, line 2' }).fill('300.25')
    await page.getByRole('button', { name: 'Add line' }).click()
    await pickLedger(3, 'cash', 'Cash')
    await expect.poll(() => page.getByTestId('items.2.ledger.cash_bank').isVisible()).toBe(true)
    await page.getByRole('textbox', { name: 'Credit, line 3' }).fill('1500')
    await page.getByRole('textbox', { name: 'Details' }).fill('Stock and a correction')

    const balance = page.getByTestId('balance')
    await expect.poll(() => balance.innerText()).toBe('Unbalanced: debits and credits differ by 0.25')
    await shoot(page, { path: join(shotsDir, 'voucher-unbalanced.png'), fullPage: true })
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'they differ by 0.25' }).isVisible()).toBe(true)
    expect(page.url()).toContain('/apps/accounts/paymentvoucher/new')

    await page.getByRole('textbox', { name: 'Credit, line 3' }).fill('1500.25')
    await expect.poll(() => balance.innerText()).toBe('Balanced')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    // Saved, it stays open under its number, ready to print; Save & close goes back to the list.
    await page.waitForURL((url) => /^\/apps\/accounts\/paymentvoucher\/\d+$/.test(url.pathname))
    const title = page.getByRole('heading', { name: /^Payment Voucher PV\d{11}$/ })
    await title.waitFor()
    const saved = (await title.innerText()).match(/PV\d{11}/)![0]
    // Printed, it is the document alone: the company, the payees, the lines, the amount in words, the signatures.
    await page.emulateMedia({ media: 'print' })
    const printed = page.getByTestId('print-document')
    await expect.poll(() => printed.isVisible()).toBe(true)
    expect(await page.getByRole('form').isVisible()).toBe(false)
    await expect.poll(() => printed.getByTestId('print-amount-words').innerText()).toBe('One thousand five hundred taka and twenty-five poisha only')
    expect(await printed.getByTestId('print-party').innerText()).toContain('Company Purchase, Profit & Loss A/C')
    expect(await printed.getByTestId('print-total-credit_amount').innerText()).toBe('1,500.25')
    await shoot(page, { path: join(shotsDir, 'voucher-print.png'), fullPage: true })
    await page.emulateMedia({ media: 'screen' })
    await page.getByRole('button', { name: 'Save & close', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/apps/accounts/paymentvouchers')

    // The demo's own payment (its purchase's) is listed too.
    const row = page.getByRole('row', { name: new RegExp(saved) })
    await expect.poll(() => row.count()).toBe(1)
    const rowText = await row.innerText()
    expect(rowText).toContain('Cash')
    expect(rowText).toContain('Company Purchase, Profit & Loss A/C')
    expect(rowText).toContain('1,500.25')
    const invoice = rowText.match(/PV\d{11}/)![0]
    voucherPath = (await row.getByRole('link', { name: invoice }).getAttribute('href'))!
    expect(voucherPath).toMatch(/^\/apps\/accounts\/paymentvoucher\/\d+/)
    await shoot(page, { path: join(shotsDir, 'voucher-list.png') })

    // The ledger report of Cash: the payment, and the balance it leaves.
    await runLedgerReport(page, 'cash', /^Cash/)
    const posted = page.getByRole('row', { name: new RegExp(invoice) })
    await expect.poll(() => posted.count()).toBe(1)
    expect(await posted.innerText()).toContain('1,500.25')
    const closing = page.getByRole('row', { name: /Closing balance/ })
    // Cash held what the demo purchase's payment (10,000.00) left and its orders brought (500.00 kept; 240.00 paid and refunded), and this one takes 1,500.25 more.
    expect(await closing.innerText()).toContain('-11,000.25')
    await shoot(page, { path: join(shotsDir, 'voucher-ledger-report.png'), fullPage: true })
  })

  it('fits light and dark, English and Arabic, a desktop and a phone', async () => {
    const stored = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage)) as Record<string, string>)
    await inEveryLook(browser, stored, async (shot, { width, language, mode }) => {
      await shot.goto(`${server.url}${voucherPath}`)
      await expect.poll(() => shot.getByTestId('balance').getAttribute('data-balanced')).toBe('true')
      await shot.waitForLoadState('networkidle')
      expect(await shot.evaluate(() => document.documentElement.dir)).toBe(language === 'ar' ? 'rtl' : 'ltr')
      await shoot(shot, { path: join(shotsDir, `voucher-${width}-${language}-${mode}.png`), fullPage: true })
      // Nothing wider than the screen: the lines scroll in their frame.
      expect(await overflowOf(shot)).toBeLessThanOrEqual(0)
    })
  })
})
