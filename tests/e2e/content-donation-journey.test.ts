import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'
import { choose as pick, runLedgerReport, saveTo, signInAsDemoAdmin } from './support/forms'
import { inEveryLook, overflowOf, shoot } from './support/looks'

/**
 * Content, blogs and donations in real Chromium against a real server (issue 12): a menu
 * nested under another (picked in the tree), a content of it written in the rich-text editor,
 * a picture for the menu, a blog post published with formatted text (stored sanitised), a
 * cause, a donation to it — and the donation's receipt in the Cash ledger report.
 */
let server: RunningServer
let browser: Browser
let page: Page
let token = ''
const shotsDir = process.env.SHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'content-shots-'))

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
  mkdirSync(shotsDir, { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (!process.env.SHOTS_DIR) rmSync(shotsDir, { recursive: true, force: true })
})

const save = (listPath: string) => saveTo(page, listPath)
const choose = (label: string | RegExp, text: string, option: RegExp) => pick(page, label, text, option)

async function openNew(listPath: string): Promise<void> {
  await page.goto(`${server.url}${listPath}`)
  await page.getByRole('link', { name: 'New' }).click()
}

/** Types into a rich-text field and makes its last words bold with the toolbar. */
async function writeRich(label: RegExp, plain: string, bold: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: label })
  await editor.click()
  await page.keyboard.type(`${plain} `)
  await page.getByRole('button', { name: 'Bold' }).first().click()
  await page.keyboard.type(bold)
}

describe('content, a blog and a donation in the browser', () => {
  it('builds a nested menu with content and a picture, publishes a blog post, and sees a donation in the ledger report', async () => {
    await signInAsDemoAdmin(page, server.url)

    // Menus: Treks, and Bandarban under it (the parent picked in the tree).
    const menus = '/apps/menu-management/menus'
    for (const [name, parent] of [['Treks', null], ['Bandarban', 'Treks']] as const) {
      await openNew(menus)
      await page.getByRole('textbox', { name: /^Name/ }).fill(name)
      if (parent) await choose(/^Parent/, parent.slice(0, 3), new RegExp(`^${parent}`))
      await save(menus)
    }
    const nested = await api<{ menus: Array<{ name: string; children: Array<{ name: string }> }> }>('/cms_menu/api/v1/cms_menu/get_all_nested_cms_menu/')
    expect(nested.menus.find((m) => m.name === 'Treks')?.children.map((c) => c.name)).toEqual(['Bandarban'])

    // A content of Bandarban, its value written in the rich-text editor; its slug previewed from the name.
    const contents = '/apps/content-management/contents'
    await openNew(contents)
    await choose(/^Menu/, 'bandar', /^Bandarban/)
    await page.getByRole('textbox', { name: /^Name/ }).fill('Nilgiri Hills')
    await expect.poll(() => page.getByRole('textbox', { name: /^Slug/ }).inputValue()).toBe('nilgiri-hills')
    await writeRich(/^Value/, 'Green hills and', 'morning mist')
    await save(contents)
    const { menu_items: storedContents } = await api<{ menu_items: Array<{ name: string; slug: string; value: string }> }>('/cms_menu_content/api/v1/cms_menu_content/all/?q=nilgiri')
    expect(storedContents[0]).toMatchObject({ name: 'Nilgiri Hills', slug: 'nilgiri-hills' })
    expect(storedContents[0]!.value).toContain('<strong>morning mist</strong>')

    // A picture for the menu.
    const images = '/apps/image-management/images'
    await openNew(images)
    await choose(/^Menu/, 'bandar', /^Bandarban/)
    await page.getByRole('textbox', { name: /^Heading/ }).fill('banner')
    await page.locator('input[type=file]').first().setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 80, height: 40, channels: 3, background: '#0a7' } }).png().toBuffer() })
    await save(images)
    const bandarban = nested.menus.find((m) => m.name === 'Treks')!.children[0] as unknown as { id: number }
    const page_ = await api<{ menu_contents: Record<string, string>; content_images: Record<string, string> }>(`/cms_menu/api/v1/cms_menu/get_all_menu_content_and_image_by_cms_menu_id/${bandarban.id}`)
    expect(Object.keys(page_.menu_contents)).toEqual(['Nilgiri Hills'])
    expect(page_.content_images.banner).toMatch(/^\/media\/cms_menu_content_image\/.+\.png$/)

    // A blog post, published, with formatted text.
    const blogs = '/apps/blog-management/blogs'
    await openNew(blogs)
    await page.getByRole('textbox', { name: /^Title/ }).fill('Clouds over Nilgiri')
    await writeRich(/^Description/, 'The rains turn the valley', 'emerald')
    await page.getByRole('checkbox', { name: /^Published/ }).check()
    await shoot(page, { path: join(shotsDir, 'blog-form.png'), fullPage: true })
    await save(blogs)
    const { blogs: posts } = await api<{ blogs: Array<{ title: string; slug: string; description: string; is_published: boolean }> }>('/cms_blog/api/v1/cms_blog/all/?q=clouds')
    expect(posts[0]).toMatchObject({ title: 'Clouds over Nilgiri', slug: 'clouds-over-nilgiri', is_published: true })
    expect(posts[0]!.description).toContain('<strong>emerald</strong>')

    // A cause and a donation to it.
    const causes = '/apps/cause-management/causes'
    await openNew(causes)
    await page.getByRole('textbox', { name: /^Name/ }).fill('Flood Relief')
    await page.getByRole('textbox', { name: /^Goal Amount/ }).fill('10000')
    await save(causes)
    const donations = '/apps/donation-management/donations'
    await openNew(donations)
    await choose(/^Cause/, 'flood', /^Flood Relief/)
    await page.getByRole('textbox', { name: /^Amount/ }).fill('2500')
    await page.getByRole('textbox', { name: /^First Name/ }).fill('Nadia')
    await page.getByRole('textbox', { name: /^Last Name/ }).fill('Rahman')
    await page.getByRole('textbox', { name: /^Email/ }).fill('nadia.rahman@example.com')
    await save(donations)
    const { donations: given } = await api<{ donations: Array<{ invoice_no: string; amount: string }> }>('/donation/api/v1/donation/all/?q=nadia')
    expect(given[0]).toMatchObject({ amount: '2500.00' })
    const invoice = given[0]!.invoice_no
    expect(invoice).toMatch(/^RV\d{11}$/)

    // The receipt in the Cash ledger report.
    await runLedgerReport(page, 'cash', /^Cash/)
    const received = page.getByRole('row', { name: new RegExp(invoice) })
    await expect.poll(() => received.count()).toBe(1)
    expect(await received.innerText()).toContain('2,500.00')
    await shoot(page, { path: join(shotsDir, 'donation-ledger-report.png'), fullPage: true })
  })

  it('shows the blog form with its editor in light and dark, English and Arabic, on a desktop and a phone', async () => {
    const { blogs: posts } = await api<{ blogs: Array<{ id: number }> }>('/cms_blog/api/v1/cms_blog/all/?q=clouds')
    const stored = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage)) as Record<string, string>)
    await inEveryLook(browser, stored, async (shot, { width, language, mode }) => {
      await shot.goto(`${server.url}/apps/blog-management/blogs/${posts[0]!.id}`)
      await expect.poll(() => shot.locator('[contenteditable="true"]').count()).toBeGreaterThan(0)
      await shot.waitForLoadState('networkidle')
      await shoot(shot, { path: join(shotsDir, `blog-form-${width}-${language}-${mode}.png`), fullPage: true })
      expect(await overflowOf(shot)).toBeLessThanOrEqual(0)
    })
  })
})
