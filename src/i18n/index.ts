import i18next, { type i18n as I18n } from 'i18next'
import { initReactI18next } from 'react-i18next'
import en from './locales/en.json'

/**
 * i18next with the three interface languages (spec §1). English is bundled as the
 * fallback; Turkish and Arabic are loaded when chosen, so the first screen carries one
 * catalogue. The choice is kept in localStorage and mirrored on `<html lang dir>`.
 */
export const languages = ['en', 'tr', 'ar'] as const
export type Language = (typeof languages)[number]

export const LANGUAGE_KEY = 'language'

const rtlLanguages: ReadonlySet<Language> = new Set(['ar'])

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value)
}

export function directionOf(language: Language): 'ltr' | 'rtl' {
  return rtlLanguages.has(language) ? 'rtl' : 'ltr'
}

type Catalogue = typeof en

const loaders: Record<Language, () => Promise<Catalogue>> = {
  en: async () => en,
  tr: () => import('./locales/tr.json').then((m) => m.default),
  ar: () => import('./locales/ar.json').then((m) => m.default),
}

function storedLanguage(): Language {
  try {
    const value = globalThis.localStorage?.getItem(LANGUAGE_KEY)
    return isLanguage(value) ? value : 'en'
  } catch {
    return 'en'
  }
}

function applyToDocument(language: Language): void {
  const root = globalThis.document?.documentElement
  if (!root) return
  root.lang = language
  root.dir = directionOf(language)
}

export const i18n: I18n = i18next.createInstance()

async function ensureLoaded(language: Language): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation')) return
  i18n.addResourceBundle(language, 'translation', await loaders[language]())
}

/** Initialises i18next once; later calls only switch the language. */
export async function initI18n(language: Language = storedLanguage()): Promise<I18n> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: [...languages],
      resources: { en: { translation: en } },
      interpolation: { escapeValue: false },
      returnNull: false,
    })
    i18n.on('languageChanged', (lng) => {
      if (isLanguage(lng)) applyToDocument(lng)
    })
    applyToDocument('en')
  }
  await changeLanguage(language)
  return i18n
}

export async function changeLanguage(language: Language): Promise<void> {
  await ensureLoaded(language)
  try {
    globalThis.localStorage?.setItem(LANGUAGE_KEY, language)
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  await i18n.changeLanguage(language)
  applyToDocument(language)
}

export function currentLanguage(): Language {
  const lng = i18n.resolvedLanguage ?? i18n.language
  return isLanguage(lng) ? lng : 'en'
}
