import { createHmac } from 'node:crypto'
import { sql } from 'kysely'
import type { Executor } from '../db/types'
import { authSettings } from '../config'
import type { EntityHooks } from '../engine/hooks'
import { forgetPrincipal } from './principal'
import { signToken } from './tokens'

/**
 * Sessions are stateless tokens that the server can still end. Each user row carries a
 * session version (`session_version`, a read-only registry field); every token records the
 * version it was made at, and the guard refuses a token whose version is no longer the
 * user's. Moving the version therefore ends every session of that user at once: a password
 * change (any route: own, an admin's reset, the generic update, a forgotten-password reset)
 * and a logout do. The version is read with the principal the guard loads anyway, so a
 * revocable session costs no query of its own; every other server honours the end at once
 * (the principal's stamp, server/auth/principal.ts).
 *
 * A logout ends the session that asked, and only it (the user's phone stays signed in
 * when they sign out on a shared desk): every token of a session names it (`sid`, made at
 * sign-in and carried by renewals), a logout records it in `ended_session` until the
 * session's absolute end, and the principal the guard loads anyway carries the user's
 * ended sessions — again no query of its own.
 */

/** A session as its tokens carry it: when it began and its name. */
export type SessionRef = { signedInAt: number; sessionId?: string }

export const ENDED_SESSIONS = 'ended_session'

export async function sessionVersionOf(db: Executor, userId: number): Promise<number> {
  const r = await sql<{ session_version: number }>`select session_version from "user" where id = ${userId}`.execute(db)
  return r.rows[0]?.session_version ?? 0
}

export const nowInSeconds = () => Math.floor(Date.now() / 1000)

/**
 * Makes the tokens of a session begun at `signedInAt` (seconds): at the user's current
 * version, and never outliving the session's absolute end (SESSION_MAX_AGE_HOURS after it).
 */
export function sessionTokens(db: Executor, secret: string) {
  const { sessionMaxAgeSeconds } = authSettings()
  return {
    sessionMaxAgeSeconds,
    /** Whether a session begun then may still be renewed. */
    isRenewable: (signedInAt: number) => nowInSeconds() < signedInAt + sessionMaxAgeSeconds,
    async tokenOf(userId: number, { signedInAt, sessionId }: SessionRef, kind: 'access' | 'refresh' = 'access'): Promise<string> {
      return signToken(secret, userId, kind, { version: await sessionVersionOf(db, userId), signedInAt, notAfter: signedInAt + sessionMaxAgeSeconds, sessionId })
    },
  }
}

/**
 * Ends one session (a logout): kept until the session could not be renewed any more, when
 * its tokens are dead anyway; older records are dropped on the way. A token without a
 * session name (made before sessions were named) can only end them all.
 */
export async function endSession(db: Executor, userId: number, session: SessionRef): Promise<void> {
  if (session.sessionId === undefined) {
    await endSessions(db, userId)
    return
  }
  const endsAt = new Date((session.signedInAt + authSettings().sessionMaxAgeSeconds) * 1000)
  await sql`delete from ${sql.id(ENDED_SESSIONS)} where ends_at < now()`.execute(db)
  await sql`insert into ${sql.id(ENDED_SESSIONS)} (sid, user_id, ends_at) values (${session.sessionId}, ${userId}, ${endsAt})
    on conflict (sid) do nothing`.execute(db)
  await forgetPrincipal(db, userId)
}

/** Ends every session of the user (every token made so far) and answers the new version. */
export async function endSessions(db: Executor, userId: number): Promise<number> {
  const r = await sql<{ session_version: number }>`
    update "user" set session_version = session_version + 1 where id = ${userId} returning session_version`.execute(db)
  await forgetPrincipal(db, userId)
  return r.rows[0]?.session_version ?? 0
}

const isNewPassword = (v: unknown) => typeof v === 'string' && v !== ''

/**
 * The user's (and every entity extending it) engine rule: a write that sets a new password
 * moves the session version in the same transaction, so the change and the end of the old
 * sessions commit together. Wraps the module's other user rules.
 */
export function withSessionVersion(rules: EntityHooks): EntityHooks {
  return {
    ...rules,
    async beforeValidate(ctx) {
      await rules.beforeValidate?.(ctx)
      if (ctx.action !== 'update' || !ctx.before || !isNewPassword(ctx.input.password)) return
      // The row is locked by the update: the version read here is the one replaced.
      ctx.input.session_version = (await sessionVersionOf(ctx.trx, ctx.before.id as number)) + 1
    },
  }
}

/**
 * A short fingerprint of a stored password hash, keyed with the server's secret: a reset
 * link carries it, so the link works only while that password stands (used once, it is
 * spent) and reveals nothing of the hash.
 */
export function passwordTagOf(secret: string, passwordHash: string): string {
  return createHmac('sha256', secret).update(`password-reset:${passwordHash}`).digest('base64url').slice(0, 22)
}
