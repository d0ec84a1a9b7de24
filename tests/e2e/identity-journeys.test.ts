import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'

/**
 * Identity and access in real Chromium against the built app and a real server (issue 3):
 * a wrong password, signing in, the guard's redirect and return, a logout in another tab,
 * registering, and the "Done when" — an admin makes a STAFF-like role with chosen
 * permissions and menu items, gives it to a new user, and that user sees exactly those
 * items while the server refuses them everything else.
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

async function newPage(context?: BrowserContext): Promise<Page> {
  const owner = context ?? (await browser.newContext({ viewport: { width: 1280, height: 900 } }))
  return owner.newPage()
}

async function signIn(page: Page, credentials: { email: string; password: string }): Promise<void> {
  const email = page.getByLabel('Email')
  await email.waitFor()
  // Demo mode prefills the demo admin; wait for it so it does not overwrite what we type.
  await expect.poll(() => email.inputValue()).toBe('admin@example.com')
  await email.fill(credentials.email)
  await page.getByLabel('Password', { exact: true }).fill(credentials.password)
  await page.getByRole('button', { name: 'Login' }).click()
}

const navigation = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' })

/** The app's own addresses the navigation links to, in order. */
async function navigationTargets(page: Page): Promise<string[]> {
  const hrefs = await navigation(page)
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))
  return hrefs.filter((href) => href.startsWith('/apps/'))
}

async function api(page: Page, path: string): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('jwt_access_token'))
  return (await fetch(`${server.url}${path}`, { headers: { authorization: token ?? '' } })).status
}

describe('signing in and out', () => {
  it('shows the server’s detail for a wrong password and stays signed out', async () => {
    const page = await newPage()
    await page.goto(`${server.url}/login`)
    await signIn(page, { email: ADMIN.email, password: 'not-the-password' })
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('No active account found with the given credentials')
    expect(page.url()).toMatch(/\/login$/)
    expect(await page.evaluate(() => localStorage.getItem('jwt_access_token'))).toBeNull()
    await page.context().close()
  })

  it('signs in to the dashboard with the role in the user menu, and stays signed in across a reload', async () => {
    const page = await newPage()
    await page.goto(`${server.url}/login`)
    await signIn(page, ADMIN)
    await page.waitForURL(/\/apps\/dashboards\/project$/)
    await expect.poll(() => page.getByTestId('user-role').textContent()).toBe('Admin')
    const first = await page.evaluate(() => localStorage.getItem('jwt_access_token'))
    expect(first).toMatch(/^Bearer ey/)
    await page.reload()
    await expect.poll(() => page.getByTestId('user-role').textContent()).toBe('Admin')
    // The start-up sign-in stored a fresh token.
    expect(await page.evaluate(() => localStorage.getItem('jwt_access_token'))).toMatch(/^Bearer ey/)
    await page.context().close()
  })

  it('sends a signed-out visitor to /login and back to the page asked for', async () => {
    const page = await newPage()
    await page.goto(`${server.url}/apps/roles-management/roles`)
    await page.waitForURL(/\/login\?redirect=/)
    await signIn(page, ADMIN)
    await page.waitForURL(/\/apps\/roles-management\/roles$/)
    await expect.poll(() => page.getByRole('heading', { name: 'Roles' }).isVisible()).toBe(true)
    await page.context().close()
  })

  it('logs this tab out when another tab of the same browser logs out', async () => {
    const first = await newPage()
    await first.goto(`${server.url}/login`)
    await signIn(first, ADMIN)
    await first.waitForURL(/\/apps\/dashboards\/project$/)
    await first.goto(`${server.url}/apps/thana-management/thanas`)
    await expect.poll(() => first.getByRole('heading', { name: 'Police Stations' }).isVisible()).toBe(true)

    const second = await newPage(first.context())
    await second.goto(`${server.url}/apps/dashboards/project`)
    await second.getByRole('button', { name: /^User menu/ }).click()
    await second.getByRole('menuitem', { name: 'Logout' }).click()
    await second.waitForURL(/\/login$/)

    await first.waitForURL(/\/login\?redirect=%2Fapps%2Fthana-management%2Fthanas$/)
    expect(await first.evaluate(() => [localStorage.getItem('jwt_access_token'), localStorage.getItem('user_id')])).toEqual([null, null])
    await first.context().close()
  })
})

