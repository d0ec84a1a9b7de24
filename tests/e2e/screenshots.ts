/**
 * Screenshots of the main screens for a human to look at (not a test): login, the police
 * station list, a police station form with the district select open, and the identity
 * screens (the users list, the role form's grouped permissions, the role-menu tree,
 * register and profile); light and dark, English and Arabic (RTL); then the police station
 * list in layouts 1, 2 and 3, light and dark, left to right and right to left. Also prints
 * the gzip size of the JavaScript each route loads.
 *
 *   npx vite build && DATA_DIR=/tmp/somedir PORT=3000 npx tsx server/main.ts &
 *   BASE_URL=http://localhost:3000 npx tsx tests/e2e/screenshots.ts [outDir]
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

const baseUrl = process.env.BASE_URL ?? 'http://localhost:3000'
const outDir = process.argv[2] ?? '/tmp/shots'
const credentials = { email: 'admin@example.com', password: 'admin123' }

type Variant = { language: 'en' | 'ar'; theme: 'light' | 'dark' }
const variants: Variant[] = [
  { language: 'en', theme: 'light' },
  { language: 'en', theme: 'dark' },
  { language: 'ar', theme: 'light' },
  { language: 'ar', theme: 'dark' },
]

async function signIn(): Promise<string> {
  const response = await fetch(`${baseUrl}/user/api/v1/user/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  })
  if (!response.ok) throw new Error(`login failed: ${response.status}`)
  const body = (await response.json()) as { access: string; id: number }
  return JSON.stringify({ jwt_access_token: `Bearer ${body.access}`, user_id: String(body.id) })
}

async function roleIdNamed(name: string, token: string): Promise<number> {
  const response = await fetch(`${baseUrl}/role/api/v1/role/search/?name=${name}`, { headers: { authorization: token } })
  const role = ((await response.json()) as { roles: { id: number; name: string }[] }).roles.find((r) => r.name === name)
  if (!role) throw new Error(`no role ${name}`)
  return role.id
}

/** The layout settings (src/shell/settings) as localStorage holds them. */
function layoutSettings(layout: 'layout1' | 'layout2' | 'layout3', theme: 'light' | 'dark', direction: 'ltr' | 'rtl'): string {
  const main = `default-${theme}`
  return JSON.stringify({
    layout: { style: layout, config: { containerWidth: layout === 'layout1' ? 1570 : 1120 } },
    theme: { main, navbar: 'default-dark', toolbar: main, footer: 'default-dark' },
    direction,
  })
}

async function newContext(browser: Browser, variant: Variant, storage: Record<string, string>): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: variant.theme })
  const init = { layout_settings: layoutSettings('layout1', variant.theme, variant.language === 'ar' ? 'rtl' : 'ltr'), ...storage, language: variant.language }
  await context.addInitScript((values: Record<string, string>) => {
    for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v)
  }, init)
  return context
}

function watchErrors(page: Page, label: string): void {
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`  [${label}] console error: ${m.text()}`)
  })
  page.on('pageerror', (e) => console.log(`  [${label}] page error: ${e.message}`))
  page.on('response', (r) => {
    if (r.status() >= 400) console.log(`  [${label}] ${r.status()} ${r.request().method()} ${r.url()}`)
  })
}

