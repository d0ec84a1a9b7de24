import { useSyncExternalStore } from 'react'
import { session } from '../../auth/session'
import { apiRequest } from '../../engine/api'
import { changeLanguage, currentLanguage, directionOf, onLanguageApplied, type Language } from '../../i18n'
import {
  applySettingsToDocument,
  containerWidthOf,
  defaultSettings,
  modeOf,
  nearestFontScale,
  normalizeSettings,
  paletteOf,
  readStoredSettings,
  resolveShortcuts,
  SETTINGS_EVENT,
  SETTINGS_KEY,
  SETTINGS_SAVE_DEBOUNCE_MS,
  toggledShortcuts,
  type Direction,
  type LayoutStyle,
  type Mode,
  type Settings,
  type ThemeId,
} from './settings'

/**
 * The layout settings store. A change applies at once (the document and every subscribed
 * component) and is saved 300 ms after the last change (spec §4, §9): for a guest in
 * localStorage, for a signed-in user on the server (`POST /api/auth/user/update`) as well,
 * so the choice follows them to other devices. localStorage is the device's copy either way.
 */
export const USER_UPDATE_PATH = '/api/auth/user/update'

let settings: Settings = readStoredSettings()
let lastSaved = JSON.stringify(settings)
let saveTimer: ReturnType<typeof setTimeout> | undefined
const listeners = new Set<() => void>()

function emit(): void {
  for (const listener of listeners) listener()
}

function writeLocal(value: Settings): void {
  try {
    globalThis.localStorage?.setItem(SETTINGS_KEY, JSON.stringify(value))
  } catch {
    // Storage unavailable: the settings last for this page.
  }
}

/** Saves now: the guest's action (local only) or the signed-in user's (server too). */
export async function saveSettings(value: Settings = settings): Promise<void> {
  writeLocal(value)
  if (!session.isLoggedIn()) return
  try {
    await apiRequest(USER_UPDATE_PATH, { method: 'post', json: { settings: value } })
  } catch {
    // Kept on this device; the next change tries the server again.
  }
}

function scheduleSave(): void {
  if (saveTimer) clearTimeout(saveTimer)
  saveTimer = setTimeout(() => {
    saveTimer = undefined
    const serialized = JSON.stringify(settings)
    if (serialized === lastSaved) return
    lastSaved = serialized
    void saveSettings(settings)
  }, SETTINGS_SAVE_DEBOUNCE_MS)
}

function commit(next: Settings, { shouldSave = true } = {}): void {
  if (next === settings) return
  settings = next
  applySettingsToDocument(settings)
  emit()
  if (shouldSave) scheduleSave()
}

export function getSettings(): Settings {
  return settings
}

/** Changes the settings with a function of the current ones; applied now, saved debounced. */
export function updateSettings(change: (current: Settings) => Settings): void {
  commit(normalizeSettings(change(settings)))
}

/**
 * Settings that came from the server with the user, at sign-in and token sign-in: they follow
 * the user from device to device, their language and direction included.
 */
export function applyUserSettings(value: unknown): void {
  const next = normalizeSettings(value)
  lastSaved = JSON.stringify(next)
  writeLocal(next)
  commit(next, { shouldSave: false })
  if (next.language !== null && next.language !== currentLanguage()) void changeLanguage(next.language)
}

globalThis.addEventListener?.(SETTINGS_EVENT, (event) => applyUserSettings((event as CustomEvent<unknown>).detail))

/** Back to the defaults (the menu logout, spec §4). */
export function resetSettings(): void {
  commit(normalizeSettings(undefined))
}

// ---------------------------------------------------------------- the panels' actions

/** A layout brings its own container width (spec §9: 1570 px for layout 1, 1120 px else). */
export function setLayoutStyle(style: LayoutStyle): void {
  updateSettings((s) => ({ ...s, layout: { style, config: { ...s.layout.config, containerWidth: containerWidthOf[style] } } }))
}

export function setConfig<K extends keyof Settings['layout']['config']>(key: K, value: Settings['layout']['config'][K]): void {
  updateSettings((s) => ({ ...s, layout: { ...s.layout, config: { ...s.layout.config, [key]: value } } }))
}

