/**
 * The page title and favicon from the site's first general setting (spec §1, §3, §7),
 * read once at start-up with plain fetch (the login screen carries no HTTP client). The
 * title falls back to 'No title'; a failed fetch is ignored (the page keeps its own).
 */
export const SITE_SETTINGS_PATH = '/general_setting/api/v1/general_setting/all/'

type SiteSettings = { general_settings?: { title?: string | null; favicon?: string | null }[] }

export async function applySiteSettings(token: string | null): Promise<void> {
  try {
    const response = await fetch(`${location.origin}${SITE_SETTINGS_PATH}`, { headers: token ? { Authorization: token } : {} })
    const first = ((await response.json()) as SiteSettings).general_settings?.[0]
    document.title = first?.title || 'No title'
    if (first?.favicon) document.querySelector<HTMLLinkElement>('link[rel=icon]')!.href = first.favicon
  } catch {
    // Spec §7: the settings fetch failure is ignored.
  }
}
