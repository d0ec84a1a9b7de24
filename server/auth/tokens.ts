import { createSecretKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto'
import { SignJWT, jwtVerify, errors, type JWTPayload } from 'jose'

/**
 * HS256 tokens with the claims of the original backend (api-contract §3.1):
 * token_type, exp, iat, jti, user_id. Access lasts 7 days, refresh 1 day.
 *
 * Two claims of our own make sessions revocable and bounded (server/auth/sessions.ts):
 * `ver`, the user's session version when the token was made (a password change or a
 * logout moves it, ending every token made before), and `auth_time`, when the session
 * began with a password (renewals carry it on, so a session cannot be renewed forever).
 * A token without them (made before they existed) counts as version 0, begun at `iat`.
 * `sid` names the session (one sign-in on one device, renewals included): a logout ends
 * that session alone.
 */
export const ACCESS_TTL_SECONDS = 7 * 24 * 3600
export const REFRESH_TTL_SECONDS = 24 * 3600
/** A password-reset link is good for an hour. */
export const PASSWORD_RESET_TTL_SECONDS = 3600

export type TokenKind = 'access' | 'refresh' | 'password_reset'

export class TokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'Token is expired' : 'Token is invalid')
  }
}

/** What a verified token says about its session. */
export type TokenClaims = {
  userId: number
  /** The user's session version the token was made at. */
  version: number
  /** When the session began with a password, in seconds since the epoch. */
  signedInAt: number
  /** The session (one sign-in, its renewals included); absent on tokens made before sessions were named. */
  sessionId?: string
  /** Expiry, in seconds since the epoch. */
  exp: number
  /** A password-reset token's fingerprint of the password it may replace (single use). */
  passwordTag?: string
}

export type SignOptions = {
  /** The user's session version (default 0). */
  version?: number
  /** When the session began (seconds); default now. */
  signedInAt?: number
  /** The latest the token may expire (seconds): the session's absolute end. */
  notAfter?: number
  /** The session the token belongs to. */
  sessionId?: string
  /** Password-reset tokens: the fingerprint of the stored password hash. */
  passwordTag?: string
}

// Importing the key on every call was a tenth of the server's CPU under load: keep one.
const keys = new Map<string, KeyObject>()
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret)
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))))
  return key
}

/**
 * Tokens already verified, until they expire: a token is immutable, so checking its
 * signature again on every request of a session adds nothing (whether its session still
 * stands is checked against the user's row, see guard.ts). Bounded.
 */
const verified = new Map<string, { claims: TokenClaims; kind: TokenKind; secret: string }>()
const VERIFIED_MAX = 10_000

const TTL: Record<TokenKind, number> = { access: ACCESS_TTL_SECONDS, refresh: REFRESH_TTL_SECONDS, password_reset: PASSWORD_RESET_TTL_SECONDS }

export async function signToken(secret: string, userId: number, kind: TokenKind = 'access', options: SignOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const exp = Math.min(now + TTL[kind], options.notAfter ?? Number.POSITIVE_INFINITY)
  const claims: JWTPayload = { token_type: kind, user_id: userId, ver: options.version ?? 0, auth_time: options.signedInAt ?? now }
  if (options.passwordTag !== undefined) claims.pwd = options.passwordTag
  if (options.sessionId !== undefined) claims.sid = options.sessionId
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setJti(randomUUID().replace(/-/g, ''))
    .setExpirationTime(exp)
    .sign(keyOf(secret))
}

const SESSION_ID = /^[A-Za-z0-9_-]{16,64}$/

/** A new session's name: 128 random bits. */
export const newSessionId = (): string => randomBytes(16).toString('base64url')

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

/**
 * The claims of a token whose signature checked out, or an error. `user_id` must be a
 * positive integer a bigint id can be (a safe integer, so never ≥ 2^63): anything else,
 * however well signed, is an invalid token, never a failed query.
 */
function claimsOf(payload: JWTPayload, kind: TokenKind): TokenClaims {
  const { user_id: userId, ver, auth_time: authTime, pwd, sid } = payload
  if (payload.token_type !== kind || !isCount(userId) || userId === 0) throw new TokenError('invalid')
  if (ver !== undefined && !isCount(ver)) throw new TokenError('invalid')
  if (authTime !== undefined && !isCount(authTime)) throw new TokenError('invalid')
  if (pwd !== undefined && typeof pwd !== 'string') throw new TokenError('invalid')
  if (sid !== undefined && (typeof sid !== 'string' || !SESSION_ID.test(sid))) throw new TokenError('invalid')
  return {
    userId,
    version: ver ?? 0,
    signedInAt: authTime ?? payload.iat ?? 0,
    exp: payload.exp!,
    ...(pwd === undefined ? {} : { passwordTag: pwd }),
    ...(sid === undefined ? {} : { sessionId: sid }),
  }
}

/** Verifies signature (HS256 only, so `alg: none` and key confusion fail), expiry and type. */
export async function verifyToken(secret: string, token: string, kind: TokenKind = 'access'): Promise<TokenClaims> {
  const hit = verified.get(token)
  if (hit && hit.secret === secret && hit.kind === kind) {
    if (hit.claims.exp * 1000 > Date.now()) return hit.claims
    verified.delete(token)
    throw new TokenError('expired')
  }
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { algorithms: ['HS256'], requiredClaims: ['exp', 'user_id'] })
    const claims = claimsOf(payload, kind)
    if (verified.size >= VERIFIED_MAX) verified.clear()
    verified.set(token, { claims, kind, secret })
    return claims
  } catch (e) {
    if (e instanceof TokenError) throw e
    throw new TokenError(e instanceof errors.JWTExpired ? 'expired' : 'invalid')
  }
}
