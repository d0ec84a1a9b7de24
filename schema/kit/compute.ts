import type { Entity, Fields } from './entity'

/**
 * Computed fields (`compute` in the field kit), worked out the same way in the browser's
 * form (shown as one types) and in the server's write layer (stored) or read layer (virtual).
 */
type Values = Record<string, unknown>

/** The record with its stored computed values set: each line's first, then the document's (which may sum them). */
export function withComputed(entity: Entity<string, Fields>, values: Values, which: 'stored' | 'virtual' = 'stored'): Values {
  const out: Values = { ...values }
  for (const name of entity.linesFieldNames) {
    const line = entity.fields[name]!.lines!.entity
    const rows = out[name]
    if (Array.isArray(rows)) out[name] = rows.map((row: Values) => withComputed(line, row, which))
  }
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (!field.compute || field.isVirtual !== (which === 'virtual')) continue
    out[name] = field.compute(out) ?? null
  }
  return out
}

/** Whether the entity (or its lines) has computed fields of that kind. */
export function hasComputed(entity: Entity<string, Fields>, which: 'stored' | 'virtual'): boolean {
  return (
    entity.fieldNames.some((n) => entity.fields[n]!.compute !== undefined && entity.fields[n]!.isVirtual === (which === 'virtual')) ||
    entity.linesFieldNames.some((n) => hasComputed(entity.fields[n]!.lines!.entity, which))
  )
}
