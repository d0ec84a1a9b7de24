import { SignJWT } from 'jose'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import type { Action, GenericRoute } from '../../schema/kit'
import { signToken } from '../../server/auth/tokens'
import { ADMIN, JWT_SECRET, describeEachDatabase } from './helpers/app'
import { labelOf, translate, type AnyEntity } from './helpers/samples'

/** Login (api-contract §3.1), the guard on every registry endpoint, and message languages. */
const LOGIN = '/user/api/v1/user/login/'
const NO_ACCOUNT = { detail: 'No active account found with the given credentials' }

type Endpoint = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; action: Action }

/**
 * Every contract route of an entity that needs a token (the engine's or a module's), with an
 * id that need not exist. (The permission matrix covers every registered route of the app.)
 */
function endpointsOf(entity: AnyEntity): Endpoint[] {
  const b = entity.api.base
  const routes: Array<Endpoint & { route?: GenericRoute }> = [
    { method: 'GET', url: `${b}/all/`, action: 'LIST', route: 'all' },
    { method: 'GET', url: `${b}/without_pagination/all/`, action: 'LIST', route: 'without_pagination' },
    { method: 'GET', url: `${b}/search/`, action: 'LIST', route: 'search' },
    { method: 'GET', url: `${b}/1`, action: 'DETAILS', route: 'read' },
    { method: 'POST', url: `${b}/create/`, action: 'CREATE', route: 'create' },
    { method: 'PUT', url: `${b}/update/1`, action: 'UPDATE', route: 'update' },
    { method: 'PATCH', url: `${b}/update/1`, action: 'UPDATE', route: 'update' },
    { method: 'DELETE', url: `${b}/delete/1`, action: 'DELETE', route: 'delete' },
    { method: 'DELETE', url: `${b}/delete_multiple/`, action: 'DELETE', route: 'delete_multiple' },
    ...entity.extraRoutes.map((r) => ({ method: 'GET' as const, url: `${b}/${r.path}/1`, action: 'LIST' as const })),
  ]
  return routes.filter((r) => (r.route === undefined || entity.routes[r.route] !== false) && !entity.publicActions.includes(r.action))
}

/** The routes a signed-in user without the permission is refused: not those of rows of their own (`own`, tests/server/own-access.test.ts). */
const refusedEndpointsOf = (entity: AnyEntity): Endpoint[] => endpointsOf(entity).filter((r) => !entity.own?.actions.includes(r.action))

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
const now = () => Math.floor(Date.now() / 1000)

/** Tokens the guard must refuse, each with the reason. */
async function badTokens(userId: number): Promise<Record<string, string | undefined>> {
  const good = await signToken(JWT_SECRET, userId)
  const [header, payload] = good.split('.')
  return {
    'no token': undefined,
    'a token signed with another secret': `Bearer ${await signToken('another-secret-of-at-least-thirty-two-chars', userId)}`,
    'a token whose payload was edited': `Bearer ${header}.${b64({ token_type: 'access', user_id: userId + 1, exp: now() + 3600 })}.${good.split('.')[2]}`,
    'an alg "none" token': `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ token_type: 'access', user_id: userId, exp: now() + 3600 })}.`,
    'an expired token': `Bearer ${await new SignJWT({ token_type: 'access', user_id: userId })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now() - 7200)
      .setExpirationTime(now() - 3600)
      .sign(new TextEncoder().encode(JWT_SECRET))}`,
    'a refresh token': `Bearer ${await signToken(JWT_SECRET, userId, 'refresh')}`,
    'a malformed header': `Token ${payload}`,
  }
}

