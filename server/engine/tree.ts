import { sql } from 'kysely'
import { storageOf, type Entity, type Fields } from '../../schema/kit'
import type { Executor } from '../db/types'
import { ValidationError } from './errors'
import type { EntityHooks } from './hooks'

/**
 * Trees kept by a reference of an entity to itself (a menu's parent): no row may sit under
 * itself or under one of its own descendants — the tree would lose its root, and every walk
 * down it would never end. One walk and one hook for any such entity (menus, the chart of
 * accounts' groups); the catalogue's categories judge cycles in the same walk that counts their
 * three levels (server/domain/catalogue/category-tree.ts).
 */

// Walks stop here: a stored tree is never this deep, and a walk must end even if one were.
const WALK_LIMIT = 100

/** Whether `rowId` is `startId` or one of its ancestors, walking up `column` of `table` from `startId`. */
export async function isAncestorOrSelf(db: Executor, tree: { table: string; column: string }, rowId: number, startId: number): Promise<boolean> {
  const result = await sql<{ found: boolean }>`
    with recursive up (id, depth) as (
      select ${startId}::bigint, 0
      union all
      select t.${sql.ref(tree.column)}, up.depth + 1 from up join ${sql.table(tree.table)} t on t.id = up.id
      where t.${sql.ref(tree.column)} is not null and up.depth < ${WALK_LIMIT}
    )
    select exists (select 1 from up where id = ${rowId}) as found`.execute(db)
  return result.rows[0]?.found === true
}

/** Advisory-lock class of tree moves (the other key is the table's hash). */
const TREE_LOCK = 724_013

/**
 * A hook refusing an update that would put the row under itself or one of its descendants,
 * with `message` on the field (param `label`). A new row has no descendants, so only updates
 * are judged. Moves within one tree take turns (a lock per table): two moves that are each
 * fine alone (A under B, B under A) cannot together make a cycle.
 */
export function refuseCycles(field: string, message: `validation.${string}`): EntityHooks {
  return {
    async beforeWrite({ trx, entity, action, before, values }) {
      if (action !== 'update' || !before || !values) return
      const parent = values[field]
      if (typeof parent !== 'number' || parent === before[field]) return
      const table = storageOf(entity as Entity<string, Fields>, field).name
      await sql`select pg_advisory_xact_lock(${TREE_LOCK}, hashtext(${table}))`.execute(trx)
      if (await isAncestorOrSelf(trx, { table, column: field }, Number(before.id), parent)) {
        throw new ValidationError({ [field]: [{ key: message, params: { label: entity.fieldLabelKey(field) } }] })
      }
    },
  }
}
