import { sql } from 'kysely'
import { natures, normalBalanceOf, type Nature } from '../../../schema/entities/accounting/nature'
import type { Executor, Row } from '../../db/types'
import type { EntityHooks } from '../../engine/hooks'
import { cashBankLedgers } from './posting'

const natureOf = (primaryName: string | null | undefined): Nature | null => {
  const n = primaryName?.toLowerCase()
  return (natures as readonly string[]).includes(n ?? '') ? (n as Nature) : null
}

// Deeper than any real chart; it stops the walk should a cycle ever have been stored.
const MAX_DEPTH = 100

/**
 * The primary group at the root of each row's tree, by row id: one recursive query walks the
 * groups up from the rows' heads. `table` is `group` or `ledger_account` (both hang under a
 * group or a primary group).
 */
export async function rootPrimaryNames(db: Executor, table: 'group' | 'ledger_account', ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const result = await sql<{ id: number; name: string }>`
    with recursive up (start, gid, pid, depth) as (
      select t.id, t.head_group, t.head_primarygroup, 0 from ${sql.table(table)} t where t.id = any(${[...ids]}::bigint[])
      union all
      select up.start, g.head_group, g.head_primarygroup, up.depth + 1
      from up join "group" g on g.id = up.gid
      where up.pid is null and up.depth < ${MAX_DEPTH}
    )
    select up.start as id, p.name from up join primary_group p on p.id = up.pid`.execute(db)
  return new Map(result.rows.map((r) => [Number(r.id), r.name]))
}

function setNature(row: Row, primaryName: string | null | undefined): void {
  const nature = natureOf(primaryName)
  row.nature = nature
  row.normal_balance = nature && normalBalanceOf[nature]
}

/** Fills in the read-only `nature` and `normal_balance` of the rows a caller reads, and a ledger's `is_cash_bank`. */
export const natureHooks = (table: 'group' | 'ledger_account'): EntityHooks => ({
  async afterRead({ db, rows }) {
    const ids = rows.map((r) => Number(r.id))
    const names = await rootPrimaryNames(db, table, ids)
    const cashBank = table === 'ledger_account' ? await cashBankLedgers(db, ids) : undefined
    for (const row of rows) {
      setNature(row, names.get(Number(row.id)))
      if (cashBank) row.is_cash_bank = cashBank.has(Number(row.id))
    }
  },
})

export const primaryGroupNature: EntityHooks = {
  afterRead({ rows }) {
    for (const row of rows) setNature(row, row.name as string)
  },
}
