import { sql } from 'kysely'
import type { Db } from '../../db/types'

/**
 * The donation app's payment methods (api-contract §4.5): bkash, rocket and nogod, added on
 * the start that finds none — admins may then rename or remove them, and a removed one stays
 * removed (they are not rows the system relies on, unlike the chart's).
 */
export const SEEDED_PAYMENT_METHODS = ['bkash', 'rocket', 'nogod'] as const

export async function seedPaymentMethods(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Several servers may start at once against one PostgreSQL: one seeds, the others wait.
    await sql`select pg_advisory_xact_lock(724012)`.execute(trx)
    await sql`insert into payment_method (name, type)
      select name, 'mobile' from unnest(${[...SEEDED_PAYMENT_METHODS]}::text[]) as seed(name)
      where not exists (select 1 from payment_method)`.execute(trx)
  })
}
