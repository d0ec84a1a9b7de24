import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { z } from 'zod'
import { f } from '../../../schema/kit'
import { validatorOf } from '../../../schema/kit/validators'
import { TokenInvalidError } from '../../auth/guard'
import { verifyPassword } from '../../auth/passwords'
import { endSession, nowInSeconds, sessionTokens, type SessionRef } from '../../auth/sessions'
import { newSessionId } from '../../auth/tokens'
import { loginThrottle, requestLimiter, type ThrottleOptions } from '../../auth/throttle'
import { BusinessError, ForbiddenError, UnauthorizedError } from '../../engine/errors'
import { messageFor } from '../../i18n'
import type { ModuleDeps } from '../../engine/modules'
import { createRow, updateRow } from '../../engine/service'
import { parseWith, type Values } from '../../engine/validate'
import { roleIdByName } from './access'
import { pick, publicUser, touchLastLogin } from './profile'

/**
 * Sessions (api-contract §3.1, spec §7): login, sign-in with the stored token, registration,
 * logout and the caller's own profile. Login and register are public; the others need a token.
 *
 * A session begins with a password (login, or register) and may be renewed with
 * `/api/auth/access-token` until SESSION_MAX_AGE_HOURS after that: the sign-in time travels
 * in every token of the session, and no token outlives it. A password change or a logout
 * ends the user's sessions (server/auth/sessions.ts).
 */
const loginSchema = z.object({
  email: validatorOf(f.email({ required: true })),
  password: validatorOf(f.text({ required: true, max: 128 })),
})

/** Registrations from one address: enough for an office behind one router, too few for a script. */
const REGISTER_LIMIT = { max: 20, windowMs: 60 * 60_000 }

function bodyOf(request: FastifyRequest): Values {
  const body = request.body ?? {}
  if (typeof body !== 'object' || Array.isArray(body)) throw new BusinessError({ key: 'detail.json_object' })
  return body as Values
}

const userEntity = (deps: ModuleDeps) => deps.registry.find((e) => e.name === 'user')!

export function registerSessionRoutes(app: FastifyInstance, deps: ModuleDeps, throttle?: ThrottleOptions): void {
  const { db } = deps
  const limiter = loginThrottle(db, throttle)
  const registrations = requestLimiter(db, { ...REGISTER_LIMIT, name: 'register', message: 'detail.register_throttled' })
  const { tokenOf, isRenewable } = sessionTokens(db, deps.jwtSecret)
  const now = nowInSeconds
  const session = async (userId: number, ref: SessionRef) => ({ user: (await publicUser(db, userId))!, access_token: await tokenOf(userId, ref) })

  app.post('/user/api/v1/user/login/', { config: { isPublic: true } }, async (request) => {
    const { email, password } = parseWith(loginSchema, request.body, { email: 'field.email', password: 'field.password' })
    const r = await sql<{ id: number; password: string; is_active: boolean }>`
      select id, password, is_active from "user" where lower(email) = ${email}`.execute(db)
    const user = r.rows[0]
    const account = email.toLowerCase()
    await limiter.check(account, request.ip)
    const ok = await verifyPassword(user?.password, password)
    // One answer for an unknown e-mail, a wrong password and an inactive account.
    if (!user || !ok || !user.is_active) {
      await limiter.fail(account, request.ip)
      throw new UnauthorizedError({ key: 'detail.no_account' })
    }
    await limiter.succeed(account)
    await touchLastLogin(db, user.id)
    const ref = { signedInAt: now(), sessionId: newSessionId() }
    const [access, refresh] = await Promise.all([tokenOf(user.id, ref, 'access'), tokenOf(user.id, ref, 'refresh')])
    return { refresh, access, ...(await publicUser(db, user.id)) }
  })

  // Sign-in with the stored token (spec §4): the guard has checked it; answer the user and a
  // fresh token of the same session, which ends when the session does.
  app.get('/api/auth/access-token', async (request) => {
    const userId = request.principal!.id
    const { signedInAt, sessionId } = request.token!
    if (!isRenewable(signedInAt)) throw new TokenInvalidError('Session is too old to renew')
    await touchLastLogin(db, userId)
    return session(userId, { signedInAt, sessionId })
  })

  // Ends the caller's sessions on the server: the token is refused from now on, wherever it was copied.
  app.post('/api/auth/logout', async (request) => {
    await endSession(db, request.principal!.id, request.token!)
    return { detail: messageFor(request.headers['accept-language'], { key: 'detail.signed_out' }) }
  })

  app.post('/api/auth/register', { config: { isPublic: true } }, async (request, reply) => {
    // Every attempt counts, refused ones too: they probe which e-mails are taken.
    await registrations(request.ip)
    const body = bodyOf(request)
    const setting = await sql<{ is_registration_open: boolean }>`select is_registration_open from general_setting order by id desc limit 1`.execute(db)
    if (setting.rows[0]?.is_registration_open === false) throw new ForbiddenError({ key: 'detail.registration_closed' })
    const user = userEntity(deps)
    // What one may set on one's own account, the password and its confirmation (the user's rules judge them).
    const input = { ...pick(body, [...user.selfEditable, 'password', 'confirm_password']), role: await roleIdByName(db, 'USER'), is_admin: false, is_active: true }
    const created = await createRow({ db, registry: deps.registry, entity: user, actor: null, access: 'system', hooks: deps.hooks }, input)
    const userId = created.id as number
    await touchLastLogin(db, userId)
    return reply.code(201).send(await session(userId, { signedInAt: now(), sessionId: newSessionId() }))
  })

  // The caller's own profile and UI settings; role, is_admin and is_active are never taken from here.
  app.post('/api/auth/user/update', async (request) => {
    const principal = request.principal!
    const user = userEntity(deps)
    const changes = pick(bodyOf(request), [...user.selfEditable, 'settings'])
    // Their own row, with only what the registry lets a user change on it: on the route's authority.
    await updateRow({ db, registry: deps.registry, entity: user, actor: principal, access: 'system', hooks: deps.hooks }, principal.id, changes)
    return { user: await publicUser(db, principal.id) }
  })
}