async function jsLoaded(browser: Browser, path: string, storage: Record<string, string>): Promise<{ files: number; gzip: number }> {
  const context = await newContext(browser, { language: 'en', theme: 'light' }, storage)
  const page = await context.newPage()
  const bodies: Promise<Buffer>[] = []
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') bodies.push(r.body())
  })
  await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle' })
  const buffers = await Promise.all(bodies)
  await context.close()
  return { files: buffers.length, gzip: buffers.reduce((sum, b) => sum + gzipSync(b).length, 0) }
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true })
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  const session = JSON.parse(await signIn()) as Record<string, string>
  const staffRoleId = await roleIdNamed('STAFF', session.jwt_access_token!)

  for (const variant of variants) {
    const tag = `${variant.language}-${variant.theme}`
    console.log(tag)
    const isArabic = variant.language === 'ar'

    // The real journey: the prefilled login form, Login, the dashboard, the list, a form.
    const context = await newContext(browser, variant, {})
    const page = await context.newPage()
    watchErrors(page, tag)
    await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' })
    const loginButton = page.getByRole('button', { name: isArabic ? 'دخول' : 'Login' })
    await page.getByLabel(isArabic ? 'البريد الإلكتروني' : 'Email').and(page.locator('input')).waitFor()
    await page.waitForFunction(() => (document.querySelector('input[type=email]') as HTMLInputElement | null)?.value !== '')
    await page.screenshot({ path: join(outDir, `login-${tag}.png`) })
    await loginButton.click()
    await page.waitForURL('**/apps/dashboards/project')
    await page.locator('[data-testid^="count-"]').first().waitFor()
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: join(outDir, `dashboard-${tag}.png`) })

    await page.getByRole('navigation').getByRole('link', { name: isArabic ? 'مراكز الشرطة' : 'Police Stations' }).click()
    await page.waitForURL('**/apps/thana-management/thanas')
    await page.locator('tbody tr').nth(5).waitFor()
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: join(outDir, `list-${tag}.png`) })

    await page.locator('tbody tr').nth(2).click()
    const district = page.getByRole('combobox').first()
    await district.waitFor()
    await page.waitForLoadState('networkidle')
    await district.click()
    await page.getByRole('option').nth(3).waitFor()
    await page.screenshot({ path: join(outDir, `form-${tag}.png`) })

    // Identity and access (issue 3).
    await page.goto(`${baseUrl}/apps/users-management/userslist`)
    await page.locator('tbody tr').nth(1).waitFor()
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: join(outDir, `users-${tag}.png`) })

    await page.goto(`${baseUrl}/apps/roles-management/roles/${staffRoleId}/STAFF`)
    await page.locator('fieldset[data-testid^="permission-group-"]').nth(5).waitFor()
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: join(outDir, `role-${tag}.png`), fullPage: true })

    await page.goto(`${baseUrl}/apps/roleMenu-management/roleMenus/${staffRoleId}/STAFF`)
    await page.getByRole('treeitem').nth(3).waitFor()
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: join(outDir, `role-menu-${tag}.png`), fullPage: true })

    await page.goto(`${baseUrl}/pages/profile`)
    await page.getByRole('textbox').first().waitFor()
    await page.waitForLoadState('networkidle')
    await page.screenshot({ path: join(outDir, `profile-${tag}.png`), fullPage: true })
    await context.close()

    const guest = await newContext(browser, variant, {})
    const register = await guest.newPage()
    watchErrors(register, `${tag} register`)
    await register.goto(`${baseUrl}/register`)
    await register.getByRole('textbox').first().waitFor()
    await register.waitForLoadState('networkidle')
    await register.screenshot({ path: join(outDir, `register-${tag}.png`) })
    await guest.close()
  }

  for (const layout of ['layout1', 'layout2', 'layout3'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      for (const direction of ['ltr', 'rtl'] as const) {
        const tag = `${layout}-${theme}-${direction}`
        console.log(tag)
        const language = direction === 'rtl' ? 'ar' : 'en'
        const context = await newContext(browser, { language, theme }, { ...session, layout_settings: layoutSettings(layout, theme, direction) })
        const page = await context.newPage()
        watchErrors(page, tag)
        await page.goto(`${baseUrl}/apps/thana-management/thanas`, { waitUntil: 'networkidle' })
        await page.locator('tbody tr').nth(5).waitFor()
        await page.screenshot({ path: join(outDir, `shell-${tag}.png`) })
        await context.close()
      }
    }
  }

  const login = await jsLoaded(browser, '/login', {})
  const list = await jsLoaded(browser, '/apps/thana-management/thanas', session)
  console.log(`JS for /login: ${login.files} files, ${(login.gzip / 1024).toFixed(1)} kB gzip`)
  console.log(`JS for the police station list: ${list.files} files, ${(list.gzip / 1024).toFixed(1)} kB gzip`)
  await browser.close()
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
