import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'
import { signInAsDemoAdmin } from './support/forms'

/**
 * The reports' drill-down in real Chromium (issue 24): the admin opens the account statement
 * summary of a period, sees its chart, follows the cash book's closing balance to the cash
 * statement of the same period, follows a line's reference to its voucher, comes back and
 * downloads the statement as a PDF from the server.
 */
let server: RunningServer
let browser: Browser
let page: Page

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('the statements in the browser', () => {
  it('goes from the summary’s figure to the cash book, from a line to its voucher, and prints the book as a PDF', async () => {
    await signInAsDemoAdmin(page, server.url)
    await page.goto(`${server.url}/apps/report-management/account-statement-summary-reports?start_date=2000-01-01&end_date=2999-12-31`)
    await page.getByTestId('report-chart-account_statement_summary').waitFor()
    const cash = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Cash', exact: true }) })
    await cash.getByRole('link').last().click()
    await page.waitForURL((url) => url.pathname === '/apps/report-management/account-statement-reports')
    const asked = new URL(page.url()).searchParams
    expect([asked.get('account_type'), asked.get('date_after'), asked.get('date_before')]).toEqual(['Cash', '2000-01-01', '2999-12-31'])

    const reference = page.getByRole('link', { name: /^(PV|RV|CO)\d+$/ }).first()
    const number = (await reference.textContent())!.trim()
    await reference.click()
    await page.waitForURL((url) => /^\/apps\/(accounts\/(paymentvoucher|receiptvoucher)|contra-management\/contras)\/\d+$/.test(url.pathname))
    await expect.poll(() => page.getByText(number).count()).toBeGreaterThan(0)

    await page.goBack()
    await page.waitForURL((url) => url.pathname === '/apps/report-management/account-statement-reports')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()])
    expect(download.suggestedFilename()).toBe('account_statement.pdf')
    expect(readFileSync((await download.path())!).subarray(0, 5).toString()).toBe('%PDF-')
  })
})
