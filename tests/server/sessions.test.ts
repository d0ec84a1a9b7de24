import { SignJWT, decodeJwt } from 'jose'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { signToken } from '../../server/auth/tokens'
import { authSettings, ConfigError } from '../../server/config'
import { JWT_SECRET, describeEachDatabase, type Reply, type TestApp } from './helpers/app'
import { createSample } from './helpers/samples'

/**
 * Sessions that end (issue 9): a password change or a logout ends a user's tokens, a renewal
 * stays within the session's absolute lifetime, a well-signed token with an impossible user
 * id is a 401, the sign-in throttle survives the victim's renewals, registration is limited.
 */
const LOGIN = '/user/api/v1/user/login/'
const USERS = '/user/api/v1/user'
const RENEW = '/api/auth/access-token'
const LOGOUT = '/api/auth/logout'
const REGISTER = '/api/auth/register'
const SEVEN_DAYS = 7 * 24 * 3600

let sequence = 0
const uniqueEmail = (prefix: string) => `${prefix}${++sequence}x${process.pid}@example.com`
const now = () => Math.floor(Date.now() / 1000)
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function signIn(t: TestApp, email: string, password: string): Promise<string> {
  const res = await t.call({ method: 'POST', url: LOGIN, payload: { email, password }, asAnonymous: true })
  expect(res.status, res.raw).toBe(200)
  return res.body.access as string
}

/** A user with two sessions (two devices), each from its own password sign-in. */
async function userWithTwoSessions(t: TestApp, password = 'first-password') {
  const email = uniqueEmail('sessions')
  const id = await t.createUser({ email, password })
  return { id, email, phone: await signIn(t, email, password), laptop: await signIn(t, email, password) }
}

const renew = (t: TestApp, token: string): Promise<Reply> => t.call({ method: 'GET', url: RENEW, headers: bearer(token) })

