import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { z } from 'zod'
import { f, renderMessage } from '../../../schema/kit'
import { validatorOf } from '../../../schema/kit/validators'
import { passwordTagOf } from '../../auth/sessions'
import { requestLimiter } from '../../auth/throttle'
import { signToken, TokenError, verifyToken, type TokenClaims } from '../../auth/tokens'
import { authSettings } from '../../config'
import type { Executor } from '../../db/types'
import { BusinessError, ValidationError } from '../../engine/errors'
import type { ModuleDeps } from '../../engine/modules'
import { updateRow } from '../../engine/service'
import { parseWith } from '../../engine/validate'
import { languageOf, languages, messageFor, translator, type Language } from '../../i18n'
import { queueMail } from '../../mail/outbox'

/**
 * A forgotten password (issue 9). `POST /api/auth/forgot-password` `{email}` mails a link to
 * `/reset-password?token=…`; `POST /api/auth/reset-password` `{token, password,
 * confirm_password}` sets the new password, which ends every session of the user.
 *
 * - The request answers the same 200 whether an account uses the address or not, so it
 *   tells nobody who has an account — nor by the time it takes: it answers before the
 *   address is looked up, and the mail is queued after (`queueResetMail`); it is limited per
 *   client address and per e-mail, so it can neither flood a mailbox nor be used to probe at speed.
 * - The link's token is signed, lasts an hour and carries a fingerprint of the password it
 *   replaces: once that password is changed (by this link or otherwise) the link is spent.
 *   Nothing is stored for it. An expired, spent or tampered link is a 400 saying which.
 * - The mail is queued in the outbox in the transaction that reads the account, in the
 *   user's own language (their settings) or else the request's.
 */
export const FORGOT_PASSWORD_PATH = '/api/auth/forgot-password'
export const RESET_PASSWORD_PATH = '/api/auth/reset-password'
/** The browser's page the mailed link opens (src/app/paths.ts). */
export const RESET_PAGE = '/reset-password'

const PER_ADDRESS = { max: 20, windowMs: 60 * 60_000 }
const PER_EMAIL = { max: 5, windowMs: 60 * 60_000 }

const forgotSchema = z.object({ email: validatorOf(f.email({ required: true })) })

type Account = { id: number; email: string; first_name: string; password: string; is_active: boolean; settings: unknown }

async function accountOf(db: Executor, where: { email: string } | { id: number }, forUpdate = false): Promise<Account | undefined> {
  const condition = 'email' in where ? sql`lower(email) = ${where.email.toLowerCase()}` : sql`id = ${where.id}`
  const r = await sql<Account>`
    select id, email, first_name, password, is_active, settings from "user" where ${condition} ${forUpdate ? sql`for update` : sql``}`.execute(db)
  return r.rows[0]
}

/** The language the user chose in their settings, else the request's. */
function mailLanguage(account: Account, acceptLanguage: string | undefined): Language {
  const chosen = typeof account.settings === 'object' && account.settings !== null ? (account.settings as Record<string, unknown>).language : undefined
  return (languages as readonly unknown[]).includes(chosen) ? (chosen as Language) : languageOf(acceptLanguage)
}

/**
 * The reset mails being queued after their request was answered: the app waits for them as it
 * closes, and so may a test (`resetMailsQueued`).
 */
const queueing = new Set<Promise<void>>()

/** Resolves once every reset mail asked for so far is queued (or has failed, and been logged). */
export async function resetMailsQueued(): Promise<void> {
  await Promise.all([...queueing])
}

