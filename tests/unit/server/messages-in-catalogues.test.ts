import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { catalogues } from '../../../server/i18n'

/**
 * Every message the server sends a person comes from the catalogues (issue 8): an error
 * built from a literal sentence would reach an Arabic user in English. Token errors are
 * codes the client acts on, not sentences for people.
 */
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : []
  })

const LITERAL_ERROR = /new (Business|Forbidden|NotFound|Conflict|Unauthorized|TooManyRequests|Validation)Error\(\s*[`'"]/
const LITERAL_DETAIL = /detail:\s*[`'"]/

describe('the server’s words', () => {
  it('builds no error for people from a literal sentence, and sends no literal detail', () => {
    const offenders = files('server').flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ file, line: i + 1, text: line.trim() }))
        .filter(({ text }) => !text.startsWith('//') && !text.startsWith('*') && (LITERAL_ERROR.test(text) || LITERAL_DETAIL.test(text))),
    )
    expect(offenders.map((o) => `${o.file}:${o.line} ${o.text}`)).toEqual([])
  })

  it('has every detail message in every language', () => {
    // Plural forms aside: Arabic has six, English and Turkish two.
    const keys = (lang: keyof typeof catalogues) => [...new Set(Object.keys((catalogues[lang] as Record<string, Record<string, string>>).detail ?? {}).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')))].sort()
    expect(keys('en').length).toBeGreaterThan(30)
    expect(keys('tr')).toEqual(keys('en'))
    expect(keys('ar')).toEqual(keys('en'))
  })
})
