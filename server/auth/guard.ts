import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Db } from '../db/types'
import { ForbiddenError, UnauthorizedError } from '../engine/errors'
import { can, loadPrincipal, type Principal } from './principal'
import { TokenError, verifyToken } from './tokens'

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal
  }
  interface FastifyContextConfig {
    /** Permission the route needs (`THANA_LIST`); absent on routes any signed-in user may call. */
    permission?: string
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
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request.headers.authorization)
    if (!token) throw new UnauthorizedError('Authentication credentials were not provided.')
    let userId: number
    try {
      userId = (await verifyToken(secret, token)).userId
    } catch (e) {
      const reason = e instanceof TokenError ? e.reason : 'invalid'
      throw new TokenInvalidError(reason === 'expired' ? 'Token is expired' : 'Given token not valid for any token type')
    }
    const principal = await loadPrincipal(db, userId)
    if (!principal || !principal.isActive) throw new TokenInvalidError('User not found or inactive')
    request.principal = principal
  }
}

export async function authorize(request: FastifyRequest): Promise<void> {
  const permission = request.routeOptions.config.permission
  const principal = request.principal
  if (!principal) throw new UnauthorizedError('Authentication credentials were not provided.')
  if (permission && !can(principal, permission)) {
    throw new ForbiddenError(`You don't have these permissions [${permission}]`)
  }
}
