import { existsSync, readFileSync, writeFileSync } from 'node:fs'

/**
 * bench/RESULTS.md holds `npm run bench`'s report (the whole file but the sections below) and
 * the sections of the other benches (`npm run bench:accounting`, one per database;
 * `npm run bench:first-rows`), each between its own markers. Each run rewrites only its own
 * part and keeps the others as they were.
 */
const start = (name: string) => `<!-- ${name}: start -->`
const end = (name: string) => `<!-- ${name}: end -->`
const ANY_SECTION = /<!-- ([a-z -]+(?: \([a-z]+\))?): start -->[\s\S]*?<!-- \1: end -->/g

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '')

/** The sections of a report, in order, and the report without them. */
function split(text: string): { rest: string; sections: Map<string, string> } {
  const sections = new Map<string, string>()
  for (const m of text.matchAll(ANY_SECTION)) sections.set(m[1]!, m[0])
  const rest = text.replace(ANY_SECTION, '').replace(/\n{3,}/g, '\n\n').trimEnd()
  return { rest: rest ? `${rest}\n` : '', sections }
}

const join = (rest: string, sections: Iterable<string>) => [rest.trimEnd(), ...sections].filter(Boolean).join('\n\n') + '\n'

/** Writes the general bench's report, keeping the sections the file already has (at its end). */
export function writeMainResults(path: string, report: string): void {
  writeFileSync(path, join(report, split(read(path)).sections.values()))
}

/** Writes a named section, replacing the one the file has or appending it, and leaves the rest as it is. */
export function writeSection(path: string, name: string, body: string): void {
  const { rest, sections } = split(read(path))
  sections.set(name, `${start(name)}\n${body.trimEnd()}\n${end(name)}`)
  writeFileSync(path, join(rest, sections.values()))
}

/** Writes the accounting section of one database. */
export function writeAccountingSection(path: string, kind: string, body: string): void {
  writeSection(path, `accounting bench (${kind})`, body)
}
