import { isLanguage, type Language } from '../../i18n'
import { SETTINGS_KEY } from './boot'

export { applySettingsToDocument, ROOT_FONT_PERCENT, SETTINGS_EVENT, SETTINGS_KEY } from './boot'

/**
 * The layout settings (spec §3 "Layout settings"), their defaults (spec §2: layout 1, dark
 * grey navbar, light toolbar) and the constants of spec §9. Plain data and pure functions:
 * the start-up code applies them before the first paint, the store changes them.
 */
export const layoutStyles = ['layout1', 'layout2', 'layout3'] as const
export type LayoutStyle = (typeof layoutStyles)[number]

export const navbarStyles = ['style-1', 'style-2', 'style-3', 'style-3-dense'] as const
export type NavbarStyle = (typeof navbarStyles)[number]

/** Logical sides: `start` is the left in English and the right in Arabic. */
export type Side = 'start' | 'end'
/** Fixed stays in view while the page scrolls; static scrolls with it. */
export type BarStyle = 'fixed' | 'static'
/** Above: the bar spans the whole width over the navbar; below: it sits beside it. */
export type BarPosition = 'above' | 'below'
export type Mode = 'light' | 'dark'
export type Direction = 'ltr' | 'rtl'

export const palettes = ['default', 'teal', 'emerald', 'sky', 'amber', 'orange', 'rose', 'pink', 'purple', 'zinc'] as const
export type Palette = (typeof palettes)[number]
/** A colour theme: a palette in its light or dark variant, e.g. `teal-dark`. */
export type ThemeId = `${Palette}-${Mode}`

export type LayoutConfig = {
  navbar: { display: boolean; style: NavbarStyle; position: Side; folded: boolean }
  toolbar: { display: boolean; style: BarStyle; position: BarPosition }
  footer: { display: boolean; style: BarStyle; position: BarPosition }
  leftSidePanel: { display: boolean }
  rightSidePanel: { display: boolean }
  mode: Mode
  /** Pixels; the content never grows wider (spec §9). */
  containerWidth: number
}

export type Settings = {
  layout: { style: LayoutStyle; config: LayoutConfig }
  theme: { main: ThemeId; navbar: ThemeId; toolbar: ThemeId; footer: ThemeId }
  customScrollbars: boolean
  /**
   * The interface language the user chose, kept with their settings so that it follows them
   * to every device at sign-in; null until they choose (the device's language stays).
   */
  language: Language | null
  /** Follows the language; the theme panel may set the other one, until the language changes. */
  direction: Direction
  /** Root font size as a share of 62.5 % (spec §9): 0.7 to 1.3. */
  fontScale: number
  /**
   * Navigation item ids (menu ids) pinned in the shortcuts menu; null until the user pins or
   * unpins one: the registry's shortcuts then (`nav.shortcut`), which the signed-in shell
   * knows and the login screen, which carries no registry, does not.
   */
  shortcuts: string[] | null
}

/** Spec §9. */
export const SETTINGS_SAVE_DEBOUNCE_MS = 300
export const SUBMENU_HOVER_DEBOUNCE_MS = 150
export const FONT_SCALES = [0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3] as const
export const NAVBAR_WIDTH = 280
export const NAVBAR_FOLDED_WIDTH = 64
export const NAVBAR_PANEL_STYLE_WIDTH = 120
export const NAVBAR_PANEL_WIDTH = 280
export const containerWidthOf: Record<LayoutStyle, number> = { layout1: 1570, layout2: 1120, layout3: 1120 }
export const CONTAINER_WIDTHS = [960, 1120, 1280, 1440, 1570, 1920] as const

export const defaultSettings: Settings = {
  layout: {
    style: 'layout1',
    config: {
      navbar: { display: true, style: 'style-1', position: 'start', folded: false },
      toolbar: { display: true, style: 'fixed', position: 'below' },
      footer: { display: true, style: 'static', position: 'below' },
      leftSidePanel: { display: false },
      rightSidePanel: { display: false },
      mode: 'light',
      containerWidth: containerWidthOf.layout1,
    },
  },
  theme: { main: 'default-light', navbar: 'default-dark', toolbar: 'default-light', footer: 'default-dark' },
  customScrollbars: true,
  language: null,
  direction: 'ltr',
  fontScale: 1,
  shortcuts: null,
}

/**
 * The hand-written default of earlier versions, saved with every user's settings that
 * changed anything: read as not chosen, so those users get the registry's shortcuts too.
 */
const formerDefaultShortcuts = ['dashboards.project', 'city', 'thana', 'branch']

