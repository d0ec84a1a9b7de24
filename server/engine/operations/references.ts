import { sql } from 'kysely'
import type { Entity, Fields, Message } from '../../../schema/kit'
import type { Trx } from '../../db/types'
import { ValidationError } from '../errors'
import { refTarget, type Registry } from '../list-query'
import type { Values } from '../validate'

/** Every reference a record (and each of its lines) holds, checked against its target's table in one query per target. */
export async function checkReferences(trx: Trx, registry: Registry, entity: Entity<string, Fields>, values: Values): Promise<void> {
  const wanted = new Map<string, Array<{ key: string; id: number }>>()
  const collect = (e: Entity<string, Fields>, record: Values, prefix: string) => {
    for (const name of e.fieldNames) {
      const field = e.fields[name]!
      const value = record[name]
      if (field.kind === 'lines' && Array.isArray(value)) {
        value.forEach((line: Values, i) => collect(field.lines!.entity, line, `${prefix}${name}.${i}.`))
        continue
      }
      if (!field.ref || value === undefined || value === null) continue
      const target = refTarget(registry, e, name).name
      const ids = field.kind === 'refs' ? (value as number[]) : [value as number]
      const list = wanted.get(target) ?? []
      for (const rowId of ids) list.push({ key: `${prefix}${name}`, id: rowId })
      wanted.set(target, list)
    }
  }
  collect(entity, values, '')
  const errors: Record<string, Message[]> = {}
  for (const [target, refs] of wanted) {
    // A row in the Trash (EntityConfig.trash) is there, but no new reference may point at it: nothing live points into the Trash.
    const targetEntity = registry.find((e) => e.name === target)
    const hasTrash = targetEntity?.trash !== undefined
    const found = await sql<{ id: number; trashed: boolean }>`select id, ${hasTrash ? sql`deleted_at is not null` : sql`false`} as trashed
      from ${sql.id(target)} where id = any(${[...new Set(refs.map((r) => r.id))]}::bigint[])`.execute(trx)
    const have = new Map(found.rows.map((r) => [Number(r.id), r.trashed]))
    for (const r of refs) {
      const trashed = have.get(r.id)
      if (trashed === undefined) (errors[r.key] ??= []).push({ key: 'validation.ref_missing', params: { value: r.id } })
      else if (trashed) (errors[r.key] ??= []).push({ key: 'validation.ref_trashed', params: { entity: targetEntity!.labelKey, value: r.id } })
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
}
