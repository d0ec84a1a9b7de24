/**
 * The part of the layout settings the document needs before the first paint — the main
 * theme, the root font size, the direction — applied from localStorage at start-up. Kept
 * tiny and free of the settings module: the login screen loads it too.
 */
export const SETTINGS_KEY = 'layout_settings'
/** Fired with a signed-in user's settings (from the login answer) for a store already running. */
export const SETTINGS_EVENT = 'user-layout-settings'

export type DocumentSettings = {
  theme: { main: string }
  fontScale: number
  direction: 'ltr' | 'rtl'
  customScrollbars: boolean
}

/** Spec §9: the font size is applied as a percentage of 62.5 % to the root size. */
export const ROOT_FONT_PERCENT = 62.5

export function applySettingsToDocument(settings: DocumentSettings): void {
  const root = globalThis.document?.documentElement
  if (!root) return
  const isDark = settings.theme.main.endsWith('-dark')
  root.dataset.theme = settings.theme.main
  root.classList.toggle('dark', isDark)
  root.style.colorScheme = isDark ? 'dark' : 'light'
  root.style.fontSize = `${+(ROOT_FONT_PERCENT * settings.fontScale).toFixed(4)}%`
  root.dir = settings.direction
  root.classList.toggle('custom-scrollbars', settings.customScrollbars)
}

/** What localStorage holds, checked just enough to be safe (the store checks the rest). */
export function applyStoredSettings(): void {
  let stored: Partial<DocumentSettings> | null = null
  try {
    stored = JSON.parse(globalThis.localStorage?.getItem(SETTINGS_KEY) ?? 'null') as Partial<DocumentSettings> | null
  } catch {
    // Unreadable: the defaults.
  }
  const main = stored?.theme?.main
  const scale = stored?.fontScale
  applySettingsToDocument({
    theme: { main: /^[a-z]+-(light|dark)$/.test(String(main)) ? String(main) : 'default-light' },
    fontScale: Number(scale) >= 0.7 && Number(scale) <= 1.3 ? Number(scale) : 1,
    direction: stored?.direction === 'rtl' ? 'rtl' : 'ltr',
    customScrollbars: stored?.customScrollbars !== false,
  })
}