/** A well-signed access token with whatever claims a test needs. */
const forged = (claims: Record<string, unknown>, exp = now() + 3600) =>
  new SignJWT({ token_type: 'access', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(JWT_SECRET))

describe('SESSION_MAX_AGE_HOURS', () => {
  it('sets the absolute lifetime of a session (7 days by default) and refuses a value that is not a whole number of hours', () => {
    expect(authSettings({}).sessionMaxAgeSeconds).toBe(SEVEN_DAYS)
    expect(authSettings({ SESSION_MAX_AGE_HOURS: '12' }).sessionMaxAgeSeconds).toBe(12 * 3600)
    expect(() => authSettings({ SESSION_MAX_AGE_HOURS: 'a week' })).toThrow(ConfigError)
    expect(() => authSettings({ SESSION_MAX_AGE_HOURS: '0' })).toThrow(/SESSION_MAX_AGE_HOURS/)
  })
})

describeEachDatabase('sessions', (t) => {
  describe('a password change ends the other sessions', () => {
    it('changing one\'s own password ends one\'s other sessions and gives this one a fresh token', async () => {
      const { id, phone, laptop } = await userWithTwoSessions(t.current)
      const changed = await t.current.call({ method: 'PATCH', url: `${USERS}/passwordchange/${id}`, headers: bearer(laptop), payload: { current_password: 'first-password', password: 'second-password', confirm_password: 'second-password' } })
      expect(changed.status, changed.raw).toBe(200)
      expect(changed.body).toEqual({ detail: `User Id - ${id}'s password has been changed successfully.`, access_token: expect.any(String) })
      expect((await renew(t.current, phone)).status).toBe(401)
      expect((await renew(t.current, laptop)).status).toBe(401)
      const goesOn = await renew(t.current, changed.body.access_token)
      expect(goesOn.status, goesOn.raw).toBe(200)
      expect(goesOn.body.user.id).toBe(id)
      // The fresh token belongs to the same session: it began at the laptop's sign-in.
      expect(decodeJwt(changed.body.access_token).auth_time).toBe(decodeJwt(laptop).auth_time)
    })

    it('an admin\'s reset (passwordchange/{id}) ends every session of that user, not the admin\'s', async () => {
      const { id, phone, laptop } = await userWithTwoSessions(t.current)
      const reset = await t.current.call({ method: 'PATCH', url: `${USERS}/passwordchange/${id}`, payload: { password: 'admin-chose', confirm_password: 'admin-chose' } })
      expect(reset.status, reset.raw).toBe(200)
      expect(reset.body).toEqual({ detail: `User Id - ${id}'s password has been changed successfully.` })
      for (const token of [phone, laptop]) {
        const refused = await renew(t.current, token)
        expect(refused.status).toBe(401)
        expect(refused.body).toMatchObject({ code: 'token_not_valid' })
      }
      expect((await t.current.call({ method: 'GET', url: RENEW })).status).toBe(200)
      expect(await signIn(t.current, (await sql<{ email: string }>`select email from "user" where id = ${id}`.execute(t.current.db)).rows[0]!.email, 'admin-chose')).toEqual(expect.any(String))
    })

    it('a password set through the user resource\'s update ends the sessions too; other changes do not', async () => {
      const { id, phone } = await userWithTwoSessions(t.current)
      const renamed = await t.current.call({ method: 'PATCH', url: `${USERS}/update/${id}`, payload: { first_name: 'Renamed' } })
      expect(renamed.status, renamed.raw).toBe(200)
      expect((await renew(t.current, phone)).status).toBe(200)
      const withPassword = await t.current.call({ method: 'PATCH', url: `${USERS}/update/${id}`, payload: { password: 'third-password', confirm_password: 'third-password' } })
      expect(withPassword.status, withPassword.raw).toBe(200)
      expect(withPassword.body).not.toHaveProperty('password')
      expect((await renew(t.current, phone)).status).toBe(401)
    })

    it('an employee\'s new password (an employee is a user) ends their sessions too', async () => {
      const email = uniqueEmail('employee')
      const { id } = await createSample(t.current, registry.employee, { email, password: 'first-password', confirm_password: 'first-password', is_active: true })
      const session = await signIn(t.current, email, 'first-password')
      const base = registry.employee.api.base
      const changed = await t.current.call({ method: 'PATCH', url: `${base}/update/${id}`, payload: { password: 'second-password', confirm_password: 'second-password' } })
      expect(changed.status, changed.raw).toBe(200)
      expect((await renew(t.current, session)).status).toBe(401)
      expect(await signIn(t.current, email, 'second-password')).toEqual(expect.any(String))
    })

    it('keeps the session version out of the audit log and ignores a client that sends one', async () => {
      const { id, phone } = await userWithTwoSessions(t.current)
      const sneaky = await t.current.call({ method: 'PATCH', url: `${USERS}/update/${id}`, payload: { session_version: 41 } })
      expect(sneaky.status, sneaky.raw).toBe(200)
      expect((await renew(t.current, phone)).status).toBe(200)
      await t.current.call({ method: 'PATCH', url: `${USERS}/passwordchange/${id}`, payload: { password: 'fourth-password', confirm_password: 'fourth-password' } })
      const audit = await sql<{ changes: Record<string, unknown> }>`select changes from audit_log where entity = 'user' and entity_id = ${id} order by id desc limit 1`.execute(t.current.db)
      expect(audit.rows[0]!.changes).toEqual({ password: ['***', '***'] })
    })
  })

  describe('renewal within the session\'s lifetime', () => {
    it('renews with a token of the same session that cannot outlive it', async () => {
      const { phone } = await userWithTwoSessions(t.current)
      const renewed = await renew(t.current, phone)
      expect(renewed.status, renewed.raw).toBe(200)
      const before = decodeJwt(phone)
      const after = decodeJwt(renewed.body.access_token)
      expect(after.auth_time).toBe(before.auth_time)
      expect(after.exp).toBeLessThanOrEqual((before.auth_time as number) + SEVEN_DAYS)
      expect(after.jti).not.toBe(before.jti)
    })

    it('refuses to renew a session that began with a password longer ago than its lifetime (401)', async () => {
      const id = await t.current.createUser({ email: uniqueEmail('old') })
      // A token of a session begun eight days ago, itself still unexpired (made yesterday by a renewal).
      const old = await signToken(JWT_SECRET, id, 'access', { signedInAt: now() - 8 * 24 * 3600 })
      const refused = await renew(t.current, old)
      expect(refused.status).toBe(401)
      expect(refused.body).toMatchObject({ code: 'token_not_valid' })
      const young = await signToken(JWT_SECRET, id, 'access', { signedInAt: now() - 6 * 24 * 3600 })
      const renewed = await renew(t.current, young)
      expect(renewed.status, renewed.raw).toBe(200)
      // A day left of the session: the fresh token ends with it, not seven days from now.
      expect(decodeJwt(renewed.body.access_token).exp).toBeLessThanOrEqual(now() - 6 * 24 * 3600 + SEVEN_DAYS)
    })
  })

  describe('logout', () => {
    it('ends the session that signs out on the server, and only it, saying so in the caller\'s language', async () => {
      const { email, phone, laptop } = await userWithTwoSessions(t.current)
      // The laptop's session renewed: its newer token belongs to the same session.
      const renewedLaptop = (await renew(t.current, laptop)).body.access_token as string
      const out = await t.current.call({ method: 'POST', url: LOGOUT, headers: { ...bearer(laptop), 'accept-language': 'tr' } })
      expect(out.status, out.raw).toBe(200)
      expect(out.body).toEqual({ detail: 'Oturumunuz kapatıldı.' })
      expect((await renew(t.current, laptop)).status).toBe(401)
      expect((await renew(t.current, renewedLaptop)).status).toBe(401)
      expect((await t.current.call({ method: 'POST', url: LOGOUT, headers: bearer(laptop) })).status).toBe(401)
      // The phone signed in on its own: it stays signed in.
      expect((await renew(t.current, phone)).status).toBe(200)
      // Signing in again starts a new session.
      expect((await renew(t.current, await signIn(t.current, email, 'first-password'))).status).toBe(200)
    })

    it('ends every session of a token made before sessions were named (no sid)', async () => {
      const { phone, id } = await userWithTwoSessions(t.current)
      const unnamed = await signToken(JWT_SECRET, id, 'access', { version: decodeJwt(phone).ver as number })
      expect((await t.current.call({ method: 'POST', url: LOGOUT, headers: bearer(unnamed) })).status).toBe(200)
      expect((await renew(t.current, phone)).status).toBe(401)
    })

    it('refuses a token whose session name is not one the server makes', async () => {
      const res = await t.current.call({ method: 'GET', url: RENEW, headers: bearer(await forged({ user_id: t.current.adminId, sid: 'x' })) })
      expect(res.status, res.raw).toBe(401)
    })

    it('needs a token', async () => {
      const res = await t.current.call({ method: 'POST', url: LOGOUT, asAnonymous: true })
      expect(res.status).toBe(401)
    })
  })

  describe('tokens with a user id no user can have', () => {
    it.each([
      ['2^63', 2 ** 63],
      ['2^64', 2 ** 64],
      ['2^53 + 2 (not a safe integer)', 2 ** 53 + 2],
      ['a string of digits', '1'],
      ['a fraction', 1.5],
      ['a negative number', -1],
      ['zero', 0],
      ['null', null],
      ['an object', { id: 1 }],
    ])('answers 401, not 500, for user_id %s', async (_what, userId) => {
      const res = await t.current.call({ method: 'GET', url: RENEW, headers: bearer(await forged({ user_id: userId })) })
      expect(res.status, res.raw).toBe(401)
      expect(res.body).toMatchObject({ code: 'token_not_valid', detail: expect.any(String) })
    })

    it('answers 401 for a session version or sign-in time that is not a count', async () => {
      for (const claims of [{ ver: 'x' }, { ver: -1 }, { auth_time: 2 ** 64 }]) {
        const res = await t.current.call({ method: 'GET', url: RENEW, headers: bearer(await forged({ user_id: t.current.adminId, ...claims })) })
        expect(res.status, JSON.stringify(claims)).toBe(401)
      }
    })

    it('still accepts a token made before sessions had versions (no ver, no auth_time)', async () => {
      const res = await t.current.call({ method: 'GET', url: RENEW, headers: bearer(await forged({ user_id: t.current.adminId })) })
      expect(res.status, res.raw).toBe(200)
    })
  })

  describe('the sign-in throttle', () => {
    const attempt = (email: string, password: string, remoteAddress: string) =>
      t.current.app.inject({ method: 'POST', url: LOGIN, payload: { email, password }, remoteAddress })

    it('keeps counting an attacker\'s failures while the real user\'s app renews its session', async () => {
      const email = uniqueEmail('victim')
      await t.current.createUser({ email, password: 'right-password' })
      const session = await signIn(t.current, email, 'right-password')
      for (let i = 0; i < 4; i++) expect((await attempt(email, 'wrong-password', `10.9.0.${i + 1}`)).statusCode).toBe(401)
      expect((await renew(t.current, session)).status).toBe(200)
      expect((await attempt(email, 'wrong-password', '10.9.0.5')).statusCode).toBe(401)
      const locked = await attempt(email, 'right-password', '10.9.0.6')
      expect(locked.statusCode).toBe(429)
      expect(locked.headers['retry-after']).toBeDefined()
    })
  })

  describe('registration', () => {
    it('is limited per address: 429 with Retry-After and a detail in the caller\'s language, other addresses unaffected', async () => {
      const register = (remoteAddress: string, language = 'en') =>
        t.current.app.inject({ method: 'POST', url: REGISTER, payload: { email: 'not-an-email' }, remoteAddress, headers: { 'accept-language': language } })
      for (let i = 0; i < 20; i++) expect((await register('10.8.0.1')).statusCode).toBe(400)
      const refused = await register('10.8.0.1', 'ar')
      expect(refused.statusCode).toBe(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect(refused.json()).toEqual({ detail: expect.stringMatching(/^طلبات تسجيل كثيرة من عنوانك\. حاول مجددًا بعد \d+ ثانية\.$/) })
      expect((await register('10.8.0.1')).json()).toEqual({ detail: expect.stringMatching(/^Too many registrations from your address\. Try again in \d+ seconds\.$/) })
      expect((await register('10.8.0.2')).statusCode).toBe(400)
    })
  })
})
