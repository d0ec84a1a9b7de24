import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto'
import { SignJWT, jwtVerify, errors } from 'jose'

/**
 * HS256 tokens with the claims of the original backend (api-contract §3.1):
 * token_type, exp, iat, jti, user_id. Access lasts 7 days, refresh 1 day.
 */
export const ACCESS_TTL_SECONDS = 7 * 24 * 3600
export const REFRESH_TTL_SECONDS = 24 * 3600

export type TokenKind = 'access' | 'refresh'

export class TokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'Token is expired' : 'Token is invalid')
  }
}

// Importing the key on every call was a tenth of the server's CPU under load: keep one.
const keys = new Map<string, KeyObject>()
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret)
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))))
  return key
}

/**
 * Tokens already verified, until they expire: a token is immutable and stateless, so
 * checking its signature again on every request of a session adds nothing. Bounded.
 */
const verified = new Map<string, { userId: number; kind: TokenKind; exp: number; secret: string }>()
const VERIFIED_MAX = 10_000

export async function signToken(secret: string, userId: number, kind: TokenKind = 'access'): Promise<string> {
  return new SignJWT({ token_type: kind, user_id: userId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setJti(randomUUID().replace(/-/g, ''))
    .setExpirationTime(`${kind === 'access' ? ACCESS_TTL_SECONDS : REFRESH_TTL_SECONDS}s`)
    .sign(keyOf(secret))
}

/** Verifies signature (HS256 only, so `alg: none` and key confusion fail), expiry and type. */
export async function verifyToken(secret: string, token: string, kind: TokenKind = 'access'): Promise<{ userId: number }> {
  const hit = verified.get(token)
  if (hit && hit.secret === secret && hit.kind === kind) {
    if (hit.exp * 1000 > Date.now()) return { userId: hit.userId }
    verified.delete(token)
    throw new TokenError('expired')
  }
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { algorithms: ['HS256'], requiredClaims: ['exp', 'user_id'] })
    const userId = payload.user_id
    if (payload.token_type !== kind || typeof userId !== 'number' || !Number.isInteger(userId)) throw new TokenError('invalid')
    if (verified.size >= VERIFIED_MAX) verified.clear()
    verified.set(token, { userId, kind, exp: payload.exp!, secret })
    return { userId }
  } catch (e) {
    if (e instanceof TokenError) throw e
    throw new TokenError(e instanceof errors.JWTExpired ? 'expired' : 'invalid')
  }
}
