import { sql } from 'kysely'
import { ledgerOfRecord } from '../accounting/auto-ledger'
import { ensureLedger, type LedgerDeps } from '../accounting/ledgers'

/**
 * The ledgers of the people who give (api-contract §5.1), found or made by the accounting
 * core, all under Sundry Creditors: a member's own (`member_ledger`, made with the member), a
 * donor known by e-mail (`user_ledger`), and the one ledger of the donors who give no name.
 */
export async function userLedger(deps: LedgerDeps, userId: number): Promise<number> {
  const person = await sql<{ first_name: string | null; last_name: string | null; email: string }>`select first_name, last_name, email from "user" where id = ${userId}`.execute(deps.trx)
  const p = person.rows[0]
  const name = p ? [p.first_name, p.last_name].filter(Boolean).join(' ') || p.email : ''
  return ensureLedger(deps, { type: 'user_ledger', referenceId: userId, group: 'Sundry Creditors', name })
}

/** A member's ledger (the registry's `ledger` of members, named by their username), made now for one from before. */
export const memberLedger = (deps: LedgerDeps, memberId: number): Promise<number> => ledgerOfRecord(deps, deps.registry.find((e) => e.name === 'member')!, memberId)

/**
 * The ledger every anonymous gift is credited to: one for all of them (`anonymous_donors`,
 * `reference_id` 0 — it stands for no record), made by the first such gift.
 */
export const anonymousDonorsLedger = (deps: LedgerDeps): Promise<number> =>
  ensureLedger(deps, { type: 'anonymous_donors', referenceId: 0, group: 'Sundry Creditors', name: 'Anonymous Donors' })
