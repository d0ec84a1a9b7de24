import { sql } from 'kysely'
import { ensureLedger, type LedgerDeps } from '../accounting/ledgers'

/**
 * The ledgers of the people who give (api-contract §5.1): a donor's own ledger (`user_ledger`
 * under Sundry Creditors), found or made by the accounting core.
 */
export async function userLedger(deps: LedgerDeps, userId: number): Promise<number> {
  const person = await sql<{ first_name: string | null; last_name: string | null; email: string }>`select first_name, last_name, email from "user" where id = ${userId}`.execute(deps.trx)
  const p = person.rows[0]
  const name = p ? [p.first_name, p.last_name].filter(Boolean).join(' ') || p.email : ''
  return ensureLedger(deps, { type: 'user_ledger', referenceId: userId, group: 'Sundry Creditors', name })
}
