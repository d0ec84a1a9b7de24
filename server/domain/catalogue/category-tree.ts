import { sql } from 'kysely'
import type { Executor } from '../../db/types'
import { ValidationError } from '../../engine/errors'
import type { EntityHooks } from '../../engine/hooks'

/** Categories go three levels deep (api-contract §4.8): parent, sub, sub-sub. */
export const CATEGORY_LEVELS = 3

// Walks stop here: a stored tree is never this deep, and a walk must end even if one were.
const WALK_LIMIT = 100

/**
 * How many levels there are from the top down to `parentId` (its level: 1 for a parent
 * category, 0 for none stored), and whether `selfId` is among them (a cycle).
 */
export async function ancestryOf(db: Executor, parentId: number, selfId: number | null = null): Promise<{ levels: number; isCycle: boolean }> {
  const result = await sql<{ levels: number; is_cycle: boolean | null }>`
    with recursive up (id, parent, n) as (
      select id, parent, 1 from category where id = ${parentId}
      union all
      select c.id, c.parent, up.n + 1 from up join category c on c.id = up.parent where up.n < ${WALK_LIMIT}
    )
    select count(*)::int as levels, bool_or(id = ${selfId}::bigint) as is_cycle from up`.execute(db)
  const row = result.rows[0]
  return { levels: Number(row?.levels ?? 0), isCycle: row?.is_cycle === true }
}

/** How many levels the category's own subtree has: 1 for a category without sub categories. */
async function subtreeLevelsOf(db: Executor, categoryId: number): Promise<number> {
  const result = await sql<{ levels: number }>`
    with recursive down (id, n) as (
      select ${categoryId}::bigint, 1
      union all
      select c.id, down.n + 1 from down join category c on c.parent = down.id where down.n < ${WALK_LIMIT}
    )
    select max(n)::int as levels from down`.execute(db)
  return Number(result.rows[0]?.levels ?? 1)
}

const refuse = (key: `validation.${string}`) => new ValidationError({ parent: [{ key, params: { label: 'field.parent_category' } }] })

/**
 * The category tree's rules, judged in the write's transaction against the stored tree:
 * - no category sits under itself or one of its own sub categories (the tree would lose its root);
 * - at most three levels: the parent must not already be a sub-sub category, and a category
 *   moved with its sub categories must not push them to a fourth level.
 * Deleting a category deletes its sub categories (`onDelete: 'cascade'`): the engine's cascade,
 * each with its audit entry and its images released; one that other records refer to refuses
 * the whole delete.
 */
export const categoryTreeHooks: EntityHooks = {
  async beforeWrite({ trx, action, before, values }) {
    if (action === 'delete') return
    const parent = values?.parent
    if (typeof parent !== 'number') return
    // Two writes that each keep the limit could break it together (a category moved under a
    // sub category while another is added under it): tree changes take turns.
    await sql`select pg_advisory_xact_lock(hashtext('category_tree'))`.execute(trx)
    const selfId = action === 'update' && before ? Number(before.id) : null
    const { levels, isCycle } = await ancestryOf(trx, parent, selfId)
    if (isCycle) throw refuse('validation.category_cycle')
    if (levels >= CATEGORY_LEVELS) throw refuse('validation.category_too_deep')
    if (selfId !== null && levels + (await subtreeLevelsOf(trx, selfId)) > CATEGORY_LEVELS) throw refuse('validation.category_subtree_too_deep')
  },
}
