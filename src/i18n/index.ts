import i18next, { type i18n as I18n } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { addMessageFormats } from '../../schema/kit/messages'
import enCore from './locales/en/core.json'

/**
 * i18next with the three interface languages (spec §1). The catalogues are split into
 * namespaces so that a screen loads only the text it shows:
 *
 * - `translation` (files `core.json`): the splash, login, error page and session messages.
 *   English is bundled; it is all the /login route carries.
 * - `shell`: the signed-in layout, toolbar, panels and generic screens.
 * - `registry`: entity, field, option and validation labels — the file the server and the
 *   registry check read too (`server/i18n.ts`).
 *
 * `translation` is the default namespace and the other two are its fallbacks, so a key
 * is written the same (`t('list.new')`) whichever file holds it. The choice of language
 * is kept in localStorage and mirrored on `<html lang dir>`.
 */
export const languages = ['en', 'tr', 'ar'] as const
export type Language = (typeof languages)[number]

export const namespaces = ['translation', 'shell', 'registry'] as const
export type Namespace = (typeof namespaces)[number]

export const LANGUAGE_KEY = 'language'

const rtlLanguages: ReadonlySet<Language> = new Set(['ar'])

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value)
}

export function directionOf(language: Language): 'ltr' | 'rtl' {
  return rtlLanguages.has(language) ? 'rtl' : 'ltr'
}

type Catalogue = { readonly [key: string]: string | Catalogue }
type Loader = () => Promise<{ default: Catalogue }>

// Written out one by one so the bundler makes one small chunk of each.
const loaders: Record<Namespace, Record<Language, Loader>> = {
  translation: {
    en: async () => ({ default: enCore }),
    tr: () => import('./locales/tr/core.json'),
    ar: () => import('./locales/ar/core.json'),
  },
  shell: {
    en: () => import('./locales/en/shell.json'),
    tr: () => import('./locales/tr/shell.json'),
    ar: () => import('./locales/ar/shell.json'),
  },
  registry: {
    en: () => import('./locales/en/registry.json'),
    tr: () => import('./locales/tr/registry.json'),
    ar: () => import('./locales/ar/registry.json'),
  },
}

function storedLanguage(): Language {
  try {
    const value = globalThis.localStorage?.getItem(LANGUAGE_KEY)
    return isLanguage(value) ? value : 'en'
  } catch {
    return 'en'
  }
}

const languageListeners = new Set<(language: Language) => void>()

/**
 * Called whenever the language is applied to the document (its direction with it): the
 * layout settings keep the choice, and may set a direction the user chose over it.
 */
export function onLanguageApplied(listener: (language: Language) => void): () => void {
  languageListeners.add(listener)
  return () => languageListeners.delete(listener)
}

function applyToDocument(language: Language): void {
  const root = globalThis.document?.documentElement
  if (!root) return
  root.lang = language
  root.dir = directionOf(language)
  for (const listener of languageListeners) listener(language)
}

export const i18n: I18n = i18next.createInstance()

/** The namespaces some screen has asked for: a language switch loads them all. */
const wanted = new Set<Namespace>(['translation'])

async function ensureLoaded(language: Language, namespace: Namespace): Promise<void> {
  if (i18n.hasResourceBundle(language, namespace)) return
  const { default: catalogue } = await loaders[namespace][language]()
  i18n.addResourceBundle(language, namespace, catalogue, true, false)
}

/** Loads namespaces in the current language and in English, the fallback. */
export async function loadNamespaces(...list: Namespace[]): Promise<void> {
  for (const namespace of list) wanted.add(namespace)
  const language = currentLanguage()
  await Promise.all(list.flatMap((namespace) => [ensureLoaded('en', namespace), ensureLoaded(language, namespace)]))
}

/** Initialises i18next once; later calls only switch the language. */
export async function initI18n(language: Language = storedLanguage()): Promise<I18n> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: [...languages],
      ns: ['translation'],
      defaultNS: 'translation',
      fallbackNS: ['shell', 'registry'],
      resources: { en: { translation: enCore } },
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { bindI18nStore: 'added' },
    })
    addMessageFormats(i18n.services.formatter)
    i18n.on('languageChanged', (lng) => {
      if (isLanguage(lng)) applyToDocument(lng)
    })
    applyToDocument('en')
  }
  await changeLanguage(language)
  return i18n
}

export async function changeLanguage(language: Language): Promise<void> {
  await Promise.all([...wanted].map((namespace) => ensureLoaded(language, namespace)))
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
