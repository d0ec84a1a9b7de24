import { sql } from 'kysely'
import type { Db } from '../../db/types'

/**
 * The donation app's payment methods (api-contract §4.5): bkash, rocket and nogod, and cash
 * for money given at the desk (issue 20), added on the start that finds none — admins may then
 * rename or remove them, and a removed one stays removed (they are not rows the system relies
 * on, unlike the chart's). Each then gets the ledger it is received into (payment-methods.ts).
 */
export const SEEDED_PAYMENT_METHODS = [
  { name: 'cash', type: 'cash' },
  { name: 'bkash', type: 'mobile' },
  { name: 'rocket', type: 'mobile' },
  { name: 'nogod', type: 'mobile' },
] as const

export async function seedPaymentMethods(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Several servers may start at once against one PostgreSQL: one seeds, the others wait.
    await sql`select pg_advisory_xact_lock(724012)`.execute(trx)
    await sql`insert into payment_method (name, type)
      select name, type from unnest(${SEEDED_PAYMENT_METHODS.map((m) => m.name)}::text[], ${SEEDED_PAYMENT_METHODS.map((m) => m.type)}::text[]) as seed(name, type)
      where not exists (select 1 from payment_method)`.execute(trx)
  })
}
