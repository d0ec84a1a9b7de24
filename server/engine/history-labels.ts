import { sql, type RawBuilder } from 'kysely'
import type { Entity, Fields } from '../../schema/kit'
import type { Executor } from '../db/types'
import { source, type Registry } from './list-query'

/**
 * The display names of referenced rows, for a history that stores ids: what a list cell
 * shows for a reference (the target's label field), asked once per target entity for every
 * id a page of history names. A label that is itself a reference (a line named by its
 * product) is followed one step further, as a person would name it.
 */
export type LabelIds = Map<string, Set<number>>
export type Labels = Map<string, Map<number, string>>

/** The most ids asked of one target at once: a page of history names far fewer. */
const MAX_LABEL_IDS = 10_000

/** An id as the audit log keeps it: a number, or its digits. */
export function idOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null
}

export function wantLabel(wanted: LabelIds, target: string, value: unknown): void {
  const id = idOf(value)
  if (id === null) return
  let ids = wanted.get(target)
  if (!ids) wanted.set(target, (ids = new Set()))
  if (ids.size < MAX_LABEL_IDS) ids.add(id)
}

function labelSql(registry: Registry, target: Entity<string, Fields>, alias: string, depth: number): RawBuilder<unknown> {
  const field = target.fields[target.labelField]
  const next = field?.kind === 'ref' && field.ref ? registry.find((e) => e.name === field.ref!.target) : undefined
  const column = sql.ref(`${alias}.${target.labelField}`)
  if (!next || depth >= 1) return sql`${column}::text`
  const inner = `l${depth + 1}`
  return sql`coalesce((select ${labelSql(registry, next, inner, depth + 1)} from ${source(next)} ${sql.raw(inner)} where ${sql.ref(`${inner}.id`)} = ${column}), ${column}::text)`
}

export async function labelsOf(db: Executor, registry: Registry, wanted: LabelIds): Promise<Labels> {
  const out: Labels = new Map()
  for (const [name, ids] of wanted) {
    const target = registry.find((e) => e.name === name)
    if (!target || ids.size === 0 || target.fields[target.labelField]?.sql === undefined) continue
    const r = await sql<{ id: number | string; label: string | null }>`
      select l0.id, ${labelSql(registry, target, 'l0', 0)} as label from ${source(target)} l0 where l0.id = any(${[...ids]}::bigint[])`.execute(db)
    out.set(name, new Map(r.rows.filter((row) => row.label !== null).map((row) => [Number(row.id), row.label!])))
  }
  return out
}

export const labelIn = (labels: Labels, target: string, value: unknown): string | null => {
  const id = idOf(value)
  return id === null ? null : (labels.get(target)?.get(id) ?? null)
}
