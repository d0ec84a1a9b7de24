import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'

/**
 * The generic list in real Chromium against the built app and a real server (issue 8): the
 * view — page, order, search, filters — kept in the address across opening a record and
 * coming back (the Back link, the browser's Back, a reload); a row opened in a new tab; a
 * date-range filter; a delete of a district that police stations refer to, explained before
 * anything is done; and phones: a list never makes the page wider than the screen.
 */
let server: RunningServer
let browser: Browser
let token = ''
let userId = ''

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

/** A signed-in browser context (the session as the login leaves it), in a language and at a size. */
async function signedIn(options: { width?: number; height?: number; language?: 'en' | 'ar' } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 } })
  await context.addInitScript((values: Record<string, string>) => {
    for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v)
  }, { jwt_access_token: token, user_id: userId, language: options.language ?? 'en' })
  return { context, page: await context.newPage() }
}

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
  userId = String(session.id)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const thanas = '/apps/thana-management/thanas'
const firstRowLink = (page: Page) => page.locator('tbody tr').first().getByRole('link')
const pathAndSearch = (page: Page) => {
  const url = new URL(page.url())
  return `${url.pathname}${url.search}`
}

describe('the list’s view in the address', () => {
  let context: BrowserContext
  let page: Page
  beforeAll(async () => ({ context, page } = await signedIn()))
  afterAll(async () => context?.close())

  it('keeps page 2, the order, the search and a filter across opening a record and coming back, Back, and a reload', async () => {
    await page.goto(`${server.url}${thanas}`)
    await page.getByRole('columnheader', { name: 'Name', exact: true }).getByRole('button', { name: 'Name', exact: true }).click()
    await page.waitForURL(/ordering=name/)
    await page.getByPlaceholder('Search Police Stations').fill('a')
    await page.waitForURL(/q=a/)
    await page.getByRole('button', { name: 'Filters' }).click()
    await page.getByRole('combobox', { name: 'District' }).fill('Dhaka')
    await page.getByRole('option', { name: 'Dhaka', exact: true }).click()
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.waitForURL(/city=\d+/)
    await expect.poll(() => page.getByText('Page 1 of 2').isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Next page' }).click()
    await page.waitForURL(/page=2/)
    await expect.poll(() => page.getByText('Page 2 of 2').isVisible()).toBe(true)
    const view = pathAndSearch(page)
    const first = (await firstRowLink(page).textContent())!
    expect(first).toMatch(/a/i)

    const sameView = async () => {
      await expect.poll(() => pathAndSearch(page)).toBe(view)
      await expect.poll(() => firstRowLink(page).textContent()).toBe(first)
      expect(await page.getByPlaceholder('Search Police Stations').inputValue()).toBe('a')
      await expect.poll(() => page.getByRole('list', { name: 'Filters in use' }).textContent()).toContain('District: Dhaka')
      await expect.poll(() => page.getByText('Page 2 of 2').isVisible()).toBe(true)
      expect(await page.getByRole('columnheader', { name: 'Name', exact: true }).getAttribute('aria-sort')).toBe('ascending')
    }

    // The form's Back link.
    await firstRowLink(page).click()
    await page.waitForURL(/\/thanas\/\d+\//)
    await page.getByRole('link', { name: 'Back to Police Stations' }).click()
    await sameView()
    // The browser's Back.
    await firstRowLink(page).click()
    await page.waitForURL(/\/thanas\/\d+\//)
    await page.goBack()
    await sameView()
    // A reload.
    await page.reload()
    await sameView()
  })

  it('opens a row in a new tab on Ctrl-click, leaving the list as it is', async () => {
    const view = pathAndSearch(page)
    const cell = page.locator('tbody tr').first().locator('td').nth(3)
    const [tab] = await Promise.all([context.waitForEvent('page'), cell.click({ modifiers: ['Control'] })])
    await tab!.waitForURL(/\/thanas\/\d+\//)
    await expect.poll(() => tab!.getByRole('heading', { name: 'Edit Police Station' }).isVisible()).toBe(true)
    await tab!.close()
    expect(pathAndSearch(page)).toBe(view)
  })
})

describe('a list opened by its address', () => {
  it('asks for its rows, its menu and the session check once each, with the page itself, allowed by the page’s policy', async () => {
    const { context, page } = await signedIn({ width: 390, height: 844 })
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.enable')
    const asked: Array<{ url: string; by: string | undefined }> = []
    cdp.on('Network.requestWillBeSent', (e) => {
      const path = new URL(e.request.url).pathname
      if (!path.startsWith('/assets/')) asked.push({ url: `${path}${new URL(e.request.url).search}`, by: e.initiator.stack?.callFrames[0]?.url ?? e.initiator.url })
    })
    const refused: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') refused.push(m.text())
    })
    await page.goto(`${server.url}${thanas}?ordering=-name`)
    await page.locator('tbody tr:not([data-skeleton])').first().waitFor()
    await page.waitForLoadState('networkidle')
    const once = (url: string) => asked.filter((a) => a.url === url)
    // The inline script of the page asked (its frames are the page's own address), not a chunk of the app.
    for (const url of ['/thana/api/v1/thana/all/?page=1&size=30&ordering=-name', '/api/auth/access-token', '/menu_item/api/v1/menu_item/nested_menu_item_by_user_role/']) {
      expect(once(url), url).toHaveLength(1)
      expect(once(url)[0]!.by, url).toBe(`${server.url}${thanas}?ordering=-name`)
    }
    expect(refused.filter((text) => /Content Security Policy/.test(text))).toEqual([])
    await context.close()
  })
})

describe('what a list loads', () => {
  /** The libraries of the app's JavaScript files this page has loaded, by their source maps (dist/assets/*.js.map). */
  const librariesLoaded = async (page: Page) => {
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((name) => /\/assets\/.*\.js$/.test(name)))
    const libraries = new Set<string>()
    for (const url of scripts) {
      const file = join('dist', new URL(url).pathname + '.map')
      // The bundler's runtime and the catalogues' chunks have no map: no library in them.
      if (!existsSync(file)) continue
      const map = JSON.parse(readFileSync(file, 'utf8')) as { sources: string[] }
      for (const source of map.sources) {
        const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1]
        if (name) libraries.add(name)
      }
    }
    return libraries
  }

  it('draws its first rows without the menus\' libraries, which come when a menu is reached for; the first click opens it', async () => {
    const { context, page } = await signedIn({ width: 1280, height: 900 })
    await page.goto(`${server.url}${thanas}`)
    await page.locator('tbody tr:not([data-skeleton])').first().waitFor()
    await page.waitForLoadState('networkidle')
    const first = await librariesLoaded(page)
    expect(first.has('react-dom')).toBe(true)
    for (const library of ['@headlessui/react', '@dnd-kit/core', '@tanstack/virtual-core', '@floating-ui/dom']) expect(first.has(library), library).toBe(false)
    // One click on a button drawn before its menu's code: the menu opens, as a person expects.
    await page.getByRole('button', { name: 'Columns' }).click()
    await expect.poll(() => page.getByRole('dialog').filter({ hasText: 'Density' }).count()).toBe(1)
    expect((await librariesLoaded(page)).has('@dnd-kit/core')).toBe(true)
    await page.keyboard.press('Escape')
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Columns')
    await context.close()
  })

  it('opens a menu whose code came while its button was held down: the click that ends the press is kept', async () => {
    const { context, page } = await signedIn({ width: 1280, height: 900 })
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let chunk = ''
    await page.route(/\/assets\/ColumnChooser-[^/]+\.js$/, async (route) => {
      chunk = route.request().url()
      await held
      await route.continue()
    })
    await page.goto(`${server.url}${thanas}`)
    await page.locator('tbody tr:not([data-skeleton])').first().waitFor()
    const box = (await page.getByRole('button', { name: 'Columns' }).boundingBox())!
    // The pointer reaches the button (its code is asked for) and presses it before the code is in.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.down()
    await expect.poll(() => chunk).not.toBe('')
    release()
    // The code in and drawn while the button is still held…
    // (A string: the test runner would rewrite an import() written in a function.)
    await page.evaluate(`import(${JSON.stringify(chunk)}).then(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))))`)
    // …and the release is the click a person made: the menu opens.
    await page.mouse.up()
    await expect.poll(() => page.getByRole('dialog').filter({ hasText: 'Density' }).count()).toBe(1)
    await context.close()
  })
})

