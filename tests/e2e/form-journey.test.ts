import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'

/**
 * The generic form in real Chromium (issue 8, forms), on the employee form of the demo data:
 * the district → police station cascade both ways, the keyboard taken to the first field in
 * error after a failed save, and a page that fits a phone 390 and 360 px wide.
 */
let server: RunningServer
let browser: Browser
let session: Record<string, string>

const formPath = '/apps/employee-management/employees/new'

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  const r = await fetch(`${server.url}/user/api/v1/user/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'admin123' }) })
  const body = (await r.json()) as { access: string; id: number }
  session = { jwt_access_token: `Bearer ${body.access}`, user_id: String(body.id) }
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** A signed-in page (the session put in localStorage, as the login leaves it) in the given language. */
async function signedInPage(width: number, language: 'en' | 'ar' = 'en'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  await context.addInitScript((values: Record<string, string>) => {
    for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v)
  }, { ...session, language })
  return { context, page: await context.newPage() }
}

async function api<T>(path: string): Promise<T> {
  const r = await fetch(`${server.url}${path}`, { headers: { authorization: session.jwt_access_token! } })
  return (await r.json()) as T
}

async function openEmployeeForm(page: Page): Promise<void> {
  await page.goto(`${server.url}${formPath}`)
  await expect.poll(() => page.getByRole('heading', { name: 'New Employee' }).isVisible()).toBe(true)
}

describe('the employee form in the browser', () => {
  it('lists only the chosen district’s police stations', async () => {
    const { context, page } = await signedInPage(1280)
    await openEmployeeForm(page)
    const chattogram = (await api<{ cities: Array<{ id: number; name: string }> }>('/city/api/v1/city/search/?name=Chattogram')).cities.find((c) => c.name === 'Chattogram')!
    const itsStations = (await api<{ thanas: Array<{ name: string }> }>(`/thana/api/v1/thana/all_thana_by_city_id/${chattogram.id}`)).thanas.map((s) => s.name)

    await page.getByRole('combobox', { name: /^District/ }).fill('Chattogram')
    await page.getByRole('option', { name: 'Chattogram', exact: true }).click()
    // Choosing the district fills in its country.
    await expect.poll(() => page.getByRole('combobox', { name: /^Country/ }).inputValue()).toBe('Bangladesh')
    await page.getByRole('combobox', { name: /^Police Station/ }).click()
    const options = page.getByRole('listbox').last().getByRole('option')
    await expect.poll(async () => (await options.allTextContents()).map((s) => s.trim()).sort()).toEqual([...itsStations].sort())
    await page.keyboard.press('Escape')
    await context.close()
  })

  it('fills in the district and the country from a chosen police station, and clears it when the district changes', async () => {
    const { context, page } = await signedInPage(1280)
    await openEmployeeForm(page)
    const station = page.getByRole('combobox', { name: /^Police Station/ })
    await station.fill('Gulshan')
    await page.getByRole('option', { name: 'Gulshan', exact: true }).click()
    await expect.poll(() => page.getByRole('combobox', { name: /^District/ }).inputValue()).toBe('Dhaka')
    await expect.poll(() => page.getByRole('combobox', { name: /^Country/ }).inputValue()).toBe('Bangladesh')

    await page.getByRole('combobox', { name: /^District/ }).fill('Sylhet')
    await page.getByRole('option', { name: 'Sylhet', exact: true }).click()
    await expect.poll(() => station.inputValue()).toBe('')
    await context.close()
  })

  it('takes the keyboard to the first field in error after a failed save, in the form’s order', async () => {
    const { context, page } = await signedInPage(1280)
    await openEmployeeForm(page)
    // A new form starts in its first field.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-field'))).toBe('username')
    await page.getByRole('textbox', { name: /^User Name/ }).fill('journey.clerk')
    await page.getByRole('textbox', { name: /^Email/ }).fill('journey.clerk@example.com')
    await page.getByLabel(/^Password/).fill('secret1')
    await page.getByLabel(/^Confirm Password/).fill('secret1')
    await page.getByRole('textbox', { name: /^First Name/ }).fill('Journey')
    await page.getByRole('textbox', { name: /^Last Name/ }).fill('Clerk')
    await page.getByLabel(/^Gender/).selectOption('female')
    // A birthday in the future: the first field in error, before the address and branch left empty.
    await page.getByRole('textbox', { name: 'Birthday' }).fill(`${new Date().getFullYear() + 1}-01-01`)
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-field'))).toBe('date_of_birth')
    await expect.poll(() => page.getByText('Birthday cannot be in the future.').isVisible()).toBe(true)
    // Brought into view (the page scrolls there smoothly).
    const isInView = async () => {
      const box = await page.getByRole('textbox', { name: 'Birthday' }).boundingBox()
      return box !== null && box.y >= 0 && box.y + box.height <= 900
    }
    await expect.poll(isInView).toBe(true)

    await page.getByRole('textbox', { name: 'Birthday' }).fill('1990-01-01')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-field]')?.getAttribute('data-field'))).toBe('primary_phone')
    await context.close()
  })

  for (const width of [390, 360]) {
    for (const language of ['en', 'ar'] as const) {
      it(`fits a phone ${width} px wide (${language}): no sideways scrolling`, async () => {
        const { context, page } = await signedInPage(width, language)
        await page.goto(`${server.url}${formPath}`)
        await page.locator('form fieldset legend').first().waitFor()
        await page.locator('form [data-field="allowance_money"]').waitFor()
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
        // With the calendar open too.
        await page.locator('[data-field="date_of_birth"]').getByRole('button').click()
        await page.getByRole('grid').first().waitFor()
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
        await context.close()
      })
    }
  }
})
