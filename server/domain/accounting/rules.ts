import { sql } from 'kysely'
import type { Executor } from '../../db/types'
import { ValidationError } from '../../engine/errors'
import type { EntityHooks } from '../../engine/hooks'

/** Whether `groupId` is `headId` or one of its ancestors (found by walking up from `headId`). */
async function isAncestorOrSelf(db: Executor, groupId: number, headId: number): Promise<boolean> {
  const result = await sql<{ found: boolean }>`
    with recursive up (id, depth) as (
      select ${headId}::bigint, 0
      union all
      select g.head_group, up.depth + 1 from up join "group" g on g.id = up.id
      where g.head_group is not null and up.depth < 100
    )
    select exists (select 1 from up where id = ${groupId}) as found`.execute(db)
  return result.rows[0]?.found === true
}

/**
 * A group cannot sit under itself or under one of its own descendants: the tree would lose
 * its root, and with it the nature of every account below. Judged in the write's transaction
 * with the row locked, against the stored tree.
 */
export const groupRules: EntityHooks = {
  async beforeWrite({ trx, action, before, values }) {
    if (action !== 'update' || !before || !values) return
    const head = values.head_group
    if (typeof head !== 'number') return
    if (await isAncestorOrSelf(trx, Number(before.id), head)) {
      throw new ValidationError({ head_group: [{ key: 'validation.group_cycle', params: { label: 'field.head_group' } }] })
    }
  },
}
