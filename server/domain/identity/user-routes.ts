import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { z } from 'zod'
import { normalizePhone } from '../../../schema/kit'
import { isIdText, validatorOf } from '../../../schema/kit/validators'
import { sessionTokens } from '../../auth/sessions'
import { requestLimiter } from '../../auth/throttle'
import { BusinessError, ValidationError } from '../../engine/errors'
import { messageFor } from '../../i18n'
import type { ModuleDeps } from '../../engine/modules'
import { rowIdOf } from '../../engine/request'
import { updateRow, type Ctx } from '../../engine/service'
import { isUploadOf, readBody, uploadsOf } from '../../engine/uploads'
import { parseWith } from '../../engine/validate'
import { userEntities } from './access'

/**
 * The user resource's routes beyond the generic ones (api-contract §3.2): password change,
 * photo upload and the eight uniqueness checks the user and employee forms call as one types.
 * A user may change their own password and photo without USER_UPDATE (the profile page); their
 * own password only with the current one, another's only with USER_SET_CREDENTIALS (rules.ts).
 */
type IdParams = { id: string }

/**
 * Uniqueness checks per caller: far more than a person typing into the employee form asks
 * (one per field after a pause), far too few to find out at speed who has which e-mail or phone.
 */
const CHECK_LIMIT = { max: 300, windowMs: 15 * 60_000 }

const CHECKS = [
  { field: 'username', label: 'Username' },
  { field: 'email', label: 'Email' },
  { field: 'primary_phone', label: 'Primary phone' },
  { field: 'secondary_phone', label: 'Secondary phone' },
] as const

export function registerUserRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const user = deps.registry.find((e) => e.name === 'user')!
  const base = user.api.base
  // These routes check their own rule (the user themselves, or USER_UPDATE): the engine writes on their authority.
  const ctx = (request: FastifyRequest): Ctx => ({ db: deps.db, registry: deps.registry, entity: user, actor: request.principal ?? null, access: 'system', hooks: deps.hooks, uploads: uploadsOf(request) })
  const ownOrUpdate = { permission: user.permissions.UPDATE, selfParam: 'id' }
  const passwordSchema = z.object({ password: validatorOf(user.fields.password!) })
  const { tokenOf } = sessionTokens(deps.db, deps.jwtSecret)

  app.patch<{ Params: IdParams }>(`${base}/passwordchange/:id`, { config: ownOrUpdate }, async (request) => {
    const rowId = rowIdOf(user, request.params.id)
    const { password } = parseWith(passwordSchema, request.body, { password: user.fieldLabelKey('password') })
    const confirm_password = (request.body as Record<string, unknown>).confirm_password
    // The user's rule (a confirmation matches), answered in the contract's words.
    const isConfirmed = user.rules.every((rule) => rule.field !== 'confirm_password' || rule.check({ password, confirm_password }, { mode: 'update', input: { confirm_password } }))
    if (confirm_password === undefined || !isConfirmed) throw new BusinessError({ key: 'detail.password_mismatch' })
    // The new password ends every session of the user (server/auth/sessions.ts), the caller's too.
    // One's own asks for the current password (the user's rules judge it, as on every route).
    await updateRow(ctx(request), rowId, { password, current_password: (request.body as Record<string, unknown>).current_password })
    const detail = messageFor(request.headers['accept-language'], { key: 'detail.password_changed', params: { id: rowId } })
    if (rowId !== request.principal!.id) return { detail }
    // One's own change: this session goes on with a fresh token (same sign-in time, new
    // version) rather than signing its own user out; every other session of theirs is over.
    return { detail, access_token: await tokenOf(rowId, request.token!) }
  })

  app.post<{ Params: IdParams }>(`${base}/uploadimage/:id`, { config: ownOrUpdate }, async (request) => {
    const rowId = rowIdOf(user, request.params.id)
    const body = await readBody(request, user, deps.mediaDir)
    try {
      const image = body.values.image
      if (!isUploadOf(user, image)) {
        throw new ValidationError({ image: [{ key: 'validation.required', params: { label: user.fieldLabelKey('image') } }] })
      }
      const row = await updateRow(ctx(request), rowId, { image })
      return { image: row.image }
    } catch (e) {
      await body.cleanup()
      throw e
    }
  })

  // Whoever may create or update a user (or an employee, a user too) may ask.
  const createPermissions = userEntities(deps.registry).map((e) => e.permissions.CREATE)
  const updatePermissions = userEntities(deps.registry).map((e) => e.permissions.UPDATE)
  // Limited as registration is (server/auth/throttle.ts), per caller: every check is signed in.
  const checks = requestLimiter(deps.db, { ...CHECK_LIMIT, name: 'uniqueness-check', message: 'detail.check_throttled' })

  for (const { field, label } of CHECKS) {
    for (const when of ['create', 'update'] as const) {
      app.get<{ Querystring: Record<string, unknown> }>(
        `${base}/check_${field}_when_${when}/`,
        // Anyone may check their own profile's values while editing it (`user=<own id>`).
        { config: when === 'create' ? { permission: createPermissions } : { permission: updatePermissions, selfQuery: 'user' } },
        async (request) => {
          await checks(request.principal ? `user:${request.principal.id}` : `address:${request.ip}`)
          const raw = request.query[field]
          if (typeof raw !== 'string' || raw.trim() === '') throw new BusinessError({ key: 'detail.value_missing', params: { label: `field.${field}`, name: label } })
          let except = 0
          if (when === 'update') {
            const other = request.query.user
            if (typeof other !== 'string' || !isIdText(other)) throw new BusinessError({ key: 'detail.user_missing' })
            except = Number(other)
          }
          const value = raw.trim()
          const condition =
            field === 'email'
              ? sql`lower(email) = ${value.toLowerCase()}`
              : field === 'username'
                ? sql`username = ${value}`
                : // A phone is checked against both phone columns of every user, as the original did.
                  sql`(primary_phone = ${normalizePhone(value)} or secondary_phone = ${normalizePhone(value)})`
          const found = await sql<{ id: number }>`select id from "user" where id <> ${except} and ${condition} limit 1`.execute(deps.db)
          return { [`${field}_exists`]: found.rows.length > 0 }
        },
      )
    }
  }
}
