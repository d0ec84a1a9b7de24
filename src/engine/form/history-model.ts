import { z } from 'zod'
import type { Report } from '../../../schema/kit/report'
import type { AnyEntity } from '../entity-api'

/**
 * A record's history as the server answers it (`GET …/history/{id}`, server/engine/history.ts)
 * and as the History tab groups it: the changes one save made — the record's own entry and
 * its lines' entries, or a document kept one row per line's rows — read as one entry, its
 * lines under it. Pure: the tab renders what these give.
 */
const pair = z.tuple([z.unknown(), z.unknown()])

const entrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.string().nullable(),
  actor_id: z.number().nullable().optional().default(null),
  entity: z.string(),
  entity_id: z.number(),
  part: z.enum(['own', 'line', 'related']).optional(),
  label: z.string().nullable().optional().default(null),
  action: z.string(),
  source: z.string().nullable().optional().default(null),
  batch: z.string().nullable().optional().default(null),
  changes: z.record(z.string(), pair).catch({}),
  labels: z.record(z.string(), pair).optional().default({}),
  masked: z.array(z.string()).optional().default([]),
  line: z
    .object({ field: z.string(), position: z.number().nullable(), from: z.number().optional(), label: z.string().nullable() })
    .nullable()
    .optional()
    .default(null),
})

export const historyPageSchema = z.object({ history: z.array(entrySchema), next: z.number().nullable().optional().default(null) })

export type HistoryEntry = z.infer<typeof entrySchema>
export type HistoryPage = z.infer<typeof historyPageSchema>

/** One save as the tab shows it: the record's entry (none for a document kept one row per line), its lines' entries. */
export type HistoryGroup = { key: number; head: HistoryEntry | null; lines: HistoryEntry[] }

/** Entries of one save: written by one transaction (the same `at`) by the same person. */
const isSameSave = (a: HistoryEntry, b: HistoryEntry) => a.at === b.at && a.actor_id === b.actor_id

/** Whether an entry is of another record (a related row), not the record's own nor its lines'. */
const isOtherRecord = (entry: HistoryEntry) => entry.part === 'related'

/** The group of the same save that a line's entry goes under: the record's own entry, or its lines' group. */
function saveOf(groups: readonly HistoryGroup[], entry: HistoryEntry): HistoryGroup | undefined {
  for (let i = groups.length - 1; i >= 0; i--) {
    const group = groups[i]!
    const sample = group.head ?? group.lines[0]!
    if (!isSameSave(sample, entry)) return undefined
    if (group.head === null || (!isOtherRecord(group.head) && group.head.line === null)) return group
  }
  return undefined
}

export function groupHistory(entries: readonly HistoryEntry[]): HistoryGroup[] {
  const groups: HistoryGroup[] = []
  for (const entry of entries) {
    const save = entry.line ? saveOf(groups, entry) : undefined
    if (save) save.lines.push(entry)
    else groups.push(entry.line ? { key: entry.id, head: null, lines: [entry] } : { key: entry.id, head: entry, lines: [] })
  }
  // A save's lines in their order in the document.
  for (const group of groups) group.lines.sort((a, b) => (a.line?.position ?? Number.MAX_SAFE_INTEGER) - (b.line?.position ?? Number.MAX_SAFE_INTEGER) || a.id - b.id)
  return groups
}

/** What a save of lines alone did: created or deleted when every line says so, else changed. */
export function groupAction(group: HistoryGroup): string {
  if (group.head) return group.head.action
  const actions = new Set(group.lines.map((l) => l.action))
  return actions.size === 1 ? [...actions][0]! : 'update'
}

/**
 * The fields of a document kept one row per line that are its header (a voucher's date and
 * details), written on every row: a save says them once, above its lines.
 */
export function splitRowChanges(entity: AnyEntity, group: HistoryGroup): { header: HistoryEntry | null; lines: HistoryEntry[] } {
  const spec = entity.rowsPerLine
  if (!spec || group.head) return { header: group.head, lines: group.lines }
  const isLineField = (name: string) => (spec.lineFields as readonly string[]).includes(name)
  const first = group.lines[0]!
  const header: HistoryEntry = { ...first, line: null, changes: {}, labels: {}, masked: [] }
  for (const line of group.lines) {
    for (const [name, change] of Object.entries(line.changes)) {
      if (isLineField(name) || name in header.changes) continue
      header.changes[name] = change
      if (line.labels[name]) header.labels[name] = line.labels[name]
      if (line.masked.includes(name)) header.masked.push(name)
    }
  }
  const only = (line: HistoryEntry): HistoryEntry => ({ ...line, changes: Object.fromEntries(Object.entries(line.changes).filter(([name]) => isLineField(name))) })
  return { header, lines: group.lines.map(only) }
}

/** Where a change was made, as the tab names it: a screen of the app (its entity's list or form, a report), else the route or path as it came. */
export type Place = { kind: 'list'; entity: AnyEntity } | { kind: 'form'; entity: AnyEntity; isNew: boolean } | { kind: 'report'; report: Report } | { kind: 'other'; text: string }

const templatePrefix = (path: string) => path.split(/\/[{$]/)[0]!

export function placeOf(source: string, entities: readonly AnyEntity[], reports: readonly Report[]): Place {
  if (!source.startsWith('/')) return { kind: 'other', text: source }
  const path = source.split(/[?#]/)[0]!.replace(/\/+$/, '')
  let best: { place: Place; length: number } | null = null
  const consider = (prefix: string | undefined, place: (rest: string) => Place | null) => {
    if (!prefix) return
    const base = prefix.replace(/\/+$/, '')
    if (path !== base && !path.startsWith(`${base}/`)) return
    const found = place(path.slice(base.length).replace(/^\//, ''))
    if (found && (!best || base.length > best.length)) best = { place: found, length: base.length }
  }
  for (const entity of entities) {
    if (entity.isLine) continue
    const form = (rest: string): Place | null => (rest === '' ? null : { kind: 'form', entity, isNew: rest.split('/')[0] === 'new' })
    const list = (rest: string): Place | null => (rest === '' ? { kind: 'list', entity } : null)
    for (const p of [entity.ui.listPath, ...Object.values(entity.views).map((v) => v.ui.listPath)]) consider(p, list)
    for (const p of [entity.ui.formPath, ...Object.values(entity.views).map((v) => v.ui.formPath), ...entity.ui.formAt.map(templatePrefix)]) consider(p, form)
    consider(entity.ui.alsoAt?.listPath, list)
    consider(entity.ui.alsoAt?.formPath, form)
  }
  for (const report of reports) consider(report.ui.path, () => ({ kind: 'report', report }))
  return (best as { place: Place } | null)?.place ?? { kind: 'other', text: path || source }
}

/** How long ago, in the largest unit that is at least one (seconds under a minute). */
export function relativeParts(at: string, now: number): { value: number; unit: Intl.RelativeTimeFormatUnit } {
  const seconds = Math.round((new Date(at).getTime() - now) / 1000)
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['year', 365 * 24 * 3600],
    ['month', 30 * 24 * 3600],
    ['week', 7 * 24 * 3600],
    ['day', 24 * 3600],
    ['hour', 3600],
    ['minute', 60],
  ]
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return { value: Math.round(seconds / size), unit }
  return { value: seconds, unit: 'second' }
}