describe('registering', () => {
  it('creates an account from /register, signs it in, and shows it no back-office data', async () => {
    const page = await newPage()
    await page.goto(`${server.url}/login`)
    await page.getByRole('link', { name: 'Register' }).click()
    await page.waitForURL(/\/register$/)
    await page.getByRole('textbox', { name: /^First Name/ }).fill('Nadia')
    await page.getByRole('textbox', { name: /^Last Name/ }).fill('Akter')
    await page.getByRole('textbox', { name: 'User Name' }).fill('nadia')
    await page.getByRole('textbox', { name: /^Email/ }).fill('nadia@example.com')
    await page.getByLabel(/^Password/).fill('nadia-secret')
    await page.getByLabel(/^Confirm Password/).fill('nadia-secret')
    await page.getByRole('button', { name: 'Register' }).click()

    await page.waitForURL(/\/apps\/dashboards\/project$/)
    // No back-office rights: a welcome of their own, not an empty page of counts.
    await expect.poll(() => page.getByTestId('dashboard-welcome').isVisible()).toBe(true)
    await expect.poll(() => page.getByTestId('dashboard-welcome').getByRole('heading', { level: 1 }).textContent()).toMatch(/Nadia/)
    await expect.poll(() => page.getByTestId('user-role').textContent()).toBe('User')
    // USER has no role menu: no back-office item in the navigation, only their welcome page, their own tickets and their profile.
    expect(await navigationTargets(page)).toEqual(['/apps/dashboards/project', '/apps/ticket-management/tickets'])
    expect(await navigation(page).getByRole('link', { name: 'My Profile' }).getAttribute('href')).toBe('/pages/profile')
    expect(await page.locator('[data-testid^="count-"]').count()).toBe(0)

    // The server agrees: a USER reaches no back-office data.
    expect(await api(page, '/thana/api/v1/thana/all/')).toBe(403)
    expect(await api(page, '/user/api/v1/user/all/')).toBe(403)

    // And the guard sends a typed-in address back to the dashboard.
    await page.goto(`${server.url}/apps/thana-management/thanas`)
    await page.waitForURL(/\/apps\/dashboards\/project$/)
    await expect.poll(() => page.getByText('You do not have permission to open that page.').isVisible()).toBe(true)
    await page.context().close()
  })
})

describe('an admin gives a new user a STAFF-like role', () => {
  it('makes the role and its menu, gives it to a new user, who then sees exactly those menu items', async () => {
    const admin = await newPage()
    await admin.goto(`${server.url}/login`)
    await signIn(admin, ADMIN)
    await admin.waitForURL(/\/apps\/dashboards\/project$/)

    // The role, with the police stations' list and details and the districts' list.
    await admin.goto(`${server.url}/apps/roles-management/roles/new`)
    await admin.getByRole('textbox', { name: /^Name/ }).fill('shift clerk')
    const stations = admin.getByRole('group', { name: 'Police Stations' })
    await stations.getByRole('checkbox', { name: 'List' }).check()
    await stations.getByRole('checkbox', { name: 'Details' }).check()
    await admin.getByRole('group', { name: 'Districts' }).getByRole('checkbox', { name: 'List' }).check()
    await admin.getByRole('button', { name: 'Save & close', exact: true }).click()
    await admin.waitForURL(/\/apps\/roles-management\/roles$/)

    // Its menu — a document whose lines are menu items, ticked in the menu's tree: the
    // dashboard, the districts and the police stations (and so their group, Settings).
    await admin.goto(`${server.url}/apps/roleMenu-management/roleMenus/new`)
    await admin.getByRole('combobox', { name: /^Role/ }).fill('SHIFT')
    await admin.getByRole('option', { name: 'SHIFT_CLERK' }).click()
    const menu = admin.getByRole('tree', { name: 'Menu Items' })
    await menu.getByRole('treeitem', { name: 'Dashboards' }).click()
    for (const item of ['Districts', 'Police Stations']) {
      await admin.getByRole('searchbox', { name: 'Filter Menu Items' }).fill(item)
      await menu.getByRole('treeitem', { name: item, exact: true }).click()
    }
    await expect.poll(() => admin.getByTestId('computed-item_count').textContent()).toBe('4')
    await admin.getByRole('button', { name: 'Save & close', exact: true }).click()
    await admin.waitForURL(/\/apps\/roleMenu-management\/roleMenus$/)
    await expect.poll(() => admin.getByRole('cell', { name: 'SHIFT_CLERK', exact: true }).isVisible()).toBe(true)

    // A new user with that role.
    await admin.goto(`${server.url}/apps/users-management/userslist/new`)
    await admin.getByRole('textbox', { name: /^First Name/ }).fill('Karim')
    await admin.getByRole('textbox', { name: /^Last Name/ }).fill('Uddin')
    await admin.getByRole('textbox', { name: 'User Name' }).fill('karim')
    await admin.getByRole('textbox', { name: /^Email/ }).fill('karim@example.com')
    await admin.getByLabel(/^Password/).fill('karim-secret')
    await admin.getByLabel(/^Confirm Password/).fill('karim-secret')
    await admin.getByRole('combobox', { name: /^Role/ }).fill('SHIFT')
    await admin.getByRole('option', { name: 'SHIFT_CLERK' }).click()
    await admin.getByRole('button', { name: 'Save & close', exact: true }).click()
    await admin.waitForURL(/\/apps\/users-management\/userslist$/)
    await admin.context().close()

    // The user signs in and sees exactly those items.
    const clerk = await newPage()
    await clerk.goto(`${server.url}/login`)
    await signIn(clerk, { email: 'karim@example.com', password: 'karim-secret' })
    await clerk.waitForURL(/\/apps\/dashboards\/project$/)
    await expect.poll(() => navigation(clerk).getByRole('link', { name: 'Police Stations' }).isVisible()).toBe(true)
    expect(await navigationTargets(clerk)).toEqual(['/apps/dashboards/project', '/apps/city-management/cities', '/apps/thana-management/thanas'])
    await expect.poll(() => clerk.getByTestId('user-role').textContent()).toBe('shift clerk')

    // The police stations open, read-only: no New, no delete.
    await navigation(clerk).getByRole('link', { name: 'Police Stations' }).click()
    await clerk.waitForURL(/\/apps\/thana-management\/thanas$/)
    await clerk.locator('tbody tr').first().waitFor()
    expect(await clerk.getByRole('link', { name: 'New' }).count()).toBe(0)
    expect(await clerk.getByRole('button', { name: /^Delete / }).count()).toBe(0)

    // The server refuses everything else.
    expect(await api(clerk, '/thana/api/v1/thana/all/')).toBe(200)
    expect(await api(clerk, '/city/api/v1/city/all/')).toBe(200)
    for (const path of ['/city/api/v1/city/1', '/country/api/v1/country/all/', '/user/api/v1/user/all/', '/role/api/v1/role/all/', '/employee/api/v1/employee/all/']) {
      expect(await api(clerk, path), path).toBe(403)
    }
    await clerk.context().close()
  })
})

