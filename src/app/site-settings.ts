import { startPaths } from './paths'
import { takeEarlyAnswer } from '../engine/early-answers'
import { currentLanguage } from '../i18n'
/**
 * The page title and favicon from the site's first general setting (spec §1, §3, §7),
 * read once at start-up with plain fetch (the login screen carries no HTTP client). The
 * title falls back to 'No title'; a failed fetch is ignored (the page keeps its own).
 * Signed-in pages put their own name before it (src/shell/useDocumentTitle.ts).
 */
export const SITE_SETTINGS_PATH = startPaths.siteSettings
/** Fired on `window` when the site's title is known. */
export const SITE_TITLE_EVENT = 'site-title'

type SiteSettings = { general_settings?: { title?: string | null; favicon?: string | null }[] }

let siteTitle: string | null = null

/** The site's title, once read (null before). */
export function getSiteTitle(): string | null {
  return siteTitle
}

export async function applySiteSettings(token: string | null): Promise<void> {
  try {
    const response = (await takeEarlyAnswer(SITE_SETTINGS_PATH, token, currentLanguage())?.catch(() => undefined)) ?? (await fetch(`${location.origin}${SITE_SETTINGS_PATH}`, { headers: token ? { Authorization: token } : {} }))
    const first = ((await response.json()) as SiteSettings).general_settings?.[0]
    siteTitle = first?.title || 'No title'
    document.title = siteTitle
    globalThis.dispatchEvent?.(new Event(SITE_TITLE_EVENT))
    if (first?.favicon) document.querySelector<HTMLLinkElement>('link[rel=icon]')!.href = first.favicon
  } catch {
    // Spec §7: the settings fetch failure is ignored.
  }
}