describe('a date-range filter', () => {
  it('lists the employees who joined between two days, inclusive', async () => {
    const branch = (await api<{ branches: Array<{ id: number }> }>('/branch/api/v1/branch/all/?size=1')).branches[0]!.id
    const thana = (await api<{ thanas: Array<{ id: number }> }>('/thana/api/v1/thana/all/?size=1')).thanas[0]!.id
    const hire = (n: number, joined: string) =>
      api('/employee/api/v1/employee/create/', {
        method: 'POST',
        body: {
          first_name: `Rangetest ${n}`, last_name: 'Joiner', username: `rangetest${n}`, email: `rangetest${n}@example.com`, password: 'secret123',
          primary_phone: `+88017120000${10 + n}`, street_address_one: 'Road 1', gender: 'female', thana, branch, emp_join_date: joined,
        },
      })
    await hire(1, '2023-05-31')
    await hire(2, '2023-06-01')
    await hire(3, '2023-06-30')
    await hire(4, '2023-07-01')

    const { context, page } = await signedIn()
    await page.goto(`${server.url}/apps/employee-management/employees`)
    await page.getByRole('button', { name: 'Filters' }).click()
    const joined = page.getByRole('group', { name: 'Join Date' })
    await joined.getByLabel('From', { exact: true }).fill('2023-06-01')
    await joined.getByLabel('To', { exact: true }).fill('2023-06-30')
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.waitForURL(/emp_join_date_after=2023-06-01&emp_join_date_before=2023-06-30|emp_join_date_before=2023-06-30.*emp_join_date_after=2023-06-01|emp_join_date_after=2023-06-01.*emp_join_date_before=2023-06-30/)
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2)
    const names = await page.locator('tbody tr').allTextContents()
    expect(names.join(' ')).toContain('rangetest2')
    expect(names.join(' ')).toContain('rangetest3')
    expect(await page.getByText('2 records').isVisible()).toBe(true)
    await expect.poll(() => page.getByRole('list', { name: 'Filters in use' }).textContent()).toMatch(/Join Date: .*2023.*–.*2023/)
    // Removing the chip lists everyone again.
    await page.getByRole('button', { name: 'Remove the filter on Join Date' }).click()
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(2)
    await context.close()
  })
})

