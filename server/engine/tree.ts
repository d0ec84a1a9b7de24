import { sql, type RawBuilder } from 'kysely'
import { storageOf, treeFieldsOf, type AnyField, type Entity, type Fields } from '../../schema/kit'
import type { Executor } from '../db/types'
import { ValidationError } from './errors'
import type { EntityHooks } from './hooks'

/**
 * Trees kept by a reference of an entity to itself (a menu's parent, a group's head group, a
 * category's parent): no row may sit under itself or under one of its own descendants — the
 * tree would lose its root, and every walk down it would never end — and a reference with
 * `maxDepth` keeps the tree that many levels deep (the catalogue's three). Declared on the
 * field (`f.ref(own entity, { maxDepth })`), judged here for every such field in the write's
 * transaction against the stored tree.
 */

// Walks stop here: a stored tree is never this deep, and a walk must end even if one were.
const WALK_LIMIT = 100

/** Where a tree is stored: the table and the column holding a row's parent. */
export type TreeStorage = { readonly table: string; readonly column: string }

/** The storage of an entity's self-reference `field`. */
export function treeStorageOf(entity: Entity<string, Fields>, field: string): TreeStorage {
  return { table: storageOf(entity, field).name, column: field }
}

/** The ids of a row and of every row under it, as a subquery (a category and its sub-categories, for a filter). */
export function subtreeIds(tree: TreeStorage, rootId: number): RawBuilder<unknown> {
  return sql`with recursive down (id) as (
      select ${rootId}::bigint
      union
      select t.id from down join ${sql.table(tree.table)} t on t.${sql.ref(tree.column)} = down.id
    )
    select id from down`
}

/**
 * How many levels there are from the top down to `parentId` (its level: 1 for a root, 0 for
 * no such row), and whether `selfId` is among them (a cycle).
 */
export async function ancestryOf(db: Executor, tree: TreeStorage, parentId: number, selfId: number | null = null): Promise<{ levels: number; isCycle: boolean }> {
  const result = await sql<{ levels: number; is_cycle: boolean | null }>`
    with recursive up (id, parent, n) as (
      select id, ${sql.ref(tree.column)}, 1 from ${sql.table(tree.table)} where id = ${parentId}
      union all
      select t.id, t.${sql.ref(tree.column)}, up.n + 1 from up join ${sql.table(tree.table)} t on t.id = up.parent where up.n < ${WALK_LIMIT}
    )
    select count(*)::int as levels, bool_or(id = ${selfId}::bigint) as is_cycle from up`.execute(db)
  const row = result.rows[0]
  return { levels: Number(row?.levels ?? 0), isCycle: row?.is_cycle === true }
}

/** How many levels a row's own subtree has: 1 for a row without children. */
async function subtreeLevelsOf(db: Executor, tree: TreeStorage, rowId: number): Promise<number> {
  const result = await sql<{ levels: number }>`
    with recursive down (id, n) as (
      select ${rowId}::bigint, 1
      union all
      select t.id, down.n + 1 from down join ${sql.table(tree.table)} t on t.${sql.ref(tree.column)} = down.id where down.n < ${WALK_LIMIT}
    )
    select max(n)::int as levels from down`.execute(db)
  return Number(result.rows[0]?.levels ?? 1)
}

/** Advisory-lock class of tree moves (the other key is the table's hash). */
const TREE_LOCK = 724_013

/**
 * The hook keeping one self-reference a tree. A new row has no descendants, so only its depth
 * is judged; a move is judged for cycles, its depth and its subtree's. Changes of one tree
 * take turns (a lock per table): two moves that are each fine alone (A under B, B under A),
 * or a move and an add under the moved row, cannot together break the tree.
 */
function treeHook(field: string, spec: AnyField): EntityHooks {
  const { maxDepth } = spec
  const refuse = (entity: Entity<string, Fields>, rule: 'tree_cycle' | 'tree_depth' | 'tree_subtree_depth') =>
    new ValidationError({
      [field]: [{ key: spec.messages?.[rule] ?? `validation.${rule}`, params: { label: entity.fieldLabelKey(field), entity: entity.labelKey, ...(maxDepth ? { max: maxDepth } : {}) } }],
    })
  return {
    async beforeWrite({ trx, entity, action, before, values }) {
      if (action === 'delete' || !values) return
      const parent = values[field]
      if (typeof parent !== 'number') return
      const selfId = action === 'update' && before ? Number(before.id) : null
      if (selfId !== null && parent === Number(before?.[field] ?? NaN)) return
      // A new row is a leaf: only a depth limit can refuse it.
      if (selfId === null && !maxDepth) return
      const tree = treeStorageOf(entity, field)
      await sql`select pg_advisory_xact_lock(${TREE_LOCK}, hashtext(${tree.table}))`.execute(trx)
      const { levels, isCycle } = await ancestryOf(trx, tree, parent, selfId)
      if (isCycle) throw refuse(entity, 'tree_cycle')
      if (!maxDepth) return
      if (levels >= maxDepth) throw refuse(entity, 'tree_depth')
      if (selfId !== null && levels + (await subtreeLevelsOf(trx, tree, selfId)) > maxDepth) throw refuse(entity, 'tree_subtree_depth')
    },
  }
}

/** The tree hooks of a registry: one per self-reference. */
export function treeHooks(registry: readonly Entity<string, Fields>[]): Array<readonly [string, EntityHooks]> {
  return registry.flatMap((entity) => treeFieldsOf(entity).map(([name, spec]) => [entity.name, treeHook(name, spec)] as const))
}
