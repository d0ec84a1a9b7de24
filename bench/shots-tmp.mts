import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../tests/support/server-process'
import { launchBrowser } from '../tests/e2e/support/browser'
import { signInAsDemoAdmin } from '../tests/e2e/support/forms'

const out = process.env.SHOTS ?? '/tmp/work/shots'
const server = await startServer({ DATA_DIR: mkdtempSync(join(tmpdir(), 'shots-')) })
const browser = await launchBrowser()
try {
  const first = await browser.newPage()
  await signInAsDemoAdmin(first, server.url)
  const storage = await first.evaluate(() => Object.fromEntries(Object.entries(localStorage)))
  await first.close()
  const screens: Array<[string, string]> = [
    ['statement', '/apps/report-management/account-statement-reports?account_type=Cash'],
    ['statement-summary', '/apps/report-management/account-statement-summary-reports?start_date=2026-01-01&end_date=2026-12-31'],
    ['payment-summary', '/apps/report-management/payment-summary-reports'],
    ['order-summary', '/apps/report-management/order-summary-reports?group_by=day'],
    ['order-report', '/apps/report-management/order-reports'],
    ['stock', '/apps/report-management/stocks-reports'],
    ['pl', '/apps/report-management/profit-loss-reports'],
    ['bs', '/apps/report-management/balance-sheet-reports'],
    ['purchases', '/apps/report-management/purchage-reports'],
  ]
  const looks = (process.env.LOOKS ?? 'en-light-1280,ar-dark-390').split(',')
  for (const look of looks) {
    const [language, mode, width] = look.split('-') as ['en' | 'ar', 'light' | 'dark', string]
    const context = await browser.newContext({ viewport: { width: Number(width), height: Number(width) > 600 ? 900 : 844 }, colorScheme: mode })
    const theme = `default-${mode}`
    const settings = { theme: { main: theme, navbar: 'default-dark', toolbar: theme, footer: 'default-dark' }, direction: language === 'ar' ? 'rtl' : 'ltr' }
    await context.addInitScript((values: Record<string, string>) => {
      for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v)
    }, { ...storage, layout_settings: JSON.stringify(settings), language })
    const page = await context.newPage()
    for (const [name, path] of screens.filter(([n]) => !process.env.ONLY || process.env.ONLY.split(',').includes(n))) {
      await page.goto(`${server.url}${path}`)
      await page.waitForTimeout(2500)
      await page.screenshot({ path: `${out}/${name}-${look}.png`, fullPage: true })
    }
    await context.close()
  }
} finally {
  await browser.close()
  await server.stop()
}
