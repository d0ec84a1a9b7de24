import type { Browser, Page } from 'playwright-core'

/** One of the ways a screen is looked at: a desktop or a phone, English or Arabic, light or dark. */
export type Look = { width: number; language: 'en' | 'ar'; mode: 'light' | 'dark' }

export const looks: readonly Look[] = [1280, 390].flatMap((width) =>
  (['en', 'ar'] as const).flatMap((language) => (['light', 'dark'] as const).map((mode) => ({ width, language, mode }))),
)

/**
 * Opens a fresh page for each look, signed in as `storage` (a signed-in page's localStorage)
 * with the look's language, direction and theme, and hands it to `visit`; the page is closed
 * after. A screen's journey shoots itself this way in every look it must fit.
 */
export async function inEveryLook(browser: Browser, storage: Record<string, string>, visit: (page: Page, look: Look) => Promise<void>): Promise<void> {
  for (const look of looks) {
    const context = await browser.newContext({ viewport: { width: look.width, height: look.width > 600 ? 900 : 844 }, colorScheme: look.mode })
    const theme = `default-${look.mode}`
    const settings = { theme: { main: theme, navbar: 'default-dark', toolbar: theme, footer: 'default-dark' }, direction: look.language === 'ar' ? 'rtl' : 'ltr' }
    await context.addInitScript((values: Record<string, string>) => {
      for (const [k, v] of Object.entries(values)) localStorage.setItem(k, v)
    }, { ...storage, layout_settings: JSON.stringify(settings), language: look.language })
    try {
      await visit(await context.newPage(), look)
    } finally {
      await context.close()
    }
  }
}

/** How far the page is wider than the screen (0 when a wide table scrolls in its card, as it must). */
export const overflowOf = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)

/**
 * A screenshot for a person to look at (README: look at what you build), taken only when
 * SHOTS_DIR names where to keep them: no check reads them, and a full-page PNG drawn in
 * software costs about a second, 45 of them a CI run's minute.
 */
export async function shoot<O extends { path: string }>(target: { screenshot: (options: O) => Promise<unknown> }, options: O): Promise<void> {
  if (process.env.SHOTS_DIR) await target.screenshot(options)
}