/**
 * Light or dark: the main theme and the toolbar switch to their palettes' other variant (a
 * light toolbar over a dark page is not dark mode); the navbar and footer keep theirs.
 */
export function setMode(mode: Mode): void {
  updateSettings((s) => ({ ...s, theme: { ...s.theme, main: `${paletteOf(s.theme.main)}-${mode}`, toolbar: `${paletteOf(s.theme.toolbar)}-${mode}` } }))
}

export function setSectionTheme(section: keyof Settings['theme'], theme: ThemeId): void {
  updateSettings((s) => ({ ...s, theme: { ...s.theme, [section]: theme } }))
}

/** The default look again (a dark navbar and footer, main and toolbar in the mode now chosen): a way back from any scheme. */
export function setDefaultColours(): void {
  updateSettings((s) => {
    const mode = modeOf(s.theme.main)
    return { ...s, theme: { ...defaultSettings.theme, main: `${paletteOf(defaultSettings.theme.main)}-${mode}`, toolbar: `${paletteOf(defaultSettings.theme.toolbar)}-${mode}` } }
  })
}

/** Whether the colours are the default look, in either mode. */
export const isDefaultColours = (theme: Settings['theme']): boolean =>
  (['main', 'navbar', 'toolbar', 'footer'] as const).every((part) => paletteOf(theme[part]) === paletteOf(defaultSettings.theme[part])) &&
  theme.navbar === defaultSettings.theme.navbar &&
  theme.footer === defaultSettings.theme.footer

/** A colour scheme sets main, navbar, toolbar and footer to the same theme (spec §2). */
export function setColourScheme(theme: ThemeId): void {
  updateSettings((s) => ({ ...s, theme: { main: theme, navbar: theme, toolbar: theme, footer: theme } }))
}

export function setDirection(direction: Direction): void {
  updateSettings((s) => ({ ...s, direction }))
}

export function setFontScale(scale: number): void {
  updateSettings((s) => ({ ...s, fontScale: nearestFontScale(scale) }))
}

/** Pins or unpins an item; the first choice starts from the registry's shortcuts (`registryDefaults`). */
export function toggleShortcut(id: string, registryDefaults: readonly string[] = []): void {
  updateSettings((s) => ({ ...s, shortcuts: toggledShortcuts(resolveShortcuts(s.shortcuts, registryDefaults), id) }))
}

export function currentMode(): Mode {
  return modeOf(settings.theme.main)
}

// ---------------------------------------------------------------- wiring

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useSettings(): Settings {
  return useSyncExternalStore(subscribe, getSettings, getSettings)
}

/** A language chosen: kept in the settings (and so with the user), the direction following it. */
function adoptLanguage(language: Language, options: { shouldSave: boolean }): void {
  commit({ ...settings, language, direction: directionOf(language) }, options)
}

/**
 * Connects the store to the rest of the app once: a language chosen (the toolbar, the login
 * screen) is kept in the settings with its direction — the theme settings panel can still set
 * the other direction, which stays until the language changes; the menu logout resets the
 * settings. Returns the disconnect.
 */
export function connectSettings(): () => void {
  // This device's last choice (made, say, on the login screen) wins over the stored copy;
  // a sign-in then brings the user's own (applyUserSettings).
  const language = currentLanguage()
  if (settings.language !== language) adoptLanguage(language, { shouldSave: settings.language !== null })
  applySettingsToDocument(settings)
  const stopDirection = onLanguageApplied((applied) => {
    if (applied !== settings.language) adoptLanguage(applied, { shouldSave: true })
    // The same language again (a reload, a sign-in): the direction the user set stays.
    else applySettingsToDocument(settings)
  })
  let wasLoggedIn = session.getState().isLoggedIn
  const stopSession = session.subscribe(() => {
    const { isLoggedIn, endReason } = session.getState()
    if (wasLoggedIn && !isLoggedIn && endReason === 'logout') resetSettings()
    wasLoggedIn = isLoggedIn
  })
  return () => {
    stopDirection()
    stopSession()
  }
}

/** Tests: forget pending saves and start again from what storage holds. */
export function reloadSettings(): void {
  if (saveTimer) clearTimeout(saveTimer)
  saveTimer = undefined
  settings = readStoredSettings()
  lastSaved = JSON.stringify(settings)
  applySettingsToDocument(settings)
  emit()
}