function shortcutsOf(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null
  const ids = value.filter((s): s is string => typeof s === 'string')
  const isFormerDefault = ids.length === formerDefaultShortcuts.length && ids.every((id, i) => id === formerDefaultShortcuts[i])
  return isFormerDefault ? null : ids
}

/** The pinned shortcuts: the user's own, or the registry's until they choose. */
export function resolveShortcuts(chosen: readonly string[] | null, registryDefaults: readonly string[]): readonly string[] {
  return chosen ?? registryDefaults
}

/** The pins after pinning or unpinning one item. */
export function toggledShortcuts(pinned: readonly string[], id: string): string[] {
  return pinned.includes(id) ? pinned.filter((x) => x !== id) : [...pinned, id]
}


const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const oneOf = <T extends string>(list: readonly T[], v: unknown, fallback: T): T => (list.includes(v as T) ? (v as T) : fallback)
const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback)

export function isThemeId(value: unknown): value is ThemeId {
  if (typeof value !== 'string') return false
  const [palette, mode] = value.split(/-(?=light$|dark$)/)
  return (palettes as readonly string[]).includes(palette ?? '') && (mode === 'light' || mode === 'dark')
}

export function paletteOf(theme: ThemeId): Palette {
  return theme.replace(/-(light|dark)$/, '') as Palette
}

export function modeOf(theme: ThemeId): Mode {
  return theme.endsWith('-dark') ? 'dark' : 'light'
}

export function nearestFontScale(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 1
  return FONT_SCALES.reduce((best, s) => (Math.abs(s - value) < Math.abs(best - value) ? s : best), 1)
}

/** Any stored or received value made whole: unknown or missing parts take the default. */
export function normalizeSettings(value: unknown): Settings {
  const d = defaultSettings
  if (!isRecord(value)) return d
  const layout = isRecord(value.layout) ? value.layout : {}
  const config = isRecord(layout.config) ? layout.config : {}
  const part = (name: string): Record<string, unknown> => (isRecord(config[name]) ? config[name] : {})
  const navbar = part('navbar')
  const toolbar = part('toolbar')
  const footer = part('footer')
  const theme = isRecord(value.theme) ? value.theme : {}
  const themeOf = (name: keyof Settings['theme']) => (isThemeId(theme[name]) ? theme[name] : d.theme[name])
  const style = oneOf(layoutStyles, layout.style, d.layout.style)
  const dc = d.layout.config
  return {
    layout: {
      style,
      config: {
        navbar: {
          display: bool(navbar.display, dc.navbar.display),
          style: oneOf(navbarStyles, navbar.style, dc.navbar.style),
          position: oneOf<Side>(['start', 'end'], navbar.position, dc.navbar.position),
          folded: bool(navbar.folded, dc.navbar.folded),
        },
        toolbar: {
          display: bool(toolbar.display, dc.toolbar.display),
          style: oneOf<BarStyle>(['fixed', 'static'], toolbar.style, dc.toolbar.style),
          position: oneOf<BarPosition>(['above', 'below'], toolbar.position, dc.toolbar.position),
        },
        footer: {
          display: bool(footer.display, dc.footer.display),
          style: oneOf<BarStyle>(['fixed', 'static'], footer.style, dc.footer.style),
          position: oneOf<BarPosition>(['above', 'below'], footer.position, dc.footer.position),
        },
        leftSidePanel: { display: bool(part('leftSidePanel').display, dc.leftSidePanel.display) },
        rightSidePanel: { display: bool(part('rightSidePanel').display, dc.rightSidePanel.display) },
        // The mode is the main theme's variant; the two never disagree.
        mode: modeOf(themeOf('main')),
        containerWidth: typeof config.containerWidth === 'number' && config.containerWidth >= 600 ? config.containerWidth : containerWidthOf[style],
      },
    },
    theme: { main: themeOf('main'), navbar: themeOf('navbar'), toolbar: themeOf('toolbar'), footer: themeOf('footer') },
    customScrollbars: bool(value.customScrollbars, d.customScrollbars),
    language: isLanguage(value.language) ? value.language : null,
    direction: oneOf<Direction>(['ltr', 'rtl'], value.direction, d.direction),
    fontScale: nearestFontScale(value.fontScale),
    shortcuts: shortcutsOf(value.shortcuts),
  }
}

export function readStoredSettings(): Settings {
  try {
    const raw = globalThis.localStorage?.getItem(SETTINGS_KEY)
    return raw ? normalizeSettings(JSON.parse(raw)) : defaultSettings
  } catch {
    return defaultSettings
  }
}
