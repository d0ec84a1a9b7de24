import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose'
import { describe, expect, it } from 'vitest'
import { ACCESS_TTL_SECONDS, REFRESH_TTL_SECONDS, TokenError, signToken, verifyToken } from '../../../../server/auth/tokens'

/** HS256 tokens with the original backend's claims (api-contract §3.1). */
const SECRET = 'unit-test-secret-of-at-least-32-characters'
const key = new TextEncoder().encode(SECRET)
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
const now = () => Math.floor(Date.now() / 1000)

async function reason(token: string, kind: 'access' | 'refresh' = 'access'): Promise<string> {
  try {
    await verifyToken(SECRET, token, kind)
    return 'valid'
  } catch (e) {
    return e instanceof TokenError ? e.reason : `unexpected ${String(e)}`
  }
}

describe('signToken / verifyToken', () => {
  it('signs HS256 tokens with token_type, user_id, jti, iat and exp, and verifies them', async () => {
    const token = await signToken(SECRET, 7)
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' })
    const claims = decodeJwt(token)
    expect(claims).toMatchObject({ token_type: 'access', user_id: 7 })
    expect(claims.jti).toMatch(/^[0-9a-f]{32}$/)
    expect(claims.exp! - claims.iat!).toBe(ACCESS_TTL_SECONDS)
    expect(await verifyToken(SECRET, token)).toEqual({ userId: 7, version: 0, signedInAt: claims.iat, exp: claims.exp })
  })

  it('carries the session: the user\'s session version and the sign-in time, and ends with the session at the latest', async () => {
    const signedInAt = now() - 3600
    const token = await signToken(SECRET, 7, 'access', { version: 3, signedInAt, notAfter: signedInAt + 7200 })
    const claims = decodeJwt(token)
    expect(claims).toMatchObject({ ver: 3, auth_time: signedInAt, exp: signedInAt + 7200 })
    expect(await verifyToken(SECRET, token)).toEqual({ userId: 7, version: 3, signedInAt, exp: signedInAt + 7200 })
  })

  it('gives refresh tokens their own type and lifetime', async () => {
    const token = await signToken(SECRET, 7, 'refresh')
    const claims = decodeJwt(token)
    expect(claims.token_type).toBe('refresh')
    expect(claims.exp! - claims.iat!).toBe(REFRESH_TTL_SECONDS)
    expect(await verifyToken(SECRET, token, 'refresh')).toMatchObject({ userId: 7 })
  })

  it('never issues the same token twice (distinct jti)', async () => {
    expect(await signToken(SECRET, 1)).not.toBe(await signToken(SECRET, 1))
  })

  const cases: Array<[string, () => Promise<string>, 'expired' | 'invalid', ('access' | 'refresh')?]> = [
    ['an expired token', () => new SignJWT({ token_type: 'access', user_id: 1 }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(now() - 10).sign(key), 'expired'],
    ['a token signed with another secret', () => signToken('another-secret-of-at-least-32-characters!', 1), 'invalid'],
    ['a token with an edited payload', async () => {
      const [h, , s] = (await signToken(SECRET, 1)).split('.')
      return `${h}.${b64({ token_type: 'access', user_id: 2, exp: now() + 60 })}.${s}`
    }, 'invalid'],
    ['an alg "none" token', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ token_type: 'access', user_id: 1, exp: now() + 60 })}.`, 'invalid'],
    ['an HS512 token with the right secret', () => new SignJWT({ token_type: 'access', user_id: 1 }).setProtectedHeader({ alg: 'HS512' }).setExpirationTime('1h').sign(key), 'invalid'],
    ['a refresh token where an access token is needed', () => signToken(SECRET, 1, 'refresh'), 'invalid'],
    ['an access token where a refresh token is needed', () => signToken(SECRET, 1, 'access'), 'invalid', 'refresh'],
    ['a token without token_type', () => new SignJWT({ user_id: 1 }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key), 'invalid'],
    ['a token without exp', () => new SignJWT({ token_type: 'access', user_id: 1 }).setProtectedHeader({ alg: 'HS256' }).sign(key), 'invalid'],
    ['a token whose user_id is not an integer', () => new SignJWT({ token_type: 'access', user_id: '1' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key), 'invalid'],
    ['a token whose user_id is 2^63 (no bigint id)', () => new SignJWT({ token_type: 'access', user_id: 2 ** 63 }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key), 'invalid'],
    ['a token whose user_id is not positive', () => new SignJWT({ token_type: 'access', user_id: 0 }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key), 'invalid'],
    ['a token whose session version is not a count', () => new SignJWT({ token_type: 'access', user_id: 1, ver: -1 }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key), 'invalid'],
    ['a password-reset token where an access token is needed', () => signToken(SECRET, 1, 'password_reset', { passwordTag: 'x' }), 'invalid'],
    ['garbage', async () => 'not.a.token', 'invalid'],
  ]
  it.each(cases)('refuses %s as %s', async (_, make, expected, kind) => {
    expect(await reason(await make(), kind)).toBe(expected)
  })
})
