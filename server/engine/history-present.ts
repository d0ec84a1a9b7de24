import { sql } from 'kysely'
import { LINE_POSITION, type AnyField, type Entity, type Fields } from '../../schema/kit'
import type { Executor } from '../db/types'
import { MASKED, type Changes } from './audit'
import { labelIn, labelsOf, wantLabel, type LabelIds, type Labels } from './history-labels'
import type { HistoryPart, LineSource } from './history-scope'
import type { Registry } from './list-query'

/**
 * Audit rows as a record's history answers them: secrets said to have changed and nothing
 * more, references with the names of the rows they point at (the log keeps ids), and a line's
 * entry with its place in its document and its name then ("line 2, Cups").
 */
export type HistoryRow = {
  id: number | string
  at: Date | string
  actor: number | string | null
  username: string | null
  entity: string
  entity_id: number | string
  action: string
  changes: unknown
  source: string | null
  batch: string | null
  part: HistoryPart
}

/** A line's entry: which lines field, its place (1 for the first) after the change and before it when it moved, and its name. */
export type HistoryLine = { field: string; position: number | null; from?: number; label: string | null }

export type HistoryEntry = {
  id: number
  at: string
  /** Who: their username (null for the system), and their id. */
  actor: string | null
  actor_id: number | null
  entity: string
  entity_id: number
  /** Whose entry: the record's own, one of its document's lines, or a row of a related list. */
  part: HistoryPart
  /** The row's name, for an entry of another row than the record (a line, a related row). */
  label: string | null
  action: string
  /** Where it was made: the screen's path (`/apps/…`) or the route (`PUT /x/api/v1/x/update/:id`); null when the system made it. */
  source: string | null
  /** The bulk operation it was part of. */
  batch: string | null
  /** `{field: [before, after]}`, a secret's values as `***`. */
  changes: Changes
  /** The names of the rows the changed references point at: `{field: [before, after]}` (lists for many-to-many). */
  labels: Record<string, [unknown, unknown]>
  /** Fields whose values are never shown (secrets): only that they changed. */
  masked: string[]
  line: HistoryLine | null
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const changesOf = (raw: unknown): Changes => {
  const value = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw
  return isRecord(value) ? (value as Changes) : {}
}

const hidden = (v: unknown) => (v === null || v === undefined ? null : MASKED)
const isSecret = (field: AnyField | undefined) => field !== undefined && (field.isWriteOnly || field.kind === 'password')

/** The fields of what a change touched: the entity's, and for an action what it was given. */
function fieldsOf(entity: Entity<string, Fields> | undefined, action: string): { fields: Fields; input: Fields } {
  return { fields: entity?.fields ?? {}, input: entity?.actions[action]?.input ?? {} }
}

function masked(changes: Changes, fields: Fields, input: Fields): { changes: Changes; masked: string[] } {
  const out: Changes = {}
  const names: string[] = []
  for (const [name, pair] of Object.entries(changes)) {
    const [before, after] = Array.isArray(pair) ? pair : [null, pair]
    if (name === '_input' && isRecord(after)) {
      const given = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, isSecret(input[k]) ? hidden(v) : v]))
      out[name] = [before, given]
    } else if (isSecret(fields[name]) || before === MASKED || after === MASKED) {
      out[name] = [hidden(before), hidden(after)]
      names.push(name)
    } else out[name] = [before, after]
  }
  return { changes: out, masked: names }
}

const refTarget = (field: AnyField | undefined) => (field && (field.kind === 'ref' || field.kind === 'refs') ? field.ref?.target : undefined)
const idsIn = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v])

function wantReferences(wanted: LabelIds, changes: Changes, fields: Fields, input: Fields): void {
  for (const [name, [before, after]] of Object.entries(changes)) {
    if (name === '_input' && isRecord(after)) {
      for (const [k, v] of Object.entries(after)) {
        const target = refTarget(input[k])
        if (target) idsIn(v).forEach((x) => wantLabel(wanted, target, x))
      }
      continue
    }
    const target = refTarget(fields[name])
    if (target) [before, after].forEach((v) => idsIn(v).forEach((x) => wantLabel(wanted, target, x)))
  }
}

function referenceLabels(labels: Labels, changes: Changes, fields: Fields, input: Fields): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {}
  const say = (field: AnyField, v: unknown) => {
    const target = refTarget(field)!
    if (v === null || v === undefined) return null
    return field.kind === 'refs' && Array.isArray(v) ? v.map((x) => labelIn(labels, target, x)) : labelIn(labels, target, v)
  }
  for (const [name, [before, after]] of Object.entries(changes)) {
    if (name === '_input' && isRecord(after)) {
      for (const [k, v] of Object.entries(after)) if (refTarget(input[k])) out[`_input.${k}`] = [null, say(input[k]!, v)]
      continue
    }
    const field = fields[name]
    if (refTarget(field)) out[name] = [say(field!, before), say(field!, after)]
  }
  return out
}