describeEachDatabase('authentication and authorization', (t) => {
  describe('login', () => {
    it('answers with the tokens and every user field of the contract, never the password', async () => {
      const res = await t.current.call({ method: 'POST', url: LOGIN, payload: ADMIN, asAnonymous: true })
      expect(res.status).toBe(200)
      const fields = [
        'refresh', 'access', 'id', 'last_login', 'first_name', 'last_name', 'username', 'email', 'gender', 'primary_phone',
        'secondary_phone', 'user_type', 'date_of_birth', 'is_active', 'is_admin', 'role', 'street_address_one',
        'street_address_two', 'thana', 'city', 'country', 'postal_code', 'image', 'nid', 'settings', 'permissions',
        'created_at', 'updated_at', 'created_by', 'updated_by',
      ]
      expect(Object.keys(res.body).sort()).toEqual(fields.sort())
      expect(res.body).toMatchObject({ id: t.current.adminId, email: ADMIN.email, username: 'admin', is_admin: true })
      expect(res.raw).not.toContain('password')
      expect(res.raw).not.toContain('$argon2')
      expect(res.body.last_login).not.toBeNull()

      const listed = await t.current.call({ method: 'GET', url: '/country/api/v1/country/all/', headers: { authorization: `Bearer ${res.body.access}` } })
      expect(listed.status).toBe(200)
      const asStored = await t.current.call({ method: 'GET', url: '/country/api/v1/country/all/', headers: { authorization: res.body.access } })
      expect(asStored.status, 'a bare token is accepted too').toBe(200)
    })

    it('accepts the e-mail in any letter case', async () => {
      const res = await t.current.call({ method: 'POST', url: LOGIN, payload: { email: 'ADMIN@Example.com', password: ADMIN.password }, asAnonymous: true })
      expect(res.status).toBe(200)
    })

    it('answers a wrong password, an unknown e-mail and an inactive account with the same 401', async () => {
      const inactive = await t.current.createUser({ email: `gone-${t.current.kind}@example.com`, password: 'secret123' })
      await sql`update "user" set is_active = false where id = ${inactive}`.execute(t.current.db)
      const attempts = [
        { email: ADMIN.email, password: 'wrong-password' },
        { email: 'nobody@example.com', password: ADMIN.password },
        { email: `gone-${t.current.kind}@example.com`, password: 'secret123' },
      ]
      for (const payload of attempts) {
        const res = await t.current.call({ method: 'POST', url: LOGIN, payload, asAnonymous: true })
        expect(res.status, payload.email).toBe(401)
        expect(res.body).toEqual(NO_ACCOUNT)
      }
    })

    it('answers a login body that is not an object with 400 {detail}', async () => {
      for (const payload of [[ADMIN], '"text"', '42']) {
        const res = await t.current.call({ method: 'POST', url: LOGIN, payload: typeof payload === 'string' ? payload : JSON.stringify(payload), headers: { 'content-type': 'application/json' }, asAnonymous: true })
        expect(res.status, String(payload)).toBe(400)
        expect(res.body).toEqual({ detail: expect.any(String) })
      }
    })

    it('answers a login without e-mail or password with a 400 field map', async () => {
      const res = await t.current.call({ method: 'POST', url: LOGIN, payload: { email: 'not-an-email' }, asAnonymous: true })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ email: ['You must enter a valid email'], password: [expect.stringContaining('is required')] })
    })
  })

  describe('the guard on every registry endpoint', () => {
    for (const entity of entities) {
      it(`${entity.name}: 401 without a valid access token (none, forged, edited, alg none, expired, refresh, malformed)`, async () => {
        const tokens = await badTokens(t.current.adminId)
        for (const { method, url } of endpointsOf(entity)) {
          for (const [why, authorization] of Object.entries(tokens)) {
            const res = await t.current.call({ method, url, payload: method === 'GET' ? undefined : {}, asAnonymous: true, headers: authorization ? { authorization } : {} })
            expect(res.status, `${method} ${url} with ${why}`).toBe(401)
            expect(res.body.detail, `${method} ${url} with ${why}`).toEqual(expect.any(String))
            if (authorization && why !== 'a malformed header') expect(res.body.code).toBe('token_not_valid')
          }
        }
      })

      it(`${entity.name}: 403 {detail} for a signed-in user without the permission`, async () => {
        const userId = await t.current.createUser({ email: `clerk-${entity.name}-${t.current.kind}@example.com` })
        const authorization = `Bearer ${await signToken(JWT_SECRET, userId)}`
        for (const { method, url } of refusedEndpointsOf(entity)) {
          const res = await t.current.call({ method, url, payload: method === 'GET' ? undefined : {}, headers: { authorization } })
          expect(res.status, `${method} ${url}`).toBe(403)
          expect(res.body.detail).toMatch(new RegExp(`^You don't have these permissions \\[${entity.permission}_(LIST|DETAILS|CREATE|UPDATE|DELETE)\\]$`))
        }
      })
    }

    it('refuses the token of a user who was deactivated', async () => {
      const userId = await t.current.createUser({ email: `deactivated-${t.current.kind}@example.com`, isAdmin: true })
      await sql`update "user" set is_active = false where id = ${userId}`.execute(t.current.db)
      const res = await t.current.call({ method: 'GET', url: '/country/api/v1/country/all/', headers: { authorization: `Bearer ${await signToken(JWT_SECRET, userId)}` } })
      expect(res.status).toBe(401)
    })
  })

  describe('message language', () => {
    const cases = [
      { header: 'ar', lang: 'ar' as const },
      { header: 'ar-SA,ar;q=0.9,en;q=0.8', lang: 'ar' as const },
      { header: 'tr-TR', lang: 'tr' as const },
      { header: 'de-DE', lang: 'en' as const },
    ]
    for (const { header, lang } of cases) {
      it(`answers Accept-Language: ${header} with ${lang} field messages`, async () => {
        const entity = entities.find((e) => e.name === 'department')!
        const res = await t.current.call({ method: 'POST', url: `${entity.api.base}/create/`, payload: {}, headers: { 'accept-language': header } })
        expect(res.status).toBe(400)
        const message = translate(lang, 'validation.required').replace(/\{\{\s*label\s*\}\}/, labelOf(entity, 'name', lang))
        expect(res.body).toEqual({ name: [message] })
      })
    }
  })
})