describe('a menu opened from the toolbar over a list', () => {
  it('stands above the list’s sticky header, where a click lands on the menu', async () => {
    const { context, page } = await signedIn({ width: 1280, height: 720 })
    await page.goto(`${server.url}${thanas}`)
    await expect.poll(() => page.locator('tbody tr:not([data-skeleton])').count()).toBeGreaterThan(0)
    // Scrolled so that the table's sticky header sits right under the toolbar.
    await page.locator('thead').evaluate((head) => head.closest('section')?.scrollIntoView({ block: 'start' }))
    await page.getByRole('button', { name: 'Shortcuts' }).click()
    const panel = page.getByRole('dialog', { name: 'Shortcuts' })
    await expect.poll(() => panel.isVisible()).toBe(true)
    const box = (await panel.boundingBox())!
    const head = (await page.locator('thead').boundingBox())!
    // Every point of the panel over the header belongs to the panel.
    const top = Math.max(box.y, head.y) + 2
    const bottom = Math.min(box.y + box.height, head.y + head.height) - 2
    expect(bottom, 'the panel overlaps the header').toBeGreaterThan(top)
    for (const y of [top, (top + bottom) / 2, bottom]) {
      const isOnPanel = await page.evaluate(([x, y]) => Boolean(document.elementFromPoint(x!, y!)?.closest('[role="dialog"]')), [box.x + box.width / 2, y])
      expect(isOnPanel, `at y=${y}`).toBe(true)
    }
    await context.close()
  })
})