export function registerPasswordResetRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const { db, jwtSecret } = deps
  const user = deps.registry.find((e) => e.name === 'user')!
  const { publicUrl } = authSettings()
  const passwordSchema = z.object({ password: validatorOf(user.fields.password!) })
  const byAddress = requestLimiter(db, { ...PER_ADDRESS, name: 'forgot-password-address', message: 'detail.reset_throttled' })
  const byEmail = requestLimiter(db, { ...PER_EMAIL, name: 'forgot-password-email', message: 'detail.reset_throttled' })
  const detail = (request: FastifyRequest, key: string) => ({ detail: messageFor(request.headers['accept-language'], { key }) })

  /** Mails a reset link to the account using `email`, if there is one and it is active; nothing otherwise. */
  const queueResetMail = async (email: string, acceptLanguage: string | undefined) => {
    await db.transaction().execute(async (trx) => {
      const account = await accountOf(trx, { email })
      if (!account || !account.is_active) return
      const token = await signToken(jwtSecret, account.id, 'password_reset', { passwordTag: passwordTagOf(jwtSecret, account.password) })
      const link = `${publicUrl}${RESET_PAGE}?token=${encodeURIComponent(token)}`
      const t = translator(mailLanguage(account, acceptLanguage))
      await queueMail(trx, {
        to: account.email,
        subject: renderMessage(t, { key: 'auth_mail.reset_subject' }),
        text: renderMessage(t, { key: 'auth_mail.reset_text', params: { name: account.first_name || account.email, email: account.email, link } }),
      })
    })
  }
  app.addHook('onClose', resetMailsQueued)

  app.post(FORGOT_PASSWORD_PATH, { config: { isPublic: true } }, async (request) => {
    const { email } = parseWith(forgotSchema, request.body, { email: 'field.email' })
    await byAddress(request.ip)
    await byEmail(email.toLowerCase())
    // Answered before the address is looked up, whoever asks: the work a known address needs
    // (a token, a mail written and queued — a write the database must commit) made its answer
    // measurably slower (median 54.9 against 41.2 ms), which told who has an account. The
    // request does the same work either way; the lookup and the mail follow the answer.
    const acceptLanguage = request.headers['accept-language']
    const queued: Promise<void> = new Promise<void>((begin) => setImmediate(begin))
      .then(() => queueResetMail(email, acceptLanguage))
      .catch((e: unknown) => request.log.error({ err: e }, 'password reset mail not queued'))
      .finally(() => queueing.delete(queued))
    queueing.add(queued)
    return detail(request, 'detail.reset_sent')
  })

  app.post(RESET_PASSWORD_PATH, { config: { isPublic: true } }, async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>
    if (typeof body !== 'object' || Array.isArray(body)) throw new BusinessError({ key: 'detail.json_object' })
    const token = body.token
    if (typeof token !== 'string' || token === '') throw new BusinessError({ key: 'detail.reset_link_invalid' })
    let claims: TokenClaims
    try {
      claims = await verifyToken(jwtSecret, token, 'password_reset')
    } catch (e) {
      throw new BusinessError({ key: e instanceof TokenError && e.reason === 'expired' ? 'detail.reset_link_expired' : 'detail.reset_link_invalid' })
    }
    if (claims.passwordTag === undefined) throw new BusinessError({ key: 'detail.reset_link_invalid' })
    // The field's own rules (length), then its confirmation: the profile's password form judges the same.
    const { password } = parseWith(passwordSchema, { password: body.password }, { password: user.fieldLabelKey('password') })
    if (body.confirm_password === undefined || body.confirm_password === null || body.confirm_password === '') {
      throw new ValidationError({ confirm_password: [{ key: 'validation.required', params: { label: user.fieldLabelKey('confirm_password') } }] })
    }
    await db.transaction().execute(async (trx) => {
      // Locked: two uses of one link at once — the second finds the password changed.
      const account = await accountOf(trx, { id: claims.userId }, true)
      if (!account || !account.is_active) throw new BusinessError({ key: 'detail.reset_link_invalid' })
      if (passwordTagOf(jwtSecret, account.password) !== claims.passwordTag) throw new BusinessError({ key: 'detail.reset_link_used' })
      // The user's own rules judge the password and its confirmation; the new password moves
      // the session version, ending every session (server/auth/sessions.ts).
      await updateRow(
        { db: trx, registry: deps.registry, entity: user, actor: null, access: 'system', hooks: deps.hooks },
        account.id,
        { password, confirm_password: body.confirm_password },
      )
    })
    return detail(request, 'detail.reset_done')
  })
}
