import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'

/**
 * A staff member's journey through one generic screen, in real Chromium against the
 * built app and a real server on an embedded database: sign in (returning to the page
 * asked for), create a district, find it by search, edit it, delete it.
 */
let server: RunningServer
let browser: Browser
let page: Page

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function districtsNamed(name: string): Promise<Array<{ id: number; name: string; country: { name: string } }>> {
  const token = await page.evaluate(() => localStorage.getItem('jwt_access_token'))
  const r = await fetch(`${server.url}/city/api/v1/city/search/?name=${encodeURIComponent(name)}`, { headers: { authorization: token ?? '' } })
  return ((await r.json()) as { cities: Array<{ id: number; name: string; country: { name: string } }> }).cities
}

describe('managing districts in the browser', () => {
  it('sends a signed-out visitor to the login and back to the page asked for', async () => {
    await page.goto(`${server.url}/apps/city-management/cities`)
    await page.waitForURL(/\/login/)
    // Demo mode prefills the demo admin: the Login button is ready as it is.
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe('admin@example.com')
    await page.getByRole('button', { name: 'Login' }).click()
    await page.waitForURL(/\/apps\/city-management\/cities$/)
    await expect.poll(() => page.getByRole('heading', { name: 'Districts' }).isVisible()).toBe(true)
    expect(await page.evaluate(() => localStorage.getItem('jwt_access_token'))).toMatch(/^Bearer ey/)
  })

  it('creates a district with a country picked by search', async () => {
    await page.getByRole('link', { name: 'New' }).click()
    await page.waitForURL(/\/cities\/new/)
    await page.getByLabel('Name', { exact: false }).first().fill('narsingdi hills')
    await page.getByRole('combobox', { name: /Country/ }).fill('Banglad')
    await page.getByRole('option', { name: 'Bangladesh' }).click()
    await page.getByRole('button', { name: 'Save & close', exact: true }).click()
    await page.waitForURL(/\/apps\/city-management\/cities$/)
    const created = await districtsNamed('narsingdi hills')
    expect(created).toHaveLength(1)
    // The registry's rule capitalises the first letter on save (api-contract §2.6).
    expect(created[0]).toMatchObject({ name: 'Narsingdi hills', country: { name: 'Bangladesh' } })
  })

  it('finds it with the search box and edits it', async () => {
    await page.getByPlaceholder('Search Districts').fill('narsingdi hi')
    const row = page.getByRole('row', { name: /Narsingdi hills/ })
    await expect.poll(() => row.count()).toBe(1)
    await expect.poll(() => page.getByRole('row').count()).toBe(2) // header + the match
    await row.getByText('Narsingdi hills').click()
    await page.waitForURL(/\/cities\/\d+\//)
    const name = page.getByLabel('Name', { exact: false }).first()
    await expect.poll(() => name.inputValue()).toBe('Narsingdi hills')
    await name.fill('Narsingdi Highlands')
    await name.press('Enter') // Enter saves, and the form stays on the district
    await expect.poll(async () => (await districtsNamed('Narsingdi Highlands')).length).toBe(1)
    expect(page.url()).toMatch(/\/cities\/\d+\//)
    // Back to the list as it was left: its search kept.
    await page.getByRole('link', { name: 'Back to Districts' }).click()
    await page.waitForURL(/\/apps\/city-management\/cities\?q=narsingdi(\+|%20)hi$/)
  })

  it('deletes it after confirmation', async () => {
    await page.getByPlaceholder('Search Districts').fill('Narsingdi High')
    const row = page.getByRole('row', { name: /Narsingdi Highlands/ })
    await expect.poll(() => row.count()).toBe(1)
    await row.getByRole('button', { name: 'Delete Narsingdi Highlands' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete this District?' })
    // The dialog element itself has no box (its panel is fixed-positioned): wait for its button.
    const confirm = dialog.getByRole('button', { name: 'Delete' })
    await expect.poll(() => confirm.isVisible()).toBe(true)
    await confirm.click()
    await expect.poll(() => row.count()).toBe(0)
    expect(await districtsNamed('Narsingdi Highlands')).toHaveLength(0)
  })
})
