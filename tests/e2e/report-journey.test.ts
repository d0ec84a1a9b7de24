import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'
import { signInAsDemoAdmin } from './support/forms'
import { inEveryLook, overflowOf, shoot } from './support/looks'

/**
 * A report in real Chromium against the built app and a real server: the admin opens the
 * staff costs from the sidebar, runs it and sees the totals row, changes a parameter that
 * the address keeps across a reload, downloads the CSV and prints. Then the screen is shot
 * in light and dark, English and Arabic, on a 1280 px desktop and a 390 px phone, into
 * `SHOTS_DIR` (kept, for a human to look at) or a temp directory (removed after).
 */
let server: RunningServer
let browser: Browser
let page: Page
let token = ''
const shotsDir = process.env.SHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'report-shots-'))

const STAFF_COSTS = '/apps/report-management/staff-cost-reports'

async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: token, 'content-type': 'application/json', 'accept-language': 'en' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as T
}

/** Three more employees in two branches, one of them inactive: the report has something to sum. */
async function addEmployees(): Promise<void> {
  const login = await fetch(`${server.url}/user/api/v1/user/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'admin123' }) })
  token = `Bearer ${((await login.json()) as { access: string }).access}`
  const { branches } = await api<{ branches: { id: number; name: string }[] }>('/branch/api/v1/branch/all/?size=10&ordering=name')
  const { thanas } = await api<{ thanas: { id: number }[] }>('/thana/api/v1/thana/all/?size=1')
  const headOffice = branches.find((b) => b.name === 'Head office')!
  const sylhet = branches.find((b) => b.name === 'Sylhet branch')!
  const people = [
    { name: 'Karim', branch: headOffice.id, basic: 42000, allowance: 3500, isActive: true },
    { name: 'Nasrin', branch: sylhet.id, basic: 38000, allowance: 2000, isActive: true },
    { name: 'Tanvir', branch: sylhet.id, basic: 25000, allowance: 1000, isActive: false },
  ]
  for (const [i, p] of people.entries()) {
    await api('/employee/api/v1/employee/create/', {
      method: 'POST',
      body: {
        first_name: `${p.name}uddin`, last_name: 'Ahmed', email: `report-${i}@example.com`, password: 'secret123', username: `report${i}`,
        primary_phone: `+88017120000${10 + i}`, street_address_one: 'Road 1', gender: 'male', thana: thanas[0]!.id, branch: p.branch,
        basic_money: p.basic, allowance_money: p.allowance, is_active: p.isActive,
      },
    })
  }
}

const totalsRow = (target: Page) => target.locator('tfoot tr')

beforeAll(async () => {
  mkdirSync(shotsDir, { recursive: true })
  server = await startServer()
  await addEmployees()
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (!process.env.SHOTS_DIR) rmSync(shotsDir, { recursive: true, force: true })
})

describe('a report in the browser', () => {
  it('opens the staff costs from the sidebar, runs them and shows the totals row', async () => {
    await signInAsDemoAdmin(page, server.url)

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Staff costs by branch' }).click()
    await page.waitForURL((url) => url.pathname === STAFF_COSTS)
    await expect.poll(() => page.getByRole('heading', { name: 'Staff costs by branch' }).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Run' }).click()
    await expect.poll(() => totalsRow(page).isVisible()).toBe(true)

    const run = await api<{ rows: { branch: string }[]; totals: Record<string, string> }>('/api/reports/staff_costs/')
    expect(run.rows.map((r) => r.branch)).toEqual(['Head office', 'Sylhet branch'])
    const totals = (await totalsRow(page).innerText()).split(/\s+/)
    expect(totals[0]).toBe('Totals')
    // The head count as a whole number, the money as money (two places, grouped).
    const asMoney = (value: string | undefined) => Number(value).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    expect(totals.slice(1)).toEqual([Number(run.totals.employees).toLocaleString('en'), ...['basic_money', 'allowance_money', 'total_money'].map((c) => asMoney(run.totals[c]))])
    await expect.poll(() => page.getByRole('row', { name: /Sylhet branch/ }).count()).toBe(1)
  })

  it('keeps a changed parameter in the address, and shows the same report after a reload', async () => {
    await page.getByLabel('Active').selectOption('yes')
    await page.getByLabel('Active').press('Enter')
    await page.waitForURL(/\?is_active=yes$/)
    const active = await api<{ totals: Record<string, string> }>('/api/reports/staff_costs/?is_active=yes')
    const totalOf = async () => (await totalsRow(page).innerText()).split(/\s+/).at(-1)
    const asMoney = (value: string | undefined) => Number(value).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    await expect.poll(totalOf).toBe(asMoney(active.totals.total_money))

    await page.reload()
    await expect.poll(() => totalsRow(page).isVisible()).toBe(true)
    expect(await page.getByLabel('Active').inputValue()).toBe('yes')
    await expect.poll(totalOf).toBe(asMoney(active.totals.total_money))
  })

  it('downloads the CSV of the run, with the column labels first', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()])
    expect(download.suggestedFilename()).toBe('staff_costs.csv')
    const lines = readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '').split('\r\n')
    // Text quoted (a formula in it stays inert), numbers as they are.
    expect(lines[0]).toBe('"Branch","Employees","Basic Salary","Allowance","Total"')
    // The run's parameter went along: the inactive employee is not counted.
    expect(lines.filter((l) => l !== '')).toHaveLength(3)
  })

  it('prints the title, the parameters used and the table, without the shell or the buttons', async () => {
    let printed = 0
    await page.exposeFunction('reportPrinted', () => (printed += 1))
    await page.evaluate(() => {
      window.print = () => (window as unknown as { reportPrinted: () => void }).reportPrinted()
    })
    await page.getByRole('button', { name: 'Print' }).click()
    await expect.poll(() => printed).toBe(1)

    await page.emulateMedia({ media: 'print' })
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).isVisible()).toBe(false)
    expect(await page.getByTestId('toolbar').isVisible()).toBe(false)
    expect(await page.getByTestId('footer').isVisible()).toBe(false)
    expect(await page.getByRole('button', { name: 'Run' }).isVisible()).toBe(false)
    expect(await page.getByRole('button', { name: 'Theme settings' }).first().isVisible()).toBe(false)
    expect(await page.getByRole('heading', { name: 'Staff costs by branch' }).isVisible()).toBe(true)
    expect(await page.getByRole('region', { name: 'Parameters' }).innerText()).toMatch(/Active\s+Yes/)
    expect(await totalsRow(page).isVisible()).toBe(true)
    await shoot(page, { path: join(shotsDir, 'staff-costs-print.png'), fullPage: true })
    await page.emulateMedia({ media: 'screen' })
  })

  it('fits light and dark, English and Arabic, a desktop and a phone', async () => {
    const stored = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage)) as Record<string, string>)
    await inEveryLook(browser, stored, async (shot, { width, language, mode }) => {
      await shot.goto(`${server.url}${STAFF_COSTS}?is_active=yes`)
      await expect.poll(() => totalsRow(shot).isVisible()).toBe(true)
      await shot.waitForLoadState('networkidle')
      expect(await shot.evaluate(() => document.documentElement.dir)).toBe(language === 'ar' ? 'rtl' : 'ltr')
      await shoot(shot, { path: join(shotsDir, `staff-costs-${width}-${language}-${mode}.png`), fullPage: true })
      // Nothing wider than the screen: a wide table scrolls in its card.
      expect(await overflowOf(shot)).toBeLessThanOrEqual(0)
    })
  })

  it('keeps every amount of the trial balance in view at 1280 px, the closing balance last', async () => {
    await page.emulateMedia({ media: 'screen' })
    await page.goto(`${server.url}/apps/report-management/trial-balance-reports`)
    await page.getByRole('button', { name: 'Run' }).click()
    const region = page.locator('table').locator('xpath=..')
    await expect.poll(() => page.locator('thead th').count()).toBeGreaterThan(6)
    const frame = (await region.boundingBox())!
    const last = (await page.locator('thead th').last().boundingBox())!
    expect(last.x + last.width).toBeLessThanOrEqual(frame.x + frame.width + 1)
  })

  it('shows the change log, paged, newest first', async () => {
    await page.goto(`${server.url}/apps/report-management/change-log-reports?record=employee`)
    const log = await api<{ rows: { record_id: number }[]; total_elements: number }>('/api/reports/change_log/?record=employee')
    expect(log.total_elements).toBeGreaterThanOrEqual(4)
    await expect.poll(() => page.locator('tbody tr').count()).toBe(log.rows.length)
    expect(await page.locator('tbody tr').first().getByRole('cell').nth(3).innerText()).toBe(String(log.rows[0]!.record_id))
    expect(await page.getByLabel('Record').inputValue()).toBe('employee')
    await expect.poll(() => page.getByText('Rows per page').isVisible()).toBe(true)
    // No totals declared: no totals row.
    expect(await totalsRow(page).count()).toBe(0)
    await page.waitForLoadState('networkidle')
    await shoot(page, { path: join(shotsDir, 'change-log-1280-en-light.png'), fullPage: true })
  })
})
