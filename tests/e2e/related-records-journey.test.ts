import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'
import { choose, signInAsDemoAdmin } from './support/forms'

/**
 * Related records and pickers in real Chromium against the built app and a real server
 * (issue 25): a country's districts under its form, a page at a time; "New District" there
 * opens the district's form with the country filled in and comes back to the country after
 * the save. Then a branch's address is entered with a district and a police station that do
 * not exist yet: each is made in a dialog from its picker — within what the branch's form has
 * chosen — and selected, and the branch keeps what was typed.
 */
let server: RunningServer
let browser: Browser
let page: Page
let token = ''

type Named = { id: number; name: string }

async function api<T>(path: string): Promise<T> {
  const r = await fetch(`${server.url}${path}`, { headers: { authorization: token } })
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`)
  return (await r.json()) as T
}

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  const login = await fetch(`${server.url}/user/api/v1/user/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'admin123' }) })
  token = `Bearer ${((await login.json()) as { access: string }).access}`
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const noDialog = () => expect.poll(() => page.getByRole('dialog').count()).toBe(0)

describe('related records and pickers in the browser', () => {
  it('pages a country’s districts, starts a new one from there with the country filled in, and comes back to the country', async () => {
    await signInAsDemoAdmin(page, server.url)
    const { countries } = await api<{ countries: Named[] }>('/country/api/v1/country/all/?q=Bangladesh&size=10')
    const bangladesh = countries.find((c) => c.name === 'Bangladesh')!
    const countryPath = `/apps/country-management/countries/${bangladesh.id}`
    await page.goto(`${server.url}${countryPath}`)

    const panel = page.getByRole('region', { name: 'Districts' })
    const firstPage = panel.getByText(/^1–10 of \d+$/)
    await expect.poll(() => firstPage.isVisible(), { timeout: 15_000 }).toBe(true)
    const total = Number((await firstPage.innerText()).replace(/^.* of /, ''))
    expect(total).toBeGreaterThan(10)
    await panel.getByRole('button', { name: 'Next page' }).click()
    await expect.poll(() => panel.getByText(`11–20 of ${total}`).isVisible()).toBe(true)
    await expect.poll(() => panel.getByRole('row').count()).toBe(11) // the header and ten districts

    await panel.getByRole('link', { name: 'New District' }).click()
    await page.waitForURL((url) => url.pathname === '/apps/city-management/cities/new')
    await expect.poll(() => page.getByRole('combobox', { name: /^Country/ }).inputValue()).toBe('Bangladesh')
    await page.getByRole('textbox', { name: /^Name/ }).fill('Related hills')
    await page.getByRole('button', { name: 'Save', exact: true }).click()

    // Back on the country, the new district first (newest first), a link to its form.
    await page.waitForURL((url) => url.pathname === countryPath)
    const made = panel.getByRole('link', { name: 'Related hills' })
    await expect.poll(() => made.isVisible(), { timeout: 15_000 }).toBe(true)
    await expect.poll(() => panel.getByText(`1–10 of ${total + 1}`).isVisible()).toBe(true)
    await made.click()
    await page.waitForURL(/\/apps\/city-management\/cities\/\d+/)
    await expect.poll(() => page.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe('Related hills')
  })

  it('makes a missing district and police station from a branch’s pickers, each in a dialog within what is chosen, and keeps the branch as typed', async () => {
    await page.goto(`${server.url}/apps/branch-management/branchs/new`)
    await page.getByRole('textbox', { name: /^Name/ }).fill('Riverside')
    await page.getByRole('textbox', { name: /^Primary address/ }).fill('12 Ghat Road')
    await choose(page, /^Country/, 'Banglad', /^Bangladesh$/)

    await page.getByRole('button', { name: 'New District' }).click()
    const district = page.getByRole('dialog', { name: 'New District' })
    await expect.poll(() => district.getByRole('combobox', { name: /^Country/ }).inputValue()).toBe('Bangladesh')
    await district.getByRole('textbox', { name: /^Name/ }).fill('Riverbend')
    await district.getByRole('button', { name: 'Save', exact: true }).click()
    await noDialog()
    await expect.poll(() => page.getByRole('combobox', { name: /^District/ }).inputValue()).toBe('Riverbend')

    await page.getByRole('button', { name: 'New Police Station' }).click()
    const station = page.getByRole('dialog', { name: 'New Police Station' })
    await expect.poll(() => station.getByRole('combobox', { name: /^District/ }).inputValue()).toBe('Riverbend')
    await station.getByRole('textbox', { name: /^Name/ }).fill('Riverbend Sadar')
    await station.getByRole('button', { name: 'Save', exact: true }).click()
    await noDialog()
    await expect.poll(() => page.getByRole('combobox', { name: /^Police Station/ }).inputValue()).toMatch(/^Riverbend sadar$/i)

    // The branch's form kept everything typed and chosen around the dialogs.
    expect(await page.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe('Riverside')
    expect(await page.getByRole('textbox', { name: /^Primary address/ }).inputValue()).toBe('12 Ghat Road')
    expect(await page.getByRole('combobox', { name: /^Country/ }).inputValue()).toBe('Bangladesh')
    expect(page.url()).toMatch(/\/branchs\/new$/)
    await page.getByRole('button', { name: 'Save & close', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/apps/branch-management/branchs')

    const { branches } = await api<{ branches: Array<Named & { country: Named; city: Named; thana: Named; street_address_one: string }> }>('/branch/api/v1/branch/all/?q=Riverside&size=10')
    expect(branches).toHaveLength(1)
    expect(branches[0]).toMatchObject({ street_address_one: '12 Ghat Road', country: { name: 'Bangladesh' }, city: { name: 'Riverbend' }, thana: { name: expect.stringMatching(/^Riverbend sadar$/i) } })
    const { cities } = await api<{ cities: Array<Named & { country: Named }> }>('/city/api/v1/city/search/?name=Riverbend')
    expect(cities).toEqual([expect.objectContaining({ name: 'Riverbend', country: expect.objectContaining({ name: 'Bangladesh' }) })])
  })
})
