import type { Page } from 'playwright-core'

/**
 * The steps the journeys share, as a person takes them: signing in as the demo admin (the
 * login form comes filled in demo mode), picking an option of a searchable select, saving a
 * form and landing back on its list, running the Ledger Report of one ledger.
 */
export async function signInAsDemoAdmin(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/login`)
  await page.waitForFunction(() => (document.querySelector('input[type=email]') as HTMLInputElement | null)?.value === 'admin@example.com')
  await page.getByRole('button', { name: 'Login' }).click()
  await page.waitForURL(/\/apps\/dashboards\/project$/)
}

export async function choose(page: Page, label: string | RegExp, text: string, option: RegExp): Promise<void> {
  const input = page.getByLabel(label).first()
  await input.click()
  await input.fill(text)
  await page.getByRole('option', { name: option }).first().click()
  // A list of several stays open after a pick and takes the focus back to its input a moment
  // later (to go on typing): closed first, what is typed next goes where it is meant to.
  if (await page.getByRole('listbox').isVisible()) {
    await input.press('Escape')
    await page.getByRole('listbox').waitFor({ state: 'hidden' })
  }
}

/** Saves and goes back to the list (Save itself stays on the saved record). */
export async function saveTo(page: Page, listPath: string): Promise<void> {
  await page.getByRole('button', { name: 'Save & close', exact: true }).click()
  await page.waitForURL((url) => url.pathname === listPath)
}

/** Opens the Ledger Report from the sidebar and runs it for the ledger `text` finds (`cash` → Cash). */
export async function runLedgerReport(page: Page, text: string, ledger: RegExp): Promise<void> {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Ledger Report' }).click()
  await page.waitForURL((url) => url.pathname === '/apps/report-management/ledger-reports')
  await choose(page, /^Ledger/, text, ledger)
  await page.getByRole('button', { name: 'Run' }).click()
}
