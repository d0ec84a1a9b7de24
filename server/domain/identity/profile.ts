import { sql } from 'kysely'
import type { Executor } from '../../db/types'
import { rolePermissionsTable } from './access'

/**
 * The signed-in user as login, access-token, register and user/update answer it
 * (api-contract §3.1): every user field but the password, with `role`, `thana`, `city`
 * and `country` as names, the audit users as e-mails, the UI `settings`, and, as an
 * extension the browser filters its navigation with, the role's `permissions` (names;
 * `is_admin` passes every check whatever they are).
 */
export type PublicUser = Record<string, unknown> & { id: number; email: string; role: string | null; permissions: string[] }

export async function publicUser(db: Executor, userId: number): Promise<PublicUser | undefined> {
  const r = await sql<PublicUser>`
    select u.id, u.last_login, u.first_name, u.last_name, u.username, u.email, u.gender, u.primary_phone,
      u.secondary_phone, u.user_type, u.date_of_birth, u.is_active, u.is_admin, r.name as role,
      u.street_address_one, u.street_address_two, th.name as thana, ci.name as city, co.name as country,
      u.postal_code, u.image, u.nid, u.settings,
      array(select p.name from ${sql.id(rolePermissionsTable)} rp join permission p on p.id = rp.target_id
            where rp.owner_id = u.role order by p.name) as permissions,
      u.created_at, u.updated_at, cu.email as created_by, uu.email as updated_by
    from "user" u
      left join role r on r.id = u.role
      left join thana th on th.id = u.thana
      left join city ci on ci.id = u.city
      left join country co on co.id = u.country
      left join "user" cu on cu.id = u.created_by
      left join "user" uu on uu.id = u.updated_by
    where u.id = ${userId}`.execute(db)
  return r.rows[0]
}

export function pick(body: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((n) => Object.hasOwn(body, n)).map((n) => [n, body[n]]))
}

export async function touchLastLogin(db: Executor, userId: number): Promise<void> {
  await sql`update "user" set last_login = now() where id = ${userId}`.execute(db)
}