type LineFacts = { position: number | null; from?: number; labelValue: unknown }

/**
 * Each line entry's place and name as they were then: the last that the line's entries up to
 * it said (a line's create says both; a move, its new place; a delete, what it was).
 */
async function lineFacts(db: Executor, sources: readonly LineSource[], rows: readonly HistoryRow[]): Promise<Map<number, LineFacts>> {
  const out = new Map<number, LineFacts>()
  for (const source of sources) {
    const mine = rows.filter((r) => r.part === 'line' && r.entity === source.entity)
    if (mine.length === 0) continue
    const ids = [...new Set(mine.map((r) => Number(r.entity_id)))]
    const said = await sql<{ id: number | string; entity_id: number | string; label: unknown; position: unknown }>`
      select a.id, a.entity_id, a.changes -> ${source.labelField} as label, a.changes -> ${LINE_POSITION} as position from audit_log a
      where a.entity = ${source.entity} and a.entity_id = any(${ids}::bigint[]) and a.id <= ${Math.max(...mine.map((r) => Number(r.id)))}
        and (a.changes ? ${source.labelField} or a.changes ? ${LINE_POSITION})
      order by a.id`.execute(db)
    const byLine = new Map<number, typeof said.rows>()
    for (const s of said.rows) byLine.set(Number(s.entity_id), [...(byLine.get(Number(s.entity_id)) ?? []), s])
    for (const row of mine) {
      let label: unknown = null
      let position: number | null = null
      let from: number | undefined
      for (const s of byLine.get(Number(row.entity_id)) ?? []) {
        if (Number(s.id) > Number(row.id)) break
        const l = Array.isArray(s.label) ? s.label : null
        if (l) label = l[1] ?? l[0] ?? label
        const p = Array.isArray(s.position) ? s.position : null
        if (p && typeof p[1] === 'number') {
          position = p[1]
          from = Number(s.id) === Number(row.id) && typeof p[0] === 'number' && p[0] !== p[1] ? p[0] : undefined
        }
      }
      if (source.positions) position = source.positions.get(Number(row.entity_id)) ?? null
      out.set(Number(row.id), { position: position === null ? null : position + 1, ...(from !== undefined ? { from: from + 1 } : {}), labelValue: label })
    }
  }
  return out
}

const iso = (at: Date | string) => (at instanceof Date ? at.toISOString() : new Date(String(at)).toISOString())

export async function presentHistory(db: Executor, registry: Registry, rows: readonly HistoryRow[], sources: readonly LineSource[]): Promise<HistoryEntry[]> {
  const entityOf = new Map(registry.map((e) => [e.name, e]))
  const facts = await lineFacts(db, sources, rows)
  const wanted: LabelIds = new Map()
  const prepared = rows.map((row) => {
    const entity = entityOf.get(row.entity)
    const { fields, input } = fieldsOf(entity, row.action)
    const safe = masked(changesOf(row.changes), fields, input)
    wantReferences(wanted, safe.changes, fields, input)
    const source = row.part === 'line' ? sources.find((s) => s.entity === row.entity) : undefined
    const fact = facts.get(Number(row.id))
    const labelTarget = source ? refTarget(fields[source.labelField]) : undefined
    if (labelTarget && fact) wantLabel(wanted, labelTarget, fact.labelValue)
    if (row.part === 'related') wantLabel(wanted, row.entity, row.entity_id)
    return { row, entity, fields, input, safe, source, fact, labelTarget }
  })
  const labels = await labelsOf(db, registry, wanted)
  return prepared.map(({ row, fields, input, safe, source, fact, labelTarget }) => {
    // A line's place is said by `line`, not as a change of a field.
    const changes = { ...safe.changes }
    if (source && !fields[LINE_POSITION]) delete changes[LINE_POSITION]
    const lineLabel = fact ? (labelTarget ? labelIn(labels, labelTarget, fact.labelValue) : fact.labelValue === null || fact.labelValue === undefined ? null : String(fact.labelValue)) : null
    const line: HistoryLine | null = source ? { field: source.field, position: fact?.position ?? null, ...(fact?.from !== undefined ? { from: fact.from } : {}), label: lineLabel } : null
    return {
      id: Number(row.id),
      at: iso(row.at),
      actor: row.username,
      actor_id: row.actor === null ? null : Number(row.actor),
      entity: row.entity,
      entity_id: Number(row.entity_id),
      part: row.part,
      label: row.part === 'related' ? labelIn(labels, row.entity, row.entity_id) : line ? line.label : null,
      action: row.action,
      source: row.source,
      batch: row.batch,
      changes,
      labels: referenceLabels(labels, safe.changes, fields, input),
      masked: safe.masked,
      line,
    }
  })
}
