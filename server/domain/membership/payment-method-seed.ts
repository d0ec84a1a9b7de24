import { sql } from 'kysely'
import type { Db } from '../../db/types'

/**
 * The payment methods (api-contract §4.5, §4.9): the donation app's bkash, rocket and nogod,
 * cash for money given at the desk (issue 20), and the shop's nagad and card (its
 * `/paymentmethod/` is the same list), added on the start that finds none — admins may then
 * rename or remove them, and a removed one stays removed (they are not rows the system relies
 * on, unlike the chart's). The shop's two come on the start that finds neither (a database
 * from before the shop). Each then gets the ledger it is received into (payment-methods.ts).
 */
export const SEEDED_PAYMENT_METHODS = [
  { name: 'cash', type: 'cash' },
  { name: 'bkash', type: 'mobile' },
  { name: 'rocket', type: 'mobile' },
  { name: 'nogod', type: 'mobile' },
  { name: 'nagad', type: 'mobile' },
  { name: 'card', type: 'card' },
] as const

const SHOP_METHODS = ['nagad', 'card']

export async function seedPaymentMethods(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Several servers may start at once against one PostgreSQL: one seeds, the others wait.
    await sql`select pg_advisory_xact_lock(724012)`.execute(trx)
    await sql`insert into payment_method (name, type)
      select name, type from unnest(${SEEDED_PAYMENT_METHODS.map((m) => m.name)}::text[], ${SEEDED_PAYMENT_METHODS.map((m) => m.type)}::text[]) as seed(name, type)
      where not exists (select 1 from payment_method)`.execute(trx)
    const shop = SEEDED_PAYMENT_METHODS.filter((m) => SHOP_METHODS.includes(m.name))
    await sql`insert into payment_method (name, type)
      select name, type from unnest(${shop.map((m) => m.name)}::text[], ${shop.map((m) => m.type)}::text[]) as seed(name, type)
      where not exists (select 1 from payment_method where name = any(${SHOP_METHODS}::text[]))
      on conflict do nothing`.execute(trx)
  })
}
