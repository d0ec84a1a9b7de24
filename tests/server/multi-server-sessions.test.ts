import { sql } from 'kysely'
import { expect, it } from 'vitest'
import type { Reply } from './helpers/app'
import { describeOnTwoServers, type Server, type TwoServers } from './helpers/two-servers'

/**
 * Stateless servers (issue 26): the end of a session, and a change of what a user may do,
 * made on server A is honoured by server B at the next request — no window in which B's
 * cached principal still lets the old token in (server/auth/principal.ts: the stamp every
 * such write moves, read by each request). Each test first uses the token on B, so that B
 * holds the principal in its cache when A makes the change.
 */
const LOGIN = '/user/api/v1/user/login/'
const USERS = '/user/api/v1/user'
const RENEW = '/api/auth/access-token'
const LOGOUT = '/api/auth/logout'
const COUNTRIES = '/country/api/v1/country/all/'

let sequence = 0
const uniqueEmail = (prefix: string) => `${prefix}${++sequence}x${process.pid}@example.com`
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function signIn(server: Server, email: string, password: string): Promise<string> {
  const res = await server.call({ method: 'POST', url: LOGIN, payload: { email, password }, asAnonymous: true })
  expect(res.status, res.raw).toBe(200)
  return res.body.access as string
}

const renew = (server: Server, token: string): Promise<Reply> => server.call({ method: 'GET', url: RENEW, headers: bearer(token) })

/** A user with a session on each of two devices, both already served by B. */
async function userOnBothServers(s: TwoServers, password = 'first-password') {
  const email = uniqueEmail('roaming')
  const id = await s.createUser({ email, password })
  const phone = await signIn(s.a, email, password)
  const laptop = await signIn(s.b, email, password)
  for (const token of [phone, laptop]) expect((await renew(s.b, token)).status).toBe(200)
  return { id, email, phone, laptop }
}

/** A signed-in user of a new role holding `permissions`, and the role. */
async function memberOf(s: TwoServers, permissions: readonly string[]) {
  const ids = (await sql<{ id: number }>`select id from permission where name = any(${[...permissions]})`.execute(s.a.db)).rows.map((r) => r.id)
  const role = await s.a.call({ method: 'POST', url: '/role/api/v1/role/create/', payload: { name: `roamers ${++sequence} ${process.pid}`, permissions: ids } })
  expect(role.status, role.raw).toBe(201)
  const email = uniqueEmail('member')
  const id = await s.createUser({ email, password: 'member-password' })
  expect((await s.a.call({ method: 'PUT', url: `${USERS}/update/${id}`, payload: { role: role.body.id } })).status).toBe(200)
  const token = await signIn(s.a, email, 'member-password')
  return { id, roleId: role.body.id as number, token, call: (server: Server, url: string) => server.call({ method: 'GET', url, headers: bearer(token) }) }
}

describeOnTwoServers('a session ended or a role changed on one server, on the other at once', (s) => {
  it('a logout on A is refused on B at the next request; the user\'s other session goes on', async () => {
    const { phone, laptop } = await userOnBothServers(s.current)
    const out = await s.current.a.call({ method: 'POST', url: LOGOUT, headers: bearer(phone) })
    expect(out.status, out.raw).toBe(200)
    const refused = await renew(s.current.b, phone)
    expect(refused.status).toBe(401)
    expect(refused.body).toMatchObject({ code: 'token_not_valid' })
    expect((await renew(s.current.b, laptop)).status).toBe(200)
  })

  it('a password change on A ends the other sessions on B at once; the fresh token works on B', async () => {
    const { id, phone, laptop } = await userOnBothServers(s.current)
    const changed = await s.current.a.call({ method: 'PATCH', url: `${USERS}/passwordchange/${id}`, headers: bearer(laptop), payload: { current_password: 'first-password', password: 'second-password', confirm_password: 'second-password' } })
    expect(changed.status, changed.raw).toBe(200)
    expect((await renew(s.current.b, phone)).status).toBe(401)
    expect((await renew(s.current.b, laptop)).status).toBe(401)
    expect((await renew(s.current.b, changed.body.access_token)).status).toBe(200)
  })

  it('an admin\'s reset on A ends every session of the user on B at once', async () => {
    const { id, phone, laptop } = await userOnBothServers(s.current)
    const reset = await s.current.a.call({ method: 'PATCH', url: `${USERS}/passwordchange/${id}`, payload: { password: 'admin-chose', confirm_password: 'admin-chose' } })
    expect(reset.status, reset.raw).toBe(200)
    for (const token of [phone, laptop]) expect((await renew(s.current.b, token)).status).toBe(401)
  })

  it('a user deactivated on A is refused on B at once', async () => {
    const { id, phone } = await userOnBothServers(s.current)
    expect((await s.current.a.call({ method: 'PUT', url: `${USERS}/update/${id}`, payload: { is_active: false } })).status).toBe(200)
    expect((await renew(s.current.b, phone)).status).toBe(401)
  })

  it('a permission taken from a role on A is refused (403) on B at once, and given back, allowed at once', async () => {
    const member = await memberOf(s.current, ['COUNTRY_LIST'])
    expect((await member.call(s.current.b, COUNTRIES)).status).toBe(200)
    const taken = await s.current.a.call({ method: 'PUT', url: `/role/api/v1/role/update/${member.roleId}`, payload: { permissions: [] } })
    expect(taken.status, taken.raw).toBe(200)
    expect((await member.call(s.current.b, COUNTRIES)).status).toBe(403)
    const countryList = (await sql<{ id: number }>`select id from permission where name = 'COUNTRY_LIST'`.execute(s.current.a.db)).rows[0]!.id
    expect((await s.current.a.call({ method: 'PUT', url: `/role/api/v1/role/update/${member.roleId}`, payload: { permissions: [countryList] } })).status).toBe(200)
    expect((await member.call(s.current.b, COUNTRIES)).status).toBe(200)
  })

  it('a user moved to another role on A has that role\'s permissions on B at once', async () => {
    const member = await memberOf(s.current, ['COUNTRY_LIST'])
    const other = await memberOf(s.current, [])
    expect((await member.call(s.current.b, COUNTRIES)).status).toBe(200)
    expect((await s.current.a.call({ method: 'PUT', url: `${USERS}/update/${member.id}`, payload: { role: other.roleId } })).status).toBe(200)
    expect((await member.call(s.current.b, COUNTRIES)).status).toBe(403)
  })
})
