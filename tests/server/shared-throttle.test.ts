import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { ADMIN } from './helpers/app'
import { describeOnTwoServers, type Server } from './helpers/two-servers'

/**
 * Stateless servers (issue 26): sign-in throttles and rate limits count where every server of
 * one database sees them (server/auth/throttle.ts) — failures on server A count on server B, a
 * success on A forgives the account on B, and hits made at once on both are never lost.
 */
const LOGIN = '/user/api/v1/user/login/'
const REGISTER = '/api/auth/register'

let sequence = 0
const uniqueEmail = (prefix: string) => `${prefix}${++sequence}x${process.pid}@example.com`

const attempt = (server: Server, email: string, password: string, remoteAddress: string) =>
  server.app.inject({ method: 'POST', url: LOGIN, payload: { email, password }, remoteAddress })

describeOnTwoServers('throttles shared by two servers on one database', (s, kind) => {
  it('counts an account\'s failures on either server: after five, both refuse with 429, Retry-After and the detail, even the right password', async () => {
    const { a, b } = s.current
    const email = uniqueEmail('shared')
    await s.current.createUser({ email, password: 'right-password' })
    for (let i = 0; i < 5; i++) expect((await attempt(i % 2 === 0 ? a : b, email, 'wrong-password', `10.31.0.${i + 1}`)).statusCode).toBe(401)
    for (const server of [a, b]) {
      const locked = await attempt(server, email, 'right-password', '10.31.0.99')
      expect(locked.statusCode).toBe(429)
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0)
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60)
      expect(locked.json()).toEqual({ detail: expect.stringMatching(/^Too many failed sign-in attempts\. Try again in \d+ seconds\.$/) })
    }
    // Another account is not affected, on either server.
    expect((await attempt(b, ADMIN.email, ADMIN.password, '10.31.0.100')).statusCode).toBe(200)
  })

  it('counts an address\'s failures on either server: after twenty, both refuse it whatever the e-mail', async () => {
    const { a, b } = s.current
    const address = '10.32.0.1'
    for (let i = 0; i < 20; i++) expect((await attempt(i < 10 ? a : b, uniqueEmail('ghost'), 'wrong-password', address)).statusCode).toBe(401)
    expect((await attempt(a, ADMIN.email, ADMIN.password, address)).statusCode).toBe(429)
    expect((await attempt(b, ADMIN.email, ADMIN.password, address)).statusCode).toBe(429)
    expect((await attempt(b, ADMIN.email, ADMIN.password, '10.32.0.2')).statusCode).toBe(200)
  })

  it('forgives an account on every server when it signs in with its password on one', async () => {
    const { a, b } = s.current
    const email = uniqueEmail('forgiven')
    await s.current.createUser({ email, password: 'right-password' })
    for (let i = 0; i < 4; i++) expect((await attempt(b, email, 'wrong-password', '10.33.0.1')).statusCode).toBe(401)
    expect((await attempt(a, email, 'right-password', '10.33.0.2')).statusCode).toBe(200)
    // Four more on B start from zero: B does not remember the four before.
    for (let i = 0; i < 4; i++) expect((await attempt(b, email, 'wrong-password', '10.33.0.3')).statusCode).toBe(401)
    expect((await attempt(b, email, 'right-password', '10.33.0.3')).statusCode).toBe(200)
  })

  it('limits registrations per address across servers: ten on each, then 429 on both', async () => {
    const { a, b } = s.current
    const register = (server: Server) => server.app.inject({ method: 'POST', url: REGISTER, payload: { email: 'not-an-email' }, remoteAddress: '10.34.0.1' })
    for (let i = 0; i < 10; i++) {
      expect((await register(a)).statusCode).toBe(400)
      expect((await register(b)).statusCode).toBe(400)
    }
    for (const server of [a, b]) {
      const refused = await register(server)
      expect(refused.statusCode).toBe(429)
      expect(refused.json()).toEqual({ detail: expect.stringMatching(/^Too many registrations from your address\. Try again in \d+ seconds\.$/) })
    }
  })

  it('loses no failure counted at once on both servers: every one is in the count', async () => {
    const { a, b } = s.current
    const email = uniqueEmail('burst')
    await s.current.createUser({ email, password: 'right-password' })
    // Three tries at once on each server: all are checked before any is counted, so all fail
    // with 401, and the count must hold all six (a lost update would leave fewer).
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => attempt(i % 2 === 0 ? a : b, email, 'wrong-password', `10.35.${i}.1`)))
    const refused = answers.filter((r) => r.statusCode === 429).length
    expect(answers.filter((r) => r.statusCode === 401).length + refused).toBe(6)
    if (kind === 'postgres') {
      const count = await sql<{ hits: number }>`select hits from rate_limit where key = ${`account:${email}`}`.execute(a.db)
      expect(count.rows[0]?.hits).toBe(6 - refused)
    }
    expect((await attempt(b, email, 'right-password', '10.35.9.1')).statusCode).toBe(429)
  })

  it.runIf(kind === 'postgres')('starts a key afresh once its window has ended', async () => {
    const { a, b } = s.current
    const email = uniqueEmail('ended')
    await s.current.createUser({ email, password: 'right-password' })
    for (let i = 0; i < 5; i++) expect((await attempt(a, email, 'wrong-password', `10.36.0.${i + 1}`)).statusCode).toBe(401)
    expect((await attempt(b, email, 'right-password', '10.36.0.9')).statusCode).toBe(429)
    // The window ends (as fifteen minutes on would end it): the account may try again, and its next failure counts from one.
    await sql`update rate_limit set resets_at = now() - interval '1 second' where key = ${`account:${email}`}`.execute(a.db)
    expect((await attempt(b, email, 'wrong-password', '10.36.0.10')).statusCode).toBe(401)
    expect((await sql<{ hits: number }>`select hits from rate_limit where key = ${`account:${email}`}`.execute(a.db)).rows[0]?.hits).toBe(1)
    expect((await attempt(a, email, 'right-password', '10.36.0.11')).statusCode).toBe(200)
  })
})
