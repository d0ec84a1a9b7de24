import { startServer } from '../tests/support/server-process'
import { launchBrowser } from '../tests/e2e/support/browser'
import { signInAsDemoAdmin } from '../tests/e2e/support/forms'
import { inEveryLook } from '../tests/e2e/support/looks'

const server = await startServer()
const browser = await launchBrowser()
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await signInAsDemoAdmin(page, server.url)
  const storage = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage)))
  const only = process.env.ONLY
  const targets = (process.env.PAGES ?? '/apps/dashboards/project,/apps/dashboards/analytics,/apps/e-commerce/orders,/apps/e-commerce/orders/1').split(',')
  await inEveryLook(browser, storage, async (p, look) => {
    if (only && `${look.width}-${look.language}-${look.mode}` !== only && only !== 'all') return
    for (const target of targets) {
      await p.goto(`${server.url}${target}`)
      await p.waitForLoadState('networkidle')
      await p.waitForTimeout(600)
      const name = `${target.replaceAll('/', '_')}-${look.width}-${look.language}-${look.mode}.png`
      await p.screenshot({ path: `/tmp/work/shots/${name}`, fullPage: true })
    }
  })
} finally {
  await browser.close()
  await server.stop()
}
