import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { signToken } from '../../server/auth/tokens'
import { SET_CREDENTIALS } from '../../server/domain/identity/access'
import { JWT_SECRET, callerWith, describeEachDatabase, type Reply, type TestApp } from './helpers/app'
import { multipart } from './helpers/multipart'
import { createSample } from './helpers/samples'

/**
 * Credentials (issue 19): a password or sign-in e-mail is its user's to keep. Changing another
 * user's needs USER_SET_CREDENTIALS (ADMIN's by default, never STAFF's, whatever employee
 * rights they have), on every route that writes a user; changing one's own password asks for the
 * current one. The uniqueness checks are limited per caller, as registration is per address.
 */
const USERS = '/user/api/v1/user'
const EMPLOYEES = '/employee/api/v1/employee'
const LOGIN = `${USERS}/login/`
const REFUSED = { detail: `Changing another user's password or sign-in e-mail needs the permission [${SET_CREDENTIALS}].` }

let sequence = 0
const unique = (prefix: string) => `${prefix}${++sequence}x${process.pid}`

async function roleId(t: TestApp, name: string): Promise<number> {
  return (await sql<{ id: number }>`select id from role where name = ${name}`.execute(t.db)).rows[0]!.id
}

/** A signed-in user of a built-in role; their requests go through `call`. */
async function signedIn(t: TestApp, role: string, password = 'password123') {
  const email = `${unique(role.toLowerCase())}@example.com`
  const id = await t.createUser({ email, password })
  await sql`update "user" set role = ${await roleId(t, role)} where id = ${id}`.execute(t.db)
  const authorization = `Bearer ${await signToken(JWT_SECRET, id)}`
  const call = (o: Parameters<TestApp['call']>[0]): Promise<Reply> => t.call({ ...o, headers: { authorization, ...(o.headers as Record<string, string>) } })
  return { id, email, call }
}

