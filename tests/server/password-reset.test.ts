import { SignJWT } from 'jose'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { passwordTagOf } from '../../server/auth/sessions'
import { signToken } from '../../server/auth/tokens'
import { resetMailsQueued } from '../../server/domain/identity/password-reset'
import { OUTBOX_TABLE } from '../../server/mail/outbox'
import { JWT_SECRET, describeEachDatabase, type TestApp } from './helpers/app'

/**
 * A forgotten password (issue 9): the request answers the same whoever asks, is limited per
 * address and per e-mail, and mails a signed one-hour link; the link sets a new password
 * once, by the user's password rules, and ends every session.
 */
const FORGOT = '/api/auth/forgot-password'
const RESET = '/api/auth/reset-password'
const LOGIN = '/user/api/v1/user/login/'
const RENEW = '/api/auth/access-token'
const SENT = { detail: 'If an account uses this e-mail, a link to reset its password is on its way. It is valid for one hour.' }

let sequence = 0
const uniqueEmail = (prefix: string) => `${prefix}${++sequence}x${process.pid}@example.com`
const now = () => Math.floor(Date.now() / 1000)

type Mail = { recipient: string; subject: string; body_text: string }

async function mailsTo(t: TestApp, email: string): Promise<Mail[]> {
  const r = await sql<Mail>`select recipient, subject, body_text from ${sql.table(OUTBOX_TABLE)} where lower(recipient) = ${email.toLowerCase()} order by id`.execute(t.db)
  return r.rows
}

/** The token of the link in the newest mail to `email`. */
async function linkTokenOf(t: TestApp, email: string): Promise<string> {
  const mails = await mailsTo(t, email)
  const link = /(https?:\/\/\S+\/reset-password\?token=(\S+))/.exec(mails.at(-1)!.body_text)
  expect(link, mails.at(-1)!.body_text).not.toBeNull()
  return decodeURIComponent(link![2]!)
}

