import { describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import { checkRegistry, type Catalogue } from '../../schema/check'
import arCore from '../../src/i18n/locales/ar/core.json'
import arRegistry from '../../src/i18n/locales/ar/registry.json'
import arShell from '../../src/i18n/locales/ar/shell.json'
import enCore from '../../src/i18n/locales/en/core.json'
import enRegistry from '../../src/i18n/locales/en/registry.json'
import enShell from '../../src/i18n/locales/en/shell.json'
import trCore from '../../src/i18n/locales/tr/core.json'
import trRegistry from '../../src/i18n/locales/tr/registry.json'
import trShell from '../../src/i18n/locales/tr/shell.json'
import { i18n } from '../../src/i18n'

/**
 * The three catalogues are complete: the same keys in every namespace of every language
 * (plural forms aside: Arabic has six, English and Turkish two), and a key for every label
 * the registry uses.
 */
const catalogues = {
  core: { en: enCore, tr: trCore, ar: arCore },
  shell: { en: enShell, tr: trShell, ar: arShell },
  registry: { en: enRegistry, tr: trRegistry, ar: arRegistry },
} satisfies Record<string, Record<'en' | 'tr' | 'ar', Catalogue>>

const PLURAL = /_(zero|one|two|few|many|other)$/

function keysOf(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`)))
}

const baseKeys = (catalogue: Catalogue) => [...new Set(keysOf(catalogue).map((k) => k.replace(PLURAL, '')))].sort()

describe('catalogues', () => {
  it.each(Object.keys(catalogues) as (keyof typeof catalogues)[])('%s has the same keys in English, Turkish and Arabic', (namespace) => {
    const { en, tr, ar } = catalogues[namespace]
    expect(baseKeys(tr)).toEqual(baseKeys(en))
    expect(baseKeys(ar)).toEqual(baseKeys(en))
  })

  it('has no empty text and translates the interface (not English copied over)', () => {
    for (const namespace of Object.values(catalogues)) {
      for (const catalogue of Object.values(namespace)) for (const key of keysOf(catalogue)) expect(key.split('.').reduce<unknown>((n, p) => (n as Record<string, unknown>)[p], catalogue)).not.toBe('')
      const en = keysOf(namespace.en)
      const copied = (lang: 'tr' | 'ar') =>
        en.filter((key) => {
          const value = (c: Catalogue) => key.split('.').reduce<unknown>((n, p) => (n as Record<string, unknown> | undefined)?.[p], c)
          return value(namespace.en) === value(namespace[lang]) && /[a-z]{4}/.test(String(value(namespace.en)))
        })
      // Arabic shares no sentence with English; Turkish only a handful of international words.
      expect(copied('ar').filter((k) => !k.startsWith('language.'))).toEqual([])
      expect(copied('tr').length).toBeLessThan(8)
    }
  })

  it('names every entity, field, option and validation message of the registry in every language', () => {
    const registry = { en: enRegistry, tr: trRegistry, ar: arRegistry }
    expect(checkRegistry(entities, registry).filter((p) => p.message.includes('translation'))).toEqual([])
  })

  it('reports a registry label without a key', () => {
    const { thana: _dropped, ...rest } = enRegistry.entity
    const problems = checkRegistry(entities, { en: { ...enRegistry, entity: rest } })
    expect(problems.map((p) => p.message)).toContain("missing translation key 'entity.thana.one' in the 'en' catalogue")
  })

  it('resolves shell and registry keys through the default namespace once loaded', async () => {
    const { loadNamespaces } = await import('../../src/i18n')
    await loadNamespaces('shell', 'registry')
    expect(i18n.t('quick_panel.title')).toBe('Quick Panel')
    expect(i18n.t('shortcuts.no_results')).toBe('No results..')
    expect(i18n.t('entity.thana.other')).toBe('Police Stations')
  })
})