describe('a role’s menu, ticked in the navigation’s tree (issue 20)', () => {
  /** Signed in as the admin, with a fresh role whose menu is the dashboard alone (written through the contract). */
  async function roleWithMenu(name: string): Promise<{ token: string; stored: Record<string, string>; roleId: number; ids: Map<string, number[]> }> {
    const page = await newPage()
    await page.goto(`${server.url}/login`)
    await signIn(page, ADMIN)
    await page.waitForURL(/\/apps\/dashboards\/project$/)
    const stored = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage)) as Record<string, string>)
    await page.context().close()
    const token = stored.jwt_access_token ?? ''
    const send = async (method: string, path: string, body?: unknown) =>
      (await fetch(`${server.url}${path}`, { method, headers: { authorization: token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<Record<string, unknown>>
    const role = await send('POST', '/role/api/v1/role/create/', { name, permissions: [] })
    type Node = { id: number; translate: string; children: Node[] }
    const nested = (await send('GET', '/menu_item/api/v1/menu_item/nested_menu_item_without_pagination/all/')).menu_items as Node[]
    const ids = new Map<string, number[]>()
    const walk = (nodes: Node[]) => nodes.forEach((n) => (ids.set(n.translate, [...(ids.get(n.translate) ?? []), n.id]), walk(n.children)))
    walk(nested)
    await send('POST', '/role_menu/api/v1/role_menu/create/', { role: role.id, menu_items: ids.get('nav.dashboards') })
    return { token, stored, roleId: role.id as number, ids }
  }

  it('ticks a group whole, an item found by the filter with the keyboard, saves, and finds the ticks after a reload; the page stays a fraction of its old 4,168 px', async () => {
    const { token, stored, roleId, ids } = await roleWithMenu('MENU_TESTER')
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addInitScript((values: Record<string, string>) => {
      for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v)
    }, stored)
    const page = await context.newPage()
    await page.goto(`${server.url}/apps/roleMenu-management/roleMenus/${roleId}/MENU_TESTER`)
    const menu = page.getByRole('tree', { name: 'Menu Items' })
    const item = (name: string) => menu.getByRole('treeitem', { name, exact: true })
    await item('Dashboards').waitFor()
    await page.waitForLoadState('networkidle')
    // The 63 lines of pickers took 4,168 px; the tree, its groups closed, far less.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(1500)
    expect(await item('Dashboards').getAttribute('aria-checked')).toBe('true')

    // "Blogs" the group, ticked whole: itself and both its items (one of them also "Blogs").
    const blogs = menu.locator('[role=treeitem][aria-expanded]', { has: page.getByText('Blogs', { exact: true }) }).first()
    await blogs.locator(':scope > div').getByText('Blogs', { exact: true }).click()
    expect(await blogs.getAttribute('aria-checked')).toBe('true')
    // The dashboard unticked with the keyboard: the tree is one tab stop, Space ticks.
    await item('Dashboards').focus()
    await page.keyboard.press('Space')
    expect(await item('Dashboards').getAttribute('aria-checked')).toBe('false')
    // Police Stations, found by the filter and ticked from the keyboard.
    await page.getByRole('searchbox', { name: 'Filter Menu Items' }).fill('police')
    await item('Police Stations').waitFor()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.press('End')
    await page.keyboard.press('Space')
    expect(await item('Police Stations').getAttribute('aria-checked')).toBe('true')
    await page.getByRole('searchbox', { name: 'Filter Menu Items' }).fill('')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect.poll(() => page.getByText('Role Menu saved.').isVisible().catch(() => false)).toBe(true)

    await page.reload()
    await item('Dashboards').waitFor()
    const settings = menu.locator('[role=treeitem][aria-expanded]', { has: page.getByText('Settings', { exact: true }) }).first()
    expect(await item('Dashboards').getAttribute('aria-checked')).toBe('false')
    expect(await blogs.getAttribute('aria-checked')).toBe('true')
    expect(await settings.getAttribute('aria-checked')).toBe('mixed')
    await page.getByRole('button', { name: 'Expand all' }).click()
    expect(await item('Police Stations').getAttribute('aria-checked')).toBe('true')
    expect(await item('Districts').getAttribute('aria-checked')).toBe('false')
    expect(await menu.getByRole('treeitem', { name: 'Blog Categories' }).getAttribute('aria-checked')).toBe('true')

    // The lines stored are the ticks: each group ahead of its items, in the menu's order.
    const saved = (await (await fetch(`${server.url}/role_menu/api/v1/role_menu/${roleId}`, { headers: { authorization: token } })).json()) as { menu_items: Array<{ menu_item: number }> }
    const blogIds = ids.get('nav.blogs')!
    expect(saved.menu_items.map((l) => l.menu_item)).toEqual([...blogIds, ids.get('entity.cms_blog_category.other')![0], ids.get('nav.settings')![0], ids.get('nav.police_stations')![0]])
    await context.close()
  })

  it('keeps the page to the narrowest screen (320 px) in both directions and themes, its groups open', async () => {
    const { stored, roleId } = await roleWithMenu('MENU_ON_A_PHONE')
    for (const language of ['en', 'ar'] as const) {
      for (const mode of ['light', 'dark'] as const) {
        const context = await browser.newContext({ viewport: { width: 320, height: 700 }, colorScheme: mode })
        const theme = `default-${mode}`
        const settings = { theme: { main: theme, navbar: 'default-dark', toolbar: theme, footer: 'default-dark' }, direction: language === 'ar' ? 'rtl' : 'ltr' }
        await context.addInitScript((values: Record<string, string>) => {
          for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v)
        }, { ...stored, layout_settings: JSON.stringify(settings), language })
        const page = await context.newPage()
        await page.goto(`${server.url}/apps/roleMenu-management/roleMenus/${roleId}/MENU_ON_A_PHONE`)
        await page.getByRole('treeitem').nth(5).waitFor()
        await page.waitForLoadState('networkidle')
        expect(await page.evaluate(() => document.documentElement.dir)).toBe(language === 'ar' ? 'rtl' : 'ltr')
        await page.getByRole('button', { name: language === 'ar' ? 'توسيع الكل' : 'Expand all' }).click()
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${language} ${mode}`).toBeLessThanOrEqual(0)
        // Every item's name whole, within the tree.
        const tree = (await page.getByRole('tree').boundingBox())!
        const clipped = await page.getByRole('treeitem').evaluateAll((items) => items.filter((i) => {
          const label = document.getElementById(i.getAttribute('aria-labelledby') ?? '')
          return !label || label.scrollWidth > label.clientWidth
        }).length)
        expect(clipped).toBe(0)
        expect(tree.x).toBeGreaterThanOrEqual(0)
        expect(tree.x + tree.width).toBeLessThanOrEqual(320)
        await context.close()
      }
    }
  })
})
