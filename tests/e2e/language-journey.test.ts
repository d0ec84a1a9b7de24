import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'

/**
 * The language follows the user, and a phone shows every page whole (issue 8): Arabic chosen
 * on one device is the interface on the next one at sign-in; at 360–414 px no page scrolls
 * sideways and the user menu is within reach, in both directions and themes.
 */
let server: RunningServer
let browser: Browser

const ADMIN = { email: 'admin@example.com', password: 'admin123' }

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/login`)
  const email = page.locator('input[type=email]')
  await email.waitFor()
  await expect.poll(() => email.inputValue()).toBe(ADMIN.email)
  await page.locator('input[type=password]').fill(ADMIN.password)
  await page.locator('button[type=submit]').click()
  await page.waitForURL(/\/apps\/dashboards\/project$/)
}

async function storedLanguage(): Promise<unknown> {
  const login = (await (await fetch(`${server.url}/user/api/v1/user/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) })).json()) as { settings?: { language?: unknown } }
  return login.settings?.language ?? null
}

describe('the language on a second device', () => {
  it('is the one chosen on the first, from the sign-in on', async () => {
    const first = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const a = await first.newPage()
    await signIn(a)
    await a.getByRole('button', { name: /^Language/ }).click()
    await a.getByRole('menuitemradio', { name: /العربية/ }).click()
    await expect.poll(() => a.evaluate(() => document.documentElement.dir)).toBe('rtl')
    // Saved with the user (after the settings' 300 ms debounce).
    await expect.poll(storedLanguage).toBe('ar')
    await first.close()

    const second = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const b = await second.newPage()
    await signIn(b)
    await expect.poll(() => b.evaluate(() => [document.documentElement.lang, document.documentElement.dir].join(' '))).toBe('ar rtl')
    await expect.poll(() => b.getByRole('heading', { level: 1 }).first().textContent()).not.toMatch(/[A-Za-z]{4}/)
    // Back to English for the rest of the journeys, from this device.
    await b.getByRole('button', { name: /^اللغة/ }).click()
    await b.getByRole('menuitemradio', { name: /English/ }).click()
    await expect.poll(storedLanguage).toBe('en')
    await second.close()
  })
})

describe('a phone', () => {
  it('shows the dashboard, a list and a form without sideways scrolling, the user menu within reach, at 360, 390 and 414 px', async () => {
    const signedIn = await browser.newContext()
    const page = await signedIn.newPage()
    await signIn(page)
    const stored = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage)) as Record<string, string>)
    await signedIn.close()
    for (const width of [360, 390, 414]) {
      for (const [language, mode] of [['en', 'light'], ['ar', 'dark']] as const) {
        const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: mode })
        const theme = `default-${mode}`
        const settings = { theme: { main: theme, navbar: 'default-dark', toolbar: theme, footer: 'default-dark' }, direction: language === 'ar' ? 'rtl' : 'ltr', language }
        await context.addInitScript((values: Record<string, string>) => {
          for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v)
        }, { ...stored, layout_settings: JSON.stringify(settings), language })
        const phone = await context.newPage()
        for (const path of ['/apps/dashboards/project', '/apps/thana-management/thanas', '/apps/thana-management/thanas/new']) {
          await phone.goto(`${server.url}${path}`)
          await phone.getByRole('heading', { level: 1 }).first().waitFor()
          await phone.waitForLoadState('networkidle')
          const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
          expect(overflow, `${width} px ${language} ${mode} ${path}`).toBeLessThanOrEqual(0)
        }
        const userMenu = phone.getByRole('button', { name: /^(User menu|قائمة المستخدم)/ })
        const box = (await userMenu.boundingBox())!
        expect(box.x).toBeGreaterThanOrEqual(0)
        expect(box.x + box.width).toBeLessThanOrEqual(width)
        await userMenu.click()
        const menu = phone.getByRole('menu')
        await menu.waitFor()
        const menuBox = (await menu.boundingBox())!
        expect(menuBox.x).toBeGreaterThanOrEqual(0)
        expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(width)
        await context.close()
      }
    }
  })
})
