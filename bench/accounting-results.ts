import { existsSync, readFileSync, writeFileSync } from 'node:fs'

/**
 * bench/RESULTS.md holds `npm run bench`'s report (the whole file but the sections below) and
 * `npm run bench:accounting`'s, one section per database between these markers. Each run
 * rewrites only its own part and keeps the others as they were.
 */
const start = (kind: string) => `<!-- accounting bench (${kind}): start -->`
const end = (kind: string) => `<!-- accounting bench (${kind}): end -->`
const ANY_SECTION = /<!-- accounting bench \(([a-z]+)\): start -->[\s\S]*?<!-- accounting bench \(\1\): end -->/g

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '')

/** The accounting sections of a report, in order, and the report without them. */
function split(text: string): { rest: string; sections: Map<string, string> } {
  const sections = new Map<string, string>()
  for (const m of text.matchAll(ANY_SECTION)) sections.set(m[1]!, m[0])
  const rest = text.replace(ANY_SECTION, '').replace(/\n{3,}/g, '\n\n').trimEnd()
  return { rest: rest ? `${rest}\n` : '', sections }
}

const join = (rest: string, sections: Iterable<string>) => [rest.trimEnd(), ...sections].filter(Boolean).join('\n\n') + '\n'

/** Writes the general bench's report, keeping the accounting sections the file already has (at its end). */
export function writeMainResults(path: string, report: string): void {
  writeFileSync(path, join(report, split(read(path)).sections.values()))
}

/** Writes the accounting section of one database, replacing the one the file has or appending it, and leaves the rest as it is. */
export function writeAccountingSection(path: string, kind: string, body: string): void {
  const { rest, sections } = split(read(path))
  sections.set(kind, `${start(kind)}\n${body.trimEnd()}\n${end(kind)}`)
  writeFileSync(path, join(rest, sections.values()))
}
