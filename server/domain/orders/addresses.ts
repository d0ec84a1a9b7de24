import { sql } from 'kysely'
import type { Executor } from '../../db/types'

type Named = { id: number; name: string } | null

/**
 * An order's billing or shipping address as the contract's invoice answers it (api-contract
 * §4.9: `user{first_name,last_name}`, `street_address`, `thana{name}`, `city{name}`,
 * `zip_code`, `phone`, `email`): the newest the order has of that kind, or null.
 */
export type OrderAddress = {
  id: number
  name: string
  email: string | null
  phone: string | null
  street_address: string | null
  zip_code: string | null
  user: { id: number; first_name: string; last_name: string }
  thana: Named
  city: Named
  country: Named
}

export async function addressOf(db: Executor, table: 'billingaddress' | 'shippingaddress', orderId: number): Promise<OrderAddress | null> {
  const found = await sql<OrderAddress>`
    select a.id, a.name, a.email, a.phone, a.street_address, a.zip_code,
      json_build_object('id', u.id, 'first_name', u.first_name, 'last_name', u.last_name) as user,
      case when t.id is null then null else json_build_object('id', t.id, 'name', t.name) end as thana,
      case when c.id is null then null else json_build_object('id', c.id, 'name', c.name) end as city,
      case when k.id is null then null else json_build_object('id', k.id, 'name', k.name) end as country
    from ${sql.id(table)} a join "user" u on u.id = a."user"
    left join thana t on t.id = a.thana left join city c on c.id = a.city left join country k on k.id = a.country
    where a."order" = ${orderId} order by a.id desc limit 1`.execute(db)
  return found.rows[0] ?? null
}