describeEachDatabase('credentials', (t) => {
  const signIn = (email: string, password: string) => t.current.call({ method: 'POST', url: LOGIN, payload: { email, password }, asAnonymous: true })

  describe("another user's password and sign-in e-mail", () => {
    let staff: Awaited<ReturnType<typeof signedIn>>
    beforeAll(async () => {
      staff = await signedIn(t.current, 'STAFF')
    })

    /** A peer employee, with a role STAFF may manage and a password they sign in with. */
    const peer = async () => {
      const email = `${unique('peer')}@example.com`
      const { id } = await createSample(t.current, registry.employee, { email, password: 'peer-secret-1', confirm_password: 'peer-secret-1', is_admin: false, is_active: true, role: await roleId(t.current, 'USER') })
      return { id, email }
    }

    it('refuses STAFF with employee update rights setting a peer’s password or e-mail, JSON or multipart, with a translated 403; the peer keeps their sign-in', async () => {
      const { id, email } = await peer()
      const url = `${EMPLOYEES}/update/${id}`
      const attempts: Array<Parameters<TestApp['call']>[0]> = [
        { method: 'PUT', url, payload: { password: 'taken-over', confirm_password: 'taken-over' } },
        { method: 'PATCH', url, payload: { email: 'thief@example.com' } },
        { method: 'PUT', url, ...multipart({ password: 'taken-over', confirmPassword: 'taken-over' }) },
        { method: 'PUT', url, ...multipart({ email: 'thief@example.com' }) },
      ]
      for (const attempt of attempts) {
        const res = await staff.call(attempt)
        expect(res.status, res.raw).toBe(403)
        expect(res.body).toEqual(REFUSED)
      }
      const turkish = await staff.call({ ...attempts[0]!, headers: { 'accept-language': 'tr' } })
      expect(turkish.body).toEqual({ detail: `Başka bir kullanıcının parolasını veya giriş e-postasını değiştirmek için [${SET_CREDENTIALS}] yetkisi gerekir.` })
      expect((await signIn('thief@example.com', 'taken-over')).status).toBe(401)
      expect((await signIn(email, 'taken-over')).status).toBe(401)
      expect((await signIn(email, 'peer-secret-1')).status).toBe(200)
    })

    it('lets STAFF still change the peer’s other fields, the e-mail sent back as it is included (as the original client does)', async () => {
      const { id, email } = await peer()
      const json = await staff.call({ method: 'PATCH', url: `${EMPLOYEES}/update/${id}`, payload: { first_name: 'Renamed Peer', email } })
      expect(json.status, json.raw).toBe(200)
      expect(json.body).toMatchObject({ first_name: 'Renamed Peer', email })
      const form = await staff.call({ method: 'PUT', url: `${EMPLOYEES}/update/${id}`, ...multipart({ last_name: 'Multipart', email: email.toUpperCase(), password: '' }) })
      expect(form.status, form.raw).toBe(200)
      expect(form.body.last_name).toBe('Multipart')
      expect((await signIn(email, 'peer-secret-1')).status).toBe(200)
    })

    it('refuses a role with USER_UPDATE but not USER_SET_CREDENTIALS on the user routes, passwordchange/ included; with it, they may', async () => {
      const target = await t.current.createUser({ email: `${unique('target')}@example.com`, password: 'target-secret' })
      const updater = await callerWith(t.current, ['USER_UPDATE', 'USER_DETAILS'])
      const change = { password: 'set-by-another', confirm_password: 'set-by-another' }
      for (const attempt of [
        { method: 'PATCH', url: `${USERS}/passwordchange/${target}`, payload: change },
        { method: 'PATCH', url: `${USERS}/update/${target}`, payload: change },
        { method: 'PUT', url: `${USERS}/update/${target}`, payload: { email: `${unique('moved')}@example.com` } },
      ] as const) {
        const res = await updater(attempt)
        expect(res.status, `${attempt.url} ${res.raw}`).toBe(403)
        expect(res.body).toEqual(REFUSED)
      }
      expect((await updater({ method: 'PATCH', url: `${USERS}/update/${target}`, payload: { first_name: 'Still editable' } })).status).toBe(200)

      const trusted = await callerWith(t.current, ['USER_UPDATE', 'USER_DETAILS', SET_CREDENTIALS])
      const done = await trusted({ method: 'PATCH', url: `${USERS}/passwordchange/${target}`, payload: change })
      expect(done.status, done.raw).toBe(200)
      const email = (await sql<{ email: string }>`select email from "user" where id = ${target}`.execute(t.current.db)).rows[0]!.email
      expect((await signIn(email, 'set-by-another')).status).toBe(200)
    })

    it('seeds the permission to ADMIN and not to STAFF; an ADMIN sets a user’s password as the original client does (passwordchange/{id} {password, confirm_password})', async () => {
      const holders = await sql<{ name: string }>`
        select r.name from role r join role_permissions rp on rp.owner_id = r.id join permission p on p.id = rp.target_id
        where p.name = ${SET_CREDENTIALS} and r.name in ('ADMIN', 'STAFF', 'USER') order by r.name`.execute(t.current.db)
      expect(holders.rows.map((r) => r.name)).toEqual(['ADMIN'])
      const admin = await signedIn(t.current, 'ADMIN')
      const { id, email } = await peer()
      const reset = await admin.call({ method: 'PATCH', url: `${USERS}/passwordchange/${id}`, payload: { password: 'chosen-by-admin', confirm_password: 'chosen-by-admin' } })
      expect(reset.status, reset.raw).toBe(200)
      expect(reset.body).toEqual({ detail: `User Id - ${id}'s password has been changed successfully.` })
      expect((await signIn(email, 'chosen-by-admin')).status).toBe(200)
    })
  })

  describe('one’s own password', () => {
    it('asks for the current password on passwordchange/: missing or wrong is a 400 on current_password, in the request’s language; the right one changes it', async () => {
      const me = await signedIn(t.current, 'USER', 'my-old-secret')
      const url = `${USERS}/passwordchange/${me.id}`
      const change = { password: 'my-new-secret', confirm_password: 'my-new-secret' }
      const missing = await me.call({ method: 'PATCH', url, payload: change })
      expect(missing.status, missing.raw).toBe(400)
      expect(missing.body).toEqual({ current_password: ['Current Password is required'] })
      const wrong = await me.call({ method: 'PATCH', url, payload: { ...change, current_password: 'not-my-secret' } })
      expect(wrong.status).toBe(400)
      expect(wrong.body).toEqual({ current_password: ['Current Password is not correct.'] })
      const arabic = await me.call({ method: 'PATCH', url, payload: { ...change, current_password: 'not-my-secret' }, headers: { 'accept-language': 'ar' } })
      expect(arabic.body).toEqual({ current_password: ['كلمة المرور الحالية غير صحيحة.'] })
      expect((await signIn(me.email, 'my-new-secret')).status).toBe(401)

      const done = await me.call({ method: 'PATCH', url, payload: { ...change, current_password: 'my-old-secret' } })
      expect(done.status, done.raw).toBe(200)
      expect((await signIn(me.email, 'my-new-secret')).status).toBe(200)
    })

    it('asks for it on the employee and user updates too: a staff member’s own employee record, an admin’s own user', async () => {
      const email = `${unique('self')}@example.com`
      const { id } = await createSample(t.current, registry.employee, { email, password: 'self-secret-1', confirm_password: 'self-secret-1', is_admin: false, is_active: true })
      await sql`update "user" set role = ${await roleId(t.current, 'STAFF')} where id = ${id}`.execute(t.current.db)
      const authorization = `Bearer ${await signToken(JWT_SECRET, id)}`
      const url = `${EMPLOYEES}/update/${id}`
      const refused = await t.current.call({ method: 'PATCH', url, headers: { authorization }, payload: { password: 'locked-out', confirm_password: 'locked-out' } })
      expect(refused.status, refused.raw).toBe(400)
      expect(refused.body).toEqual({ current_password: ['Current Password is required'] })
      const wrong = multipart({ password: 'self-secret-2', current_password: 'not-mine' })
      const refusedForm = await t.current.call({ method: 'PUT', url, payload: wrong.payload, headers: { ...wrong.headers, authorization } })
      expect(refusedForm.status, refusedForm.raw).toBe(400)
      expect(refusedForm.body).toEqual({ current_password: ['Current Password is not correct.'] })
      const right = multipart({ password: 'self-secret-2', current_password: 'self-secret-1' })
      const form = await t.current.call({ method: 'PUT', url, payload: right.payload, headers: { ...right.headers, authorization } })
      expect(form.status, form.raw).toBe(200)
      expect((await signIn(email, 'self-secret-2')).status).toBe(200)

      // An admin too: a stolen admin token cannot lock the admin out.
      const admin = await t.current.call({ method: 'PATCH', url: `${USERS}/update/${t.current.adminId}`, payload: { password: 'locked-out', confirm_password: 'locked-out' } })
      expect(admin.status).toBe(400)
      expect(Object.keys(admin.body)).toEqual(['current_password'])
    })
  })

  describe('uniqueness checks', () => {
    it('limits them per caller as registration is: 429 with Retry-After and a translated detail once used up; another caller goes on', async () => {
      const busy = await signedIn(t.current, 'STAFF')
      const check = (who: typeof busy, language = 'en') =>
        who.call({ method: 'GET', url: `${USERS}/check_email_when_create/?email=${unique('free')}%40example.com`, headers: { 'accept-language': language } })
      for (let i = 0; i < 300; i++) {
        const res = await check(busy)
        if (res.status !== 200) expect.fail(`check ${i + 1}: ${res.status} ${res.raw}`)
      }
      const refused = await check(busy, 'tr')
      expect(refused.status).toBe(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect(refused.body).toEqual({ detail: expect.stringMatching(/^Hesabınızdan çok fazla kontrol isteği geldi\. \d+ saniye sonra yeniden deneyin\.$/) })
      // Every check route counts alike.
      expect((await busy.call({ method: 'GET', url: `${USERS}/check_username_when_update/?username=someone&user=${busy.id}` })).status).toBe(429)
      const other = await signedIn(t.current, 'STAFF')
      expect((await check(other)).status).toBe(200)
    })
  })
})
