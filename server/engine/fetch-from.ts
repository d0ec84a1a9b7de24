import { sql } from 'kysely'
import { isSet, storageOf, type Entity, type Fields } from '../../schema/kit'
import { rowIdValueOf } from '../../schema/kit/validators'
import type { Trx } from '../db/types'
import type { EntityHooks } from './hooks'
import type { Registry } from './list-query'
import type { Values } from './validate'

/**
 * Values filled from a referenced row (Field.fetchFrom: an order line's price from its
 * product): when a write leaves the field out and names the row, the server reads the value
 * from it before the record is judged — the record's own fields and its lines'.
 */
const fetchedOf = (entity: Entity<string, Fields>) => entity.fieldNames.filter((n) => entity.fields[n]!.fetchFrom !== undefined)

async function fill(trx: Trx, registry: Registry, entity: Entity<string, Fields>, records: readonly Values[]): Promise<void> {
  for (const name of fetchedOf(entity)) {
    const { ref, field } = entity.fields[name]!.fetchFrom!
    const target = registry.find((e) => e.name === entity.fields[ref]?.ref?.target)
    if (!target?.fields[field]) continue
    const wanting = records.filter((r) => r && typeof r === 'object' && !isSet(r[name]) && rowIdValueOf(r[ref]) !== null)
    const ids = [...new Set(wanting.map((r) => rowIdValueOf(r[ref])!))]
    if (ids.length === 0) continue
    const found = await sql<{ id: number; value: unknown }>`
      select id, ${sql.ref(field)} as value from ${sql.id(storageOf(target, field).name)} where id = any(${ids}::bigint[])`.execute(trx)
    const values = new Map(found.rows.map((r) => [Number(r.id), r.value]))
    for (const record of wanting) {
      const value = values.get(rowIdValueOf(record[ref])!)
      if (value !== undefined && value !== null) record[name] = value
    }
  }
}

export function fetchFromHooks(registry: Registry): Array<readonly [string, EntityHooks]> {
  return registry
    .filter((e) => !e.isLine)
    .flatMap((entity) => {
      const lines = entity.linesFieldNames.map((n) => [n, entity.fields[n]!.lines!.entity] as const).filter(([, line]) => fetchedOf(line).length > 0)
      if (fetchedOf(entity).length === 0 && lines.length === 0) return []
      const hooks: EntityHooks = {
        async beforeValidate({ trx, registry: reg, input }) {
          await fill(trx, reg, entity, [input])
          for (const [name, line] of lines) if (Array.isArray(input[name])) await fill(trx, reg, line, input[name] as Values[])
        },
      }
      return [[entity.name, hooks] as const]
    })
}
