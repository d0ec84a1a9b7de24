import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { z } from 'zod'
import { f } from '../../schema/kit'
import { validatorOf } from '../../schema/kit/validators'
import type { Db } from '../db/types'
import { UnauthorizedError } from '../engine/errors'
import { parseWith } from '../engine/validate'
import { verifyPassword } from './passwords'
import { signToken } from './tokens'

const loginSchema = z.object({
  email: validatorOf(f.email({ required: true })),
  password: validatorOf(f.text({ required: true, max: 128 })),
})

/** The user as the login and user endpoints return it: every column but the password. */
export async function publicUser(db: Db, userId: number): Promise<Record<string, unknown> | undefined> {
  const r = await sql<Record<string, unknown>>`
    select u.id, u.last_login, u.first_name, u.last_name, u.username, u.email, u.gender, u.primary_phone,
      u.secondary_phone, u.user_type, u.date_of_birth, u.is_active, u.is_admin, null::text as role,
      u.street_address_one, u.street_address_two, null::text as thana, null::text as city, null::text as country,
      u.postal_code, u.image, u.nid, u.created_at, u.updated_at, cu.email as created_by, uu.email as updated_by
    from "user" u left join "user" cu on cu.id = u.created_by left join "user" uu on uu.id = u.updated_by
    where u.id = ${userId}`.execute(db)
  return r.rows[0]
}

export function registerLogin(app: FastifyInstance, deps: { db: Db; secret: string }): void {
  app.post('/user/api/v1/user/login/', async (request) => {
    const { email, password } = parseWith(loginSchema, request.body, { email: 'field.email', password: 'field.password' })
    const r = await sql<{ id: number; password: string; is_active: boolean }>`
      select id, password, is_active from "user" where lower(email) = ${email}`.execute(deps.db)
    const user = r.rows[0]
    const ok = await verifyPassword(user?.password, password)
    // One answer for an unknown e-mail, a wrong password and an inactive account.
    if (!user || !ok || !user.is_active) throw new UnauthorizedError('No active account found with the given credentials')
    await sql`update "user" set last_login = now() where id = ${user.id}`.execute(deps.db)
    const [access, refresh] = await Promise.all([signToken(deps.secret, user.id, 'access'), signToken(deps.secret, user.id, 'refresh')])
    return { refresh, access, ...(await publicUser(deps.db, user.id)) }
  })
}
