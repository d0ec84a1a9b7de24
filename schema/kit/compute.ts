import type { Entity, Fields } from './entity'
import { multiply, sum, type Amount } from './money'

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

/** Whether a value was given: not null, undefined or empty text. */
export const isSet = (v: unknown): boolean => v !== null && v !== undefined && v !== ''

/** A document's lines as a computed value or a module reads them (none when absent). */
export const linesIn = (record: Readonly<Values>, field: string): ReadonlyArray<Values> => (Array.isArray(record[field]) ? (record[field] as Values[]) : [])

/** A line's total: its unit price times its quantity, to the cent. */
export const lineTotal = (line: Readonly<Values>, price = 'unit_price', quantity = 'quantity'): string => multiply(line[price] as Amount, line[quantity] as Amount)

/** A document's total: its lines' totals summed (each rounded first, as the lines show them). */
export const linesTotal = (record: Readonly<Values>, field: string, price = 'unit_price', quantity = 'quantity'): string => sum(linesIn(record, field).map((line) => lineTotal(line, price, quantity)))
