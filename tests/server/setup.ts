import { afterAll } from 'vitest'
import { catalogues } from '../../server/i18n'

/**
 * The server's catalogues as each test file found them, put back when it ends: files add the
 * labels of their throwaway entities (and some take them out again), and the server project
 * runs its files one after another in a worker (no isolation: the app's modules are imported
 * once per worker, not once per file) — a label one file removed must not be missing in the next.
 * In place: i18next reads the very objects (server/i18n.ts).
 */
type Sections = Record<string, Record<string, unknown>>
const languages = catalogues as unknown as Record<string, Sections>
const asFound = structuredClone(languages)

afterAll(() => {
  for (const [language, sections] of Object.entries(languages)) {
    const found = asFound[language]!
    for (const section of Object.keys(sections)) if (!(section in found)) delete sections[section]
    for (const [section, values] of Object.entries(found)) sections[section] = structuredClone(values)
  }
})
