import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Db } from '../db/types'
import { ForbiddenError, UnauthorizedError } from '../engine/errors'
import { can, loadPrincipal, type Principal } from './principal'
import { TokenError, verifyToken, type TokenClaims } from './tokens'

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal
    /** The claims of the caller's access token (its session: version, sign-in time). */
    token?: TokenClaims
  }
  interface FastifyContextConfig {
    /** Permission the route needs (`THANA_LIST`), or a list of which any one will do; absent on routes any signed-in user may call. */
    permission?: string | readonly string[]
    /** Answers without a token (the registry's public actions, login, register). */
    isPublic?: boolean
    /** Path parameter holding a user id: that user passes without the permission (their own row). */
    selfParam?: string
    /** Query parameter holding a user id, with the same meaning (checks about one's own row). */
    selfQuery?: string
  }
}

export class TokenInvalidError extends UnauthorizedError {
  readonly code = 'token_not_valid'
}

/** Accepts `Bearer <jwt>` (what the original frontend stores and sends) or a bare JWT. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(header)
  return m ? m[1] : /^[\w-]+\.[\w-]*\.[\w-]*$/.test(header.trim()) ? header.trim() : undefined
}

export function authenticate(db: Db, secret: string) {
  const verified = verifiedCaller(db, secret)
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    // A public route never refuses for the token: a stale one must not lock a guest out. A
    // valid one still says who asks (a signed-in reader is shown who wrote the rows).
    if (request.routeOptions.config.isPublic) {
      if (!request.headers.authorization) return
      try {
        await verified(request)
      } catch {
        // Read as a guest.
      }
      return
    }
    await verified(request)
  }
}

/** Sets the request's caller from its token, or throws why it cannot (no token, not valid, session ended). */
function verifiedCaller(db: Db, secret: string) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request.headers.authorization)
    if (!token) throw new UnauthorizedError({ key: 'detail.no_credentials' })
    let claims: TokenClaims
    try {
      claims = await verifyToken(secret, token)
    } catch (e) {
      const reason = e instanceof TokenError ? e.reason : 'invalid'
      throw new TokenInvalidError(reason === 'expired' ? 'Token is expired' : 'Given token not valid for any token type')
    }
    const principal = await loadPrincipal(db, claims.userId)
    if (!principal || !principal.isActive) throw new TokenInvalidError('User not found or inactive')
    // A password change or a logout moved the user's version: this token's session is over.
    if (claims.version !== principal.sessionVersion) throw new TokenInvalidError('Session has ended')
    // A logout on this device ended this session alone.
    if (claims.sessionId !== undefined && principal.endedSessions.has(claims.sessionId)) throw new TokenInvalidError('Session has ended')
    request.principal = principal
    request.token = claims
  }
}

export async function authorize(request: FastifyRequest): Promise<void> {
  const { permission, isPublic, selfParam, selfQuery } = request.routeOptions.config
  if (isPublic) return
  const principal = request.principal
  if (!principal) throw new UnauthorizedError({ key: 'detail.no_credentials' })
  if (permission === undefined) return
  if (selfParam && String((request.params as Record<string, unknown>)[selfParam]) === String(principal.id)) return
  if (selfQuery && String((request.query as Record<string, unknown>)[selfQuery]) === String(principal.id)) return
  const wanted = typeof permission === 'string' ? [permission] : permission
  if (!wanted.some((p) => can(principal, p))) throw new ForbiddenError({ key: 'detail.forbidden', params: { permissions: wanted.join(', ') } })
}
