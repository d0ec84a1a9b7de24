import { sql, type RawBuilder } from 'kysely'
import { documentFacts, type Entity, type Fields, type RuleContext } from '../../schema/kit'
import { isIdText } from '../../schema/kit/validators'
import type { Executor } from '../db/types'
import { hooksOf, type HookRegistry } from './hooks'
import { source, type Registry } from './list-query'
import type { Values } from './validate'

/**
 * Facts about referenced rows that the registry's rules read (`Rule.facts`: whether a
 * voucher's ledger holds cash). The server loads every one a record needs before judging it,
 * one query per referenced entity: a column of the row, or a value a domain module works out
 * in SQL (`EntityHooks.facts`, the accounting module's `is_cash_bank`).
 */
export type SqlFact = (alias: string) => RawBuilder<unknown>

/** The SQL of a fact of `target`'s rows: a module's, or the column of that name. */
export function factSql(hooks: HookRegistry | undefined, target: Entity<string, Fields>, name: string): SqlFact | undefined {
  for (const h of hooksOf(hooks, target)) if (h.facts?.[name]) return h.facts[name]
  const field = target.fields[name]
  return field?.sql && !field.isWriteOnly ? (alias) => sql.ref(`${alias}.${name}`) : undefined
}

/** The ids a fact is about: the values of its reference in the record (`items.ledger`: every line's). */
function idsAt(values: Values, path: string): number[] {
  const [first, ...rest] = path.split('.')
  const value = values[first!]
  if (rest.length > 0) return Array.isArray(value) ? value.flatMap((line) => (typeof line === 'object' && line !== null ? idsAt(line as Values, rest.join('.')) : [])) : []
  const id = typeof value === 'string' && isIdText(value.trim()) ? Number(value) : value
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? [id] : []
}

/** The facts a record's rules need, as the rules' context reads them; undefined when they need none. */
export async function factsOf(db: Executor, registry: Registry, hooks: HookRegistry | undefined, shape: Pick<Entity<string, Fields>, 'rules' | 'linesFieldNames' | 'fields'>, values: Values): Promise<RuleContext['fact']> {
  const wanted = documentFacts(shape)
  if (wanted.length === 0) return undefined
  const byTarget = new Map<string, { names: Set<string>; ids: Set<number> }>()
  for (const fact of wanted) {
    const entry = byTarget.get(fact.target) ?? { names: new Set(), ids: new Set() }
    entry.names.add(fact.name)
    for (const id of idsAt(values, fact.field)) entry.ids.add(id)
    byTarget.set(fact.target, entry)
  }
  const known = new Map<string, Map<number, Record<string, unknown>>>()
  for (const [targetName, { names, ids }] of byTarget) {
    const target = registry.find((e) => e.name === targetName)
    if (!target || ids.size === 0) continue
    const columns = [...names].map((name) => {
      const expr = factSql(hooks, target, name)
      if (!expr) throw new Error(`a rule reads the fact '${name}' of '${targetName}', which is neither a column nor a module's fact`)
      return sql`${expr('t')} as ${sql.id(name)}`
    })
    const rows = await sql<Record<string, unknown> & { id: number }>`select t.id, ${sql.join(columns)} from ${source(target)} t where t.id = any(${[...ids]}::bigint[])`.execute(db)
    known.set(targetName, new Map(rows.rows.map((r) => [Number(r.id), r])))
  }
  return (target, id, name) => known.get(target)?.get(Number(id))?.[name]
}
