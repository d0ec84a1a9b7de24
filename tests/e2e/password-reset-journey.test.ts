import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server-process'
import { launchBrowser } from './support/browser'
import { fromMail } from './support/mail'

/**
 * Forgot password in real Chromium against a real server (issue 9): the login page's
 * "Reset Password" link, the e-mail asked for, the mail the outbox writes under
 * DATA_DIR/mail/ (no SMTP_URL), its link, a new password, signing in with it — and the
 * link spent after use.
 */
let server: RunningServer
let browser: Browser

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** The reset link in the mail to `to`, once the outbox has written it. */
const mailedLink = (to: string): Promise<string> =>
  fromMail(server.dataDir, (mail) =>
    mail.includes(to)
      ? // Quoted-printable may fold long lines with "=\r\n" and encode "=" as "=3D".
        mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=').match(/https?:\/\/\S+\/reset-password\?token=[\w.-]+/)?.[0]
      : undefined,
  )

describe('forgot password', () => {
  it('mails a link from the login page, sets a new password with it, signs in with that, and the link is then spent', async () => {
    const email = 'staff@example.com'
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
    await page.goto(`${server.url}/login`)
    await page.getByRole('link', { name: 'Reset Password' }).click()
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor()
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await page.getByRole('status').or(page.getByRole('alert')).first().waitFor()

    const link = new URL(await mailedLink(email))
    await page.goto(`${server.url}${link.pathname}${link.search}`)
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor()
    await page.getByLabel(/^New password/).fill('brand-new-secret-9')
    await page.getByLabel(/^Confirm Password/).fill('brand-new-secret-9')
    await page.getByRole('button', { name: 'Change password' }).click()
    await page.getByRole('link', { name: 'Go to login' }).click()

    await page.waitForURL('**/login')
    const emailInput = page.getByLabel('Email')
    await expect.poll(() => emailInput.inputValue()).toBe('admin@example.com')
    await emailInput.fill(email)
    await page.getByLabel('Password', { exact: true }).fill('brand-new-secret-9')
    await page.getByRole('button', { name: 'Login' }).click()
    await page.waitForURL('**/apps/dashboards/project')

    // Used once, the link is spent.
    const again = await (await browser.newContext()).newPage()
    await again.goto(`${server.url}${link.pathname}${link.search}`)
    await again.getByLabel(/^New password/).fill('another-secret-10')
    await again.getByLabel(/^Confirm Password/).fill('another-secret-10')
    await again.getByRole('button', { name: 'Change password' }).click()
    await again.getByRole('alert').filter({ hasText: /used|no longer|spent/i }).waitFor()
  })
})