describe('the columns of a list at 1280 px', () => {
  it('gives a long text room to be read (a site address is not squeezed to a word) and keeps the employees\' decisive columns in view', async () => {
    const { context, page } = await signedIn({ width: 1280, height: 900 })
    await page.goto(`${server.url}/apps/sitesettings-management/sitesettings`)
    await expect.poll(() => page.locator('tbody tr:not([data-skeleton])').count()).toBeGreaterThan(0)
    const header = page.getByRole('columnheader', { name: /^Address/ })
    expect((await header.boundingBox())!.width).toBeGreaterThanOrEqual(190)

    await page.goto(`${server.url}/apps/employee-management/employees`)
    await expect.poll(() => page.locator('tbody tr:not([data-skeleton])').count()).toBeGreaterThan(0)
    const region = (await page.getByRole('region', { name: /Employees/ }).boundingBox())!
    for (const name of [/^First Name/, /^Phone/, /^Branch/]) {
      const box = (await page.getByRole('columnheader', { name }).boundingBox())!
      expect(box.x + box.width, String(name)).toBeLessThanOrEqual(region.x + region.width)
    }
    await context.close()
  })
})

describe('deleting a district that police stations refer to', () => {
  it('says before anything is done that police stations refer to it and that it cannot be deleted', async () => {
    const { context, page } = await signedIn()
    await page.goto(`${server.url}/apps/city-management/cities?q=Gazipur`)
    const row = page.getByRole('row', { name: /Gazipur/ }).first()
    await row.getByRole('button', { name: 'Delete Gazipur' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete this District?' })
    await expect.poll(() => dialog.getByText('It cannot be deleted while these refer to it:').isVisible()).toBe(true)
    await expect.poll(() => dialog.locator('[data-effect="refuse"] li').first().textContent()).toMatch(/^\d+ Police Stations$/)
    expect(await dialog.getByRole('button', { name: 'Delete' }).count()).toBe(0)
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect.poll(() => dialog.count()).toBe(0)
    const still = await api<{ cities: Array<{ name: string }> }>('/city/api/v1/city/search/?name=Gazipur')
    expect(still.cities.map((c) => c.name)).toContain('Gazipur')
    await context.close()
  })
})

describe('a list on a phone', () => {
  for (const [width, height] of [[390, 844], [360, 740]] as const) {
    for (const language of ['en', 'ar'] as const) {
      it(`never makes the page wider than a ${width} px screen (${language})`, async () => {
        const { context, page } = await signedIn({ width, height, language })
        const fits = () => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }))
        const city = (await api<{ cities: Array<{ id: number }> }>('/city/api/v1/city/search/?name=Dhaka')).cities[0]!.id
        for (const path of [`${thanas}?q=a&city=${city}&ordering=-name`, '/apps/roles-management/roles', '/apps/employee-management/employees']) {
          await page.goto(`${server.url}${path}`)
          await expect.poll(() => page.locator('tbody tr:not([data-skeleton])').count()).toBeGreaterThan(0)
          const { scroll, inner } = await fits()
          expect(scroll, `${path} at ${width} px`).toBeLessThanOrEqual(inner)
        }
        // The filter bar open, too.
        await page.getByRole('button', { name: language === 'en' ? 'Filters' : 'عوامل التصفية' }).click()
        await expect.poll(() => page.locator('form').count()).toBeGreaterThan(0)
        const { scroll, inner } = await fits()
        expect(scroll).toBeLessThanOrEqual(inner)
        await context.close()
      })
    }
  }
})
