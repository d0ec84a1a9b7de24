import { sql } from 'kysely'
import { storageOf, type Entity, type Fields, type Message } from '../../schema/kit'
import { messageOf } from '../../schema/kit/validators'
import type { Trx } from '../db/types'
import { ValidationError } from './errors'
import { refTarget, type Registry } from './list-query'
import type { Values } from './validate'

/**
 * References that lie within others (`f.ref('thana', { within: { city: 'city' } })`): the
 * police station a record names must be in the district it names. The form's pickers keep
 * to this; a client that does not is told, on the field, which pair disagrees. A pair with
 * one side blank is not judged (a police station without a district chosen). Runs after
 * the references are known to exist, for the record and each of a document's lines.
 */
export async function checkWithin(trx: Trx, registry: Registry, entity: Entity<string, Fields>, values: Values): Promise<void> {
  const errors: Record<string, Message[]> = {}
  const judge = async (e: Entity<string, Fields>, record: Values, prefix: string) => {
    for (const name of e.fieldNames) {
      const field = e.fields[name]!
      const value = record[name]
      if (field.kind === 'lines' && Array.isArray(value)) {
        for (const [i, line] of (value as Values[]).entries()) await judge(field.lines!.entity, line, `${prefix}${name}.${i}.`)
        continue
      }
      if (!field.within || value === null || value === undefined) continue
      const pairs = Object.entries(field.within).filter(([, mine]) => record[mine] !== null && record[mine] !== undefined)
      if (pairs.length === 0) continue
      const target = refTarget(registry, e, name)
      for (const [theirs, mine] of pairs) {
        const table = storageOf(target, theirs).name
        const found = await sql<{ v: string | number | null }>`select ${sql.id(theirs)} as v from ${sql.id(table)} where id = ${value as number}`.execute(trx)
        const stored = found.rows[0]?.v
        if (stored === undefined || Number(stored) === Number(record[mine])) continue
        ;(errors[`${prefix}${name}`] ??= []).push({ key: messageOf(field, 'not_within'), params: { label: e.fieldLabelKey(name), other: e.fieldLabelKey(mine) } })
      }
    }
  }
  await judge(entity, values, '')
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
}
