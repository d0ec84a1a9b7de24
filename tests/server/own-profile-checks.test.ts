import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { signToken } from '../../server/auth/tokens'
import { JWT_SECRET, describeEachDatabase } from './helpers/app'

const CHECK = '/user/api/v1/user/check_email_when_update/'

describeEachDatabase('uniqueness checks on one’s own profile', (t) => {
  async function userWithRole(email: string, role: string) {
    const id = await t.current.createUser({ email })
    const r = await sql<{ id: number }>`select id from role where name = ${role}`.execute(t.current.db)
    await sql`update "user" set role = ${r.rows[0]!.id} where id = ${id}`.execute(t.current.db)
    return { id, headers: { authorization: `Bearer ${await signToken(JWT_SECRET, id)}` } }
  }

  it('lets a USER-role account check values against its own row, and no one else’s', async () => {
    const me = await userWithRole('own-check@example.com', 'USER')
    const other = await userWithRole('other-check@example.com', 'USER')
    const own = await t.current.call({ method: 'GET', url: `${CHECK}?email=own-check@example.com&user=${me.id}`, headers: me.headers })
    expect(own).toMatchObject({ status: 200, body: { email_exists: false } })
    const taken = await t.current.call({ method: 'GET', url: `${CHECK}?email=other-check@example.com&user=${me.id}`, headers: me.headers })
    expect(taken).toMatchObject({ status: 200, body: { email_exists: true } })
    const forSomeoneElse = await t.current.call({ method: 'GET', url: `${CHECK}?email=x@example.com&user=${other.id}`, headers: me.headers })
    expect(forSomeoneElse.status).toBe(403)
  })
})
