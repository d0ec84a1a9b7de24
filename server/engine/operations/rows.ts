import { sql } from 'kysely'
import type { Entity, Fields } from '../../../schema/kit'
import type { Row, Trx } from '../../db/types'
import { diff, MASKED, type Changes } from '../audit'
import { linkTable } from '../list-query'
import type { Values } from '../validate'

/** How a record's values land in its tables: columns, the parent's and its own table, many-to-many links, and what the audit says changed. */

/** The columns of `names` to write: fields without a column, absent values (read-only fields) and blank secrets are left out. */
export function columnsOf(entity: Entity<string, Fields>, values: Values, names: readonly string[]): Values {
  const out: Values = {}
  for (const name of names) {
    const field = entity.fields[name]!
    const v = values[name]
    if (!field.sql || v === undefined || (field.isWriteOnly && v === null)) continue
    out[name] = field.kind === 'json' && v !== null ? JSON.stringify(v) : v
  }
  return out
}

/** Field names by the table that stores them: the parent's first (it holds the id), then the entity's own. */
export function tablesOf(entity: Entity<string, Fields>): Array<{ table: string; names: readonly string[] }> {
  if (!entity.parent) return [{ table: entity.name, names: entity.fieldNames }]
  return [
    { table: entity.parent.name, names: entity.fieldNames.filter((n) => !entity.ownFieldNames.includes(n)) },
    { table: entity.name, names: entity.ownFieldNames },
  ]
}

export async function writeLinks(trx: Trx, entity: Entity<string, Fields>, rowId: number, values: Values, isNew: boolean): Promise<void> {
  for (const name of entity.fieldNames) {
    if (entity.fields[name]!.kind !== 'refs' || values[name] === undefined) continue
    const table = linkTable(entity, name)
    if (!isNew) await sql`delete from ${sql.id(table)} where owner_id = ${rowId}`.execute(trx)
    const ids = (values[name] as number[] | null) ?? []
    if (ids.length > 0) {
      await sql`insert into ${sql.id(table)} (owner_id, target_id) select ${rowId}, unnest(${ids}::bigint[])`.execute(trx)
    }
  }
}

export type LineRow = Row & { id: number }

const withoutLabels = (lines: LineRow[] | undefined) => lines?.map(({ _labels: _, ...line }) => line)

/** The audit entry's changes: readable fields before and after (not a document's lines: they have their own); a written secret only as masked. */
export function auditChanges(entity: Entity<string, Fields>, before: Row | null, after: Row | null, written: Values | null): Changes {
  const readable = entity.fieldNames.filter((n) => !entity.fields[n]!.isWriteOnly && entity.fields[n]!.kind !== 'lines' && entity.fields[n]!.isAudited)
  const changes = diff(before, after, readable)
  // A document's lines are audited one by one; its own entry says that they changed, and how many there are.
  for (const name of entity.linesFieldNames) {
    const [was, is] = [before?.[name] as LineRow[] | undefined, after?.[name] as LineRow[] | undefined]
    if (JSON.stringify(withoutLabels(was)) !== JSON.stringify(withoutLabels(is))) changes[name] = [was ? was.length : null, is ? is.length : null]
  }
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (field.isWriteOnly && !field.isTransient && typeof written?.[name] === 'string') changes[name] = [before ? MASKED : null, MASKED]
  }
  return changes
}
