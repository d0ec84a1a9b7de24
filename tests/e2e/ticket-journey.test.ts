import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'
import { choose } from './support/forms'
import { inEveryLook, overflowOf, shoot } from './support/looks'
import { fromMail } from './support/mail'

/**
 * A support ticket in real Chromium against a real server (issue 23): the demo's registered
 * user (role USER, no back-office permissions) opens a ticket with a picture from their own
 * Tickets list; the staff member finds it in the Supports list and answers it at the spec's
 * thread address; the user reads the answer (and its mail) and replies; staff close it; the
 * user's reply reopens it. The thread and the department's list in every look.
 */
let server: RunningServer
let browser: Browser
let customer: Page
let staff: Page
let ticketId = ''
const shotsDir = process.env.SHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'ticket-shots-'))

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/login`)
  await page.getByLabel('Email').fill(email)
  await page.locator('input[type=password]').fill(password)
  await page.getByRole('button', { name: 'Login' }).click()
  await page.waitForURL(/\/apps\/dashboards\/project$/)
}

async function write(page: Page, label: RegExp | string, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: label })
  await editor.click()
  await page.keyboard.type(text)
}

const statusOf = (page: Page) => page.getByTestId('ticket-facts').innerText()

beforeAll(async () => {
  mkdirSync(shotsDir, { recursive: true })
  server = await startServer()
  browser = await launchBrowser()
  customer = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  staff = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (!process.env.SHOTS_DIR) rmSync(shotsDir, { recursive: true, force: true })
})

describe('a support ticket in the browser', () => {
  it('is opened by a user with a picture, answered by staff, replied to, closed and reopened by the user’s reply', async () => {
    await signIn(customer, 'user@example.com', 'user1234')
    await customer.waitForLoadState('networkidle')
    await shoot(customer, { path: join(shotsDir, 'user-home.png'), fullPage: true })
    // Their own tickets, from the sidebar: the demo's answered one among them.
    await customer.getByRole('link', { name: 'Tickets', exact: true }).first().click()
    await customer.waitForURL((url) => url.pathname === '/apps/ticket-management/tickets')
    await expect.poll(() => customer.getByRole('row', { name: /Where is my parcel\?/ }).count()).toBe(1)
    expect(await customer.getByRole('row', { name: /Bulk price for cushion covers/ }).count()).toBe(0)

    await customer.getByRole('link', { name: /^New/ }).first().click()
    await customer.getByLabel('Subject').fill('The tea tin arrived dented')
    await choose(customer, 'Department', 'supp', /support/i)
    await choose(customer, 'Priority', 'high', /high/i)
    await write(customer, /Message/, 'The lid of my tea tin is dented. A photo is attached.')
    const photo = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#b45309' } }).png().toBuffer()
    await customer.locator('input[type=file]').first().setInputFiles({ name: 'dented-tin.png', mimeType: 'image/png', buffer: photo })
    await customer.getByRole('button', { name: 'Save', exact: true }).click()
    await customer.waitForURL((url) => /\/ticket-details\/\d+/.test(url.pathname))
    ticketId = new URL(customer.url()).pathname.match(/ticket-details\/(\d+)/)![1]!
    const thread = customer.getByRole('list', { name: 'Messages' })
    await expect.poll(() => thread.getByText('The lid of my tea tin is dented.').isVisible()).toBe(true)
    await expect.poll(() => thread.getByRole('link', { name: /Attachment: / }).count()).toBe(1)
    expect(await statusOf(customer)).toContain('Open')
    // No staff controls for them.
    expect(await customer.getByRole('button', { name: 'Close', exact: true }).count()).toBe(0)
    expect(await customer.getByText('Internal note', { exact: true }).count()).toBe(0)
    await shoot(customer, { path: join(shotsDir, 'ticket-opened.png'), fullPage: true })
    // Acknowledged by mail.
    const ack = await fromMail(server.dataDir, (m) => (m.includes('We have received your ticket') && m.includes('The tea tin arrived dented') ? m : undefined))
    expect(ack).toContain('user@example.com')

    // Staff find it in the Supports list and answer it at the spec's thread address.
    await signIn(staff, 'staff@example.com', 'staff123')
    await staff.goto(`${server.url}/apps/support-management/supports`)
    await expect.poll(() => staff.getByRole('row', { name: /The tea tin arrived dented/ }).count()).toBe(1)
    await staff.getByRole('row', { name: /The tea tin arrived dented/ }).getByRole('link').first().click()
    await staff.waitForURL((url) => url.pathname.startsWith(`/apps/support-managements/ticket-details/${ticketId}`))
    await write(staff, 'Your reply', 'We are sorry! A new tin is on its way today.')
    await staff.getByRole('button', { name: 'Send reply' }).click()
    await expect.poll(() => staff.getByText('We are sorry! A new tin is on its way today.').isVisible()).toBe(true)
    // Answered: processing, with the move as a line of the thread.
    await expect.poll(() => statusOf(staff)).toContain('Processing')
    await expect.poll(() => staff.getByText(/Status changed from Open to Processing/).count()).toBeGreaterThan(0)
    // Staff take it: the assignee's picker lists the employees, and the thread says who has it.
    await choose(staff, 'Assignee', 'staff', /staff/)
    await expect.poll(() => staff.getByText(/Assigned to staff by staff@example\.com/).count()).toBeGreaterThan(0)
    await shoot(staff, { path: join(shotsDir, 'ticket-answered.png'), fullPage: true })
    const mailed = await fromMail(server.dataDir, (m) => (m.includes('A new tin is on its way today.') ? m : undefined))
    expect(mailed).toContain('user@example.com')

    // The user reads the answer and replies.
    await customer.reload()
    await expect.poll(() => customer.getByText('We are sorry! A new tin is on its way today.').isVisible()).toBe(true)
    await write(customer, 'Your reply', 'Thank you, that is kind.')
    await customer.getByRole('button', { name: 'Send reply' }).click()
    await expect.poll(() => customer.getByText('Thank you, that is kind.').isVisible()).toBe(true)

    // Staff close it; the user's next reply reopens it.
    await staff.reload()
    await staff.getByRole('button', { name: 'Close', exact: true }).click()
    await staff.getByRole('dialog').getByRole('button', { name: 'Close', exact: true }).click()
    await expect.poll(() => statusOf(staff)).toContain('Closed')
    await customer.reload()
    await expect.poll(() => customer.getByText('This ticket is closed: your reply reopens it.').isVisible()).toBe(true)
    await write(customer, 'Your reply', 'The new tin is dented too, sadly.')
    await customer.getByRole('button', { name: 'Send reply' }).click()
    await expect.poll(() => statusOf(customer)).toContain('Open')
    await staff.reload()
    await expect.poll(() => staff.getByText(/Status changed from Closed to Open/).count()).toBeGreaterThan(0)
    await shoot(staff, { path: join(shotsDir, 'ticket-reopened.png'), fullPage: true })

    // The customer's reply is in the staff's Inbox; it opens the ticket.
    await staff.goto(`${server.url}/apps/mail`)
    const notice = staff.getByRole('list', { name: 'Inbox' }).getByText(/The customer replied on ticket TK\d+: The tea tin arrived dented/).first()
    await expect.poll(() => notice.isVisible()).toBe(true)
    await shoot(staff, { path: join(shotsDir, 'inbox.png'), fullPage: true })
    // The quick panel: today's figures the staff may see, the unread, their notes.
    await staff.getByRole('button', { name: 'Quick panel' }).click()
    await staff.waitForTimeout(1500)
    await shoot(staff, { path: join(shotsDir, 'quick-panel.png') })
    await expect.poll(() => staff.getByRole('link', { name: /Open tickets/i }).first().isVisible()).toBe(true)
    await staff.keyboard.press('Escape')
    await notice.click()
    await staff.waitForURL((url) => url.pathname.includes(`/${ticketId}`))
  })

  it('fits light and dark, English and Arabic, a desktop and a phone', async () => {
    const storage = await staff.evaluate(() => Object.fromEntries(Object.entries(localStorage)))
    await inEveryLook(browser, storage, async (look, { width, language, mode }) => {
      for (const [name, path] of [
        ['thread', `/apps/support-managements/ticket-details/${ticketId}`],
        ['supports', '/apps/support-management/supports'],
        ['inbox', '/apps/mail'],
      ] as const) {
        await look.goto(`${server.url}${path}`)
        await look.waitForLoadState('networkidle')
        await look.locator(name === 'thread' ? '[data-testid="ticket-facts"]' : name === 'inbox' ? 'main ol' : 'table').first().waitFor()
        expect(await overflowOf(look), `${name} ${width} ${language} ${mode}`).toBeLessThanOrEqual(0)
        await shoot(look, { path: join(shotsDir, `${name}-${width}-${language}-${mode}.png`), fullPage: true })
      }
    })
  })
})
