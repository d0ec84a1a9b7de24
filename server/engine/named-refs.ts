import { sql } from 'kysely'
import { normalizers, type Entity, type Fields } from '../../schema/kit'
import { isIdText } from '../../schema/kit/validators'
import type { Executor } from '../db/types'
import { BusinessError } from './errors'
import { refTarget, type Registry } from './list-query'
import type { Values } from './validate'

/**
 * References a write gives by name (`f.ref(…, { byName: true })`: the contract's clients send
 * a ticket's department as `support`): each text that is not an id is looked up by the target's
 * label, as that field would store it (its normaliser: `Returns Desk` → `returns_desk`), any
 * case. One so named answers its id; none is a 400 `{detail}` naming the entity and the text.
 */
export async function resolveNamedRefs(db: Executor, registry: Registry, entity: Entity<string, Fields>, input: Values): Promise<Values> {
  const named = entity.fieldNames.filter((n) => entity.fields[n]!.byName && typeof input[n] === 'string' && (input[n] as string).trim() !== '' && !isIdText((input[n] as string).trim()))
  if (named.length === 0) return input
  const out = { ...input }
  for (const name of named) {
    const target = refTarget(registry, entity, name)
    const label = target.fields[target.labelField]
    const asked = (input[name] as string).trim().slice(0, 200)
    const stored = label?.normalize ? normalizers[label.normalize](asked) : asked
    const found = await sql<{ id: number }>`select id from ${sql.id(target.name)} where lower(${sql.ref(target.labelField)}) = lower(${stored}) order by id limit 1`.execute(db)
    if (!found.rows[0]) throw new BusinessError({ key: 'detail.no_row_named', params: { entity: target.labelKey, value: asked.slice(0, 100) } })
    out[name] = Number(found.rows[0].id)
  }
  return out
}
