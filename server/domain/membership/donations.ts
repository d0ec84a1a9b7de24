import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { utcDay } from '../../../schema/kit/dates'
import type { Row } from '../../db/types'
import { createRow } from '../../engine/service'
import { lockName, type LedgerDeps } from '../accounting/ledgers'
import { userLedger } from './ledgers'
import { receiptOf } from './receipts'

/**
 * Donations (api-contract §4.5): the donor is the user with the donation's e-mail — made,
 * when there is none, with the donation's names and a password nobody knows (they may set one
 * with "forgot password") — and the receipt credits that user's ledger.
 */
async function donorOf(deps: LedgerDeps, row: Row): Promise<number> {
  const email = String(row.email)
  await lockName(deps.trx, `donor:${email.toLowerCase()}`)
  const found = await sql<{ id: number }>`select id from "user" where lower(email) = lower(${email}) order by id limit 1`.execute(deps.trx)
  if (found.rows[0]) return Number(found.rows[0].id)
  const user = deps.registry.find((e) => e.name === 'user')!
  const made = await createRow(
    { db: deps.trx, registry: deps.registry, entity: user, actor: deps.actor, access: 'system', hooks: deps.hooks },
    { email, first_name: row.first_name, last_name: row.last_name, password: randomBytes(24).toString('base64url') },
  )
  return Number(made.id)
}

export const donationReceipt = receiptOf({
  creditLedger: async (deps, row) => userLedger(deps, await donorOf(deps, row)),
  date: (row) => utcDay(row.created_at as Date | string),
})
