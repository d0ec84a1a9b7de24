import { readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'

/**
 * Issue 25 in real Chromium, on one generated screen (the branches: an entity the engine
 * serves with no screen of its own): the column chooser, export of the list as it is filtered,
 * a field set for the selected rows and undone from the toast, a delete undone from the
 * Trash, the command palette finding a record, the record's History with what changed, and
 * an import checked and written.
 */
let server: RunningServer
let browser: Browser
let context: BrowserContext
let page: Page
let token = ''

const BRANCHES = '/apps/branch-management/branchs'
const BASE = '/branch/api/v1/branch'

async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const body = (await response.json()) as T
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${JSON.stringify(body)}`)
  return body
}

type Branch = { id: number; name: string; is_active: boolean }
const journeyBranches = async () => (await api<{ branches: Branch[] }>(`${BASE}/all/?q=Journey&size=100&ordering=name`)).branches

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
  const login = await fetch(`${server.url}/user/api/v1/user/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'admin123' }),
  })
  const session = (await login.json()) as { access: string; id: number }
  token = `Bearer ${session.access}`
  for (const name of ['Journey Alpha', 'Journey Beta', 'Journey Gamma']) await api(`${BASE}/create/`, { method: 'POST', body: { name, is_active: true } })
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
  await context.addInitScript((values: Record<string, string>) => {
    for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v)
  }, { jwt_access_token: token, user_id: String(session.id), language: 'en' })
  page = await context.newPage()
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await server?.stop()
})

describe('power on a generated list and form', () => {
  it('hides a column, and keeps it hidden after a reload', async () => {
    await page.goto(`${server.url}${BRANCHES}?q=Journey`)
    await expect.poll(() => page.locator('tbody tr').count()).toBe(3)
    await expect.poll(() => page.getByRole('columnheader', { name: /Active/ }).count()).toBe(1)
    await page.getByRole('button', { name: 'Columns' }).click()
    await page.getByRole('checkbox', { name: 'Active', exact: true }).uncheck()
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByRole('columnheader', { name: /Active/ }).count()).toBe(0)
    await page.reload()
    await expect.poll(() => page.locator('tbody tr').count()).toBe(3)
    await expect.poll(() => page.getByRole('columnheader', { name: /Active/ }).count()).toBe(0)
    await page.getByRole('button', { name: 'Columns' }).click()
    await page.getByRole('button', { name: 'Reset' }).click()
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByRole('columnheader', { name: /Active/ }).count()).toBe(1)
  })

  it('exports the list as it is searched: every row, as CSV', async () => {
    await page.getByRole('button', { name: 'Export' }).click()
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'CSV' }).click()])
    expect(download.suggestedFilename()).toMatch(/^branches-\d{4}-\d{2}-\d{2}\.csv$/)
    const text = (await readFile((await download.path())!, 'utf8')).replace(/^\ufeff/, '')
    const lines = text.trim().split(/\r\n/)
    expect(lines).toHaveLength(4)
    expect(lines[0]).toContain('Name')
    expect(lines.slice(1).join('\n')).toMatch(/Journey Alpha[\s\S]*Journey Beta[\s\S]*Journey Gamma/)
  })

  it('sets a field for the selected rows and undoes it from the toast', async () => {
    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check()
    await page.getByRole('button', { name: 'Change a field' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Field').selectOption({ label: 'Active' })
    await dialog.getByRole('checkbox', { name: 'Active' }).uncheck()
    await dialog.getByRole('button', { name: 'Set for 3 records' }).click()
    await expect.poll(async () => (await journeyBranches()).map((b) => b.is_active)).toEqual([false, false, false])
    await page.getByRole('status').filter({ hasText: 'set for 3 records' }).getByRole('button', { name: 'Undo' }).click()
    await expect.poll(async () => (await journeyBranches()).map((b) => b.is_active)).toEqual([true, true, true])
  })

  it('moves a deleted row to the Trash and brings it back with Undo', async () => {
    await page.getByRole('button', { name: 'Delete Journey Beta' }).click()
    await page.getByRole('dialog').getByText('It goes to the Trash', { exact: false }).waitFor()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await expect.poll(async () => (await journeyBranches()).map((b) => b.name)).toEqual(['Journey Alpha', 'Journey Gamma'])
    await page.getByRole('status').filter({ hasText: 'moved to the Trash' }).getByRole('button', { name: 'Undo' }).click()
    await expect.poll(async () => (await journeyBranches()).map((b) => b.name)).toEqual(['Journey Alpha', 'Journey Beta', 'Journey Gamma'])
  })

  it('finds a record with Ctrl+K and shows what changed in its History', async () => {
    await page.keyboard.press('Control+k')
    await page.getByRole('combobox', { name: 'Command palette' }).fill('Journey Gamma')
    await page.getByRole('option', { name: /Journey Gamma/ }).click()
    await page.waitForURL(/\/branchs\/\d+/)
    await page.getByRole('tab', { name: 'History' }).click()
    const history = page.getByRole('tabpanel')
    // The bulk change and its undo, field by field: Active Yes → No, then back.
    await expect.poll(() => history.getByText('Bulk change').count()).toBeGreaterThan(0)
    await expect.poll(() => history.getByText('Active', { exact: true }).count()).toBeGreaterThan(1)
    // From the screen the change was made on, named as the menu names it.
    expect(await history.getByText('Branches', { exact: true }).count()).toBeGreaterThan(0)
  })

  it('imports a CSV file: columns matched, every row checked, then written', async () => {
    const file = join(tmpdir(), `journey-import-${process.pid}.csv`)
    await writeFile(file, 'Name,Active\r\nJourney Delta,yes\r\nJourney Epsilon,no\r\n')
    await page.goto(`${server.url}${BRANCHES}?q=Journey`)
    await page.getByRole('button', { name: 'Import' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('CSV or Excel file').setInputFiles(file)
    await dialog.getByRole('button', { name: 'Check' }).click()
    await dialog.getByText('Every row is valid').waitFor()
    await dialog.getByRole('button', { name: 'Import all or nothing' }).click()
    await dialog.getByText('The import is finished.').waitFor()
    await expect.poll(async () => (await journeyBranches()).map((b) => `${b.name}:${b.is_active}`)).toEqual([
      'Journey Alpha:true', 'Journey Beta:true', 'Journey Delta:true', 'Journey Epsilon:false', 'Journey Gamma:true',
    ])
  })
})
