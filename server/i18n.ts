import i18next, { type TFunction } from 'i18next'
import en from '../src/i18n/locales/en/registry.json' with { type: 'json' }
import tr from '../src/i18n/locales/tr/registry.json' with { type: 'json' }
import ar from '../src/i18n/locales/ar/registry.json' with { type: 'json' }
import type { Catalogue } from '../schema/check'
import { addMessageFormats, renderMessage, type Message } from '../schema/kit'

/**
 * The server renders validation messages from the same catalogues as the browser (their
 * `registry` namespace: entity, field, option and validation labels), in the language the
 * client asks for (Accept-Language), English by default.
 */
export const languages = ['en', 'tr', 'ar'] as const
export type Language = (typeof languages)[number]
export const catalogues: Record<Language, Catalogue> = { en, tr, ar }

const instance = i18next.createInstance()
await instance.init({
  lng: 'en',
  fallbackLng: 'en',
  resources: Object.fromEntries(languages.map((l) => [l, { translation: catalogues[l] }])),
  interpolation: { escapeValue: false },
  initAsync: false,
})
addMessageFormats(instance.services.formatter)

const translators = new Map<Language, TFunction>(languages.map((l) => [l, instance.getFixedT(l)]))

export function translator(lang: Language): (key: string, params?: Record<string, string | number>) => string {
  const t = translators.get(lang)!
  return (key, params) => t(key, params ?? {}) as string
}

/** Picks the first supported language of an Accept-Language header. */
export function languageOf(header: string | undefined): Language {
  for (const part of (header ?? '').split(',')) {
    const code = part.split(';')[0]!.trim().slice(0, 2).toLowerCase()
    if ((languages as readonly string[]).includes(code)) return code as Language
  }
  return 'en'
}

/** A message in the language a request asks for (its Accept-Language header). */
export function messageFor(acceptLanguage: string | string[] | undefined, message: Message): string {
  return renderMessage(translator(languageOf(Array.isArray(acceptLanguage) ? acceptLanguage[0] : acceptLanguage)), message)
}