describeEachDatabase('forgotten password', (t) => {
  // Every test asks from its own address: the per-address limit is a test of its own.
  let address = 0
  const ask = (email: unknown, options: { language?: string; remoteAddress?: string } = {}) =>
    t.current.app.inject({
      method: 'POST',
      url: FORGOT,
      payload: { email },
      remoteAddress: options.remoteAddress ?? `10.20.${Math.floor(++address / 250)}.${(address % 250) + 1}`,
      headers: options.language ? { 'accept-language': options.language } : {},
    })
  // The mail is queued after the answer: the tests read the outbox once it is.
  const forgot = async (...args: Parameters<typeof ask>) => {
    const answer = await ask(...args)
    await resetMailsQueued()
    return answer
  }
  const reset = (payload: Record<string, unknown>, language?: string) =>
    t.current.call({ method: 'POST', url: RESET, payload, asAnonymous: true, headers: language ? { 'accept-language': language } : {} })
  const signIn = (email: string, password: string) => t.current.call({ method: 'POST', url: LOGIN, payload: { email, password }, asAnonymous: true })

  describe('asking for a link', () => {
    it('answers the same 200 for an account, an unknown e-mail and an inactive account; only the account gets a mail', async () => {
      const email = uniqueEmail('forgetful')
      await t.current.createUser({ email, password: 'old-password' })
      const inactive = uniqueEmail('inactive')
      const inactiveId = await t.current.createUser({ email: inactive })
      await sql`update "user" set is_active = false where id = ${inactiveId}`.execute(t.current.db)
      const unknown = uniqueEmail('nobody')
      const answers = await Promise.all([forgot(email.toUpperCase()), forgot(unknown), forgot(inactive)])
      for (const a of answers) {
        expect(a.statusCode).toBe(200)
        expect(a.json()).toEqual(SENT)
      }
      const mails = await mailsTo(t.current, email)
      expect(mails).toHaveLength(1)
      expect(mails[0]!.subject).toBe('Reset your password')
      expect(mails[0]!.body_text).toContain(email)
      expect(mails[0]!.body_text).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=[\w.-]+$/m)
      expect(await mailsTo(t.current, unknown)).toEqual([])
      expect(await mailsTo(t.current, inactive)).toEqual([])
    })

    it('writes the mail in the user\'s own language, else the request\'s, and answers in the request\'s', async () => {
      const turkish = uniqueEmail('turkish')
      const id = await t.current.createUser({ email: turkish })
      await sql`update "user" set settings = ${JSON.stringify({ language: 'tr' })}::jsonb where id = ${id}`.execute(t.current.db)
      const answer = await forgot(turkish, { language: 'ar' })
      expect(answer.json()).toEqual({ detail: 'إن كان هناك حساب بهذا البريد الإلكتروني، فرابط إعادة تعيين كلمة المرور في الطريق إليه. الرابط صالح لمدة ساعة.' })
      expect((await mailsTo(t.current, turkish))[0]!.subject).toBe('Parolanızı sıfırlayın')

      const arabic = uniqueEmail('arabic')
      await t.current.createUser({ email: arabic })
      await forgot(arabic, { language: 'ar,en;q=0.5' })
      expect((await mailsTo(t.current, arabic))[0]!.subject).toBe('إعادة تعيين كلمة المرور')
    })

    it('answers before the address is looked up, the same for an account as for none: the mail follows the answer', async () => {
      const email = uniqueEmail('timed')
      await t.current.createUser({ email })
      const unknown = uniqueEmail('untimed')
      // With the users' table and the outbox held by another transaction, a request that read the
      // account, or queued its mail, before answering would wait for it: both answer at once, alike.
      const [known, none] = await t.current.db.transaction().execute(async (trx) => {
        await sql`lock table "user", ${sql.table(OUTBOX_TABLE)} in access exclusive mode`.execute(trx)
        return Promise.all([ask(email), ask(unknown)])
      })
      for (const answer of [known, none]) {
        expect(answer.statusCode).toBe(200)
        expect(answer.json()).toEqual(SENT)
      }
      expect(Object.keys(known.headers).sort()).toEqual(Object.keys(none.headers).sort())
      await resetMailsQueued()
      expect(await mailsTo(t.current, email)).toHaveLength(1)
      expect(await mailsTo(t.current, unknown)).toEqual([])
    })

    it('refuses what is not an e-mail with a field map', async () => {
      for (const email of ['not-an-email', '', 42, null]) {
        const res = await forgot(email)
        expect(res.statusCode, String(email)).toBe(400)
        expect(Object.keys(res.json())).toEqual(['email'])
      }
    })

    it('limits requests per e-mail (5 an hour) whatever the address, with 429, Retry-After and a localised detail', async () => {
      const email = uniqueEmail('flooded')
      await t.current.createUser({ email })
      for (let i = 0; i < 5; i++) expect((await forgot(email)).statusCode).toBe(200)
      const refused = await forgot(email, { language: 'tr' })
      expect(refused.statusCode).toBe(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect(refused.json()).toEqual({ detail: expect.stringMatching(/^Çok fazla parola sıfırlama isteği\. \d+ saniye sonra yeniden deneyin\.$/) })
      expect(await mailsTo(t.current, email)).toHaveLength(5)
      // Unknown e-mails are limited alike: a 429 tells nothing about who has an account.
      const unknown = uniqueEmail('ghost')
      for (let i = 0; i < 5; i++) expect((await forgot(unknown)).statusCode).toBe(200)
      expect((await forgot(unknown)).statusCode).toBe(429)
    })

    it('limits requests per address (20 an hour) whatever the e-mail', async () => {
      const remoteAddress = '10.30.0.1'
      for (let i = 0; i < 20; i++) expect((await forgot(uniqueEmail('spray'), { remoteAddress })).statusCode).toBe(200)
      expect((await forgot(uniqueEmail('spray'), { remoteAddress })).statusCode).toBe(429)
      expect((await forgot(uniqueEmail('spray'), { remoteAddress: '10.30.0.2' })).statusCode).toBe(200)
    })
  })

  describe('using the link', () => {
    it('sets the new password once, by the password rules, and ends every session', async () => {
      const email = uniqueEmail('resetter')
      await t.current.createUser({ email, password: 'old-password' })
      const session = (await signIn(email, 'old-password')).body.access as string
      await forgot(email)
      const token = await linkTokenOf(t.current, email)

      const short = await reset({ token, password: 'abc', confirm_password: 'abc' })
      expect(short.status).toBe(400)
      expect(short.body).toEqual({ password: ['Password must be at least 6 characters'] })
      const mismatch = await reset({ token, password: 'new-password', confirm_password: 'other-password' })
      expect(mismatch.status).toBe(400)
      expect(mismatch.body).toEqual({ confirm_password: [expect.any(String)] })
      const unconfirmed = await reset({ token, password: 'new-password' })
      expect(unconfirmed.status).toBe(400)
      expect(Object.keys(unconfirmed.body)).toEqual(['confirm_password'])
      // Refused attempts change nothing: the session and the old password stand.
      expect((await t.current.call({ method: 'GET', url: RENEW, headers: { authorization: `Bearer ${session}` } })).status).toBe(200)

      const done = await reset({ token, password: 'new-password', confirm_password: 'new-password' }, 'tr')
      expect(done.status, done.raw).toBe(200)
      expect(done.body).toEqual({ detail: 'Parolanız değiştirildi. Yeni parolanızla giriş yapın.' })
      expect((await signIn(email, 'old-password')).status).toBe(401)
      expect((await signIn(email, 'new-password')).status).toBe(200)
      expect((await t.current.call({ method: 'GET', url: RENEW, headers: { authorization: `Bearer ${session}` } })).status).toBe(401)

      const again = await reset({ token, password: 'third-password', confirm_password: 'third-password' })
      expect(again.status).toBe(400)
      expect(again.body).toEqual({ detail: 'This password reset link has already been used. Ask for a new one.' })
      expect((await signIn(email, 'new-password')).status).toBe(200)
    })

    it('spends an earlier link when the password changes, and a later link works', async () => {
      const email = uniqueEmail('twice')
      await t.current.createUser({ email })
      await forgot(email)
      const first = await linkTokenOf(t.current, email)
      await forgot(email)
      const second = await linkTokenOf(t.current, email)
      expect((await reset({ token: second, password: 'second-link', confirm_password: 'second-link' })).status).toBe(200)
      expect((await reset({ token: first, password: 'first-link', confirm_password: 'first-link' })).body).toEqual({
        detail: 'This password reset link has already been used. Ask for a new one.',
      })
    })

    it('refuses an expired, a tampered, a foreign or a missing token with 400 {detail} saying so', async () => {
      const email = uniqueEmail('expired')
      const id = await t.current.createUser({ email })
      const hash = (await sql<{ password: string }>`select password from "user" where id = ${id}`.execute(t.current.db)).rows[0]!.password
      const expired = await new SignJWT({ token_type: 'password_reset', user_id: id, pwd: passwordTagOf(JWT_SECRET, hash) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(now() - 7200)
        .setExpirationTime(now() - 3600)
        .sign(new TextEncoder().encode(JWT_SECRET))
      const body = { password: 'new-password', confirm_password: 'new-password' }
      const late = await reset({ token: expired, ...body })
      expect(late.status).toBe(400)
      expect(late.body).toEqual({ detail: 'This password reset link has expired. Ask for a new one.' })

      await forgot(email)
      const good = await linkTokenOf(t.current, email)
      const [header, , signature] = good.split('.')
      const otherUser = Buffer.from(JSON.stringify({ token_type: 'password_reset', user_id: t.current.adminId, pwd: 'x', exp: now() + 600 })).toString('base64url')
      const invalid = { detail: 'This password reset link is not valid. Ask for a new one.' }
      for (const token of [`${header}.${otherUser}.${signature}`, good.slice(0, -2), await signToken(JWT_SECRET, id), 'garbage', '', undefined, 42]) {
        const res = await reset({ token, ...body })
        expect(res.status, String(token)).toBe(400)
        expect(res.body).toEqual(invalid)
      }
      const arabic = await reset({ token: 'garbage', ...body }, 'ar')
      expect(arabic.body).toEqual({ detail: 'رابط إعادة تعيين كلمة المرور هذا غير صالح. اطلب رابطًا جديدًا.' })
      // None of them changed anything: the real link still works.
      expect((await reset({ token: good, ...body })).status).toBe(200)
    })

    it('does not take an access token as a reset link, nor a reset link as an access token', async () => {
      const email = uniqueEmail('confused')
      await t.current.createUser({ email })
      await forgot(email)
      const link = await linkTokenOf(t.current, email)
      expect((await t.current.call({ method: 'GET', url: RENEW, headers: { authorization: `Bearer ${link}` } })).status).toBe(401)
    })
  })
})
