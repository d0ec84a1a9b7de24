import type { FastifyInstance, FastifyRequest } from 'fastify'
import '@fastify/rate-limit'
import { TooManyRequestsError } from '../engine/errors'

/**
 * Sign-in throttling: failed attempts are counted per account and per client address in a
 * window (the store of @fastify/rate-limit, so a shared store can be plugged in for several
 * servers). Once either count reaches its limit, every attempt for that account or from that
 * address is refused with 429 and a Retry-After until the window ends, whatever the password.
 *
 * Only failures count, and only a successful sign-in with the password (`succeed`) starts
 * the account's count again, so a user's own later typo starts from zero. Nothing else may:
 * the count once followed the last sign-in time, which the user's app moves whenever it
 * renews its session, and so wiped an attacker's failures behind the user's back.
 */
export type ThrottleOptions = { perAccount: number; perAddress: number; windowMs: number }
export const DEFAULT_THROTTLE: ThrottleOptions = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 }

export type LoginThrottle = {
  /** Throws 429 when the account or the address has used up its failures. */
  check: (request: FastifyRequest, account: string) => Promise<void>
  /** Counts a failed attempt against both. */
  fail: (request: FastifyRequest, account: string) => Promise<void>
  /** A sign-in with the right password: the account's failures are forgiven. */
  succeed: (account: string) => void
}

export function loginThrottle(app: FastifyInstance, options: ThrottleOptions = DEFAULT_THROTTLE): LoginThrottle {
  const accounts = new WeakMap<FastifyRequest, string>()
  // The account's count lives under a key with a generation that only a success moves
  // (the store has no reset); entries exist only for accounts that have signed in.
  const generations = new Map<string, number>()
  const keyOf = (account: string) => `account:${account}#${generations.get(account) ?? 0}`
  const byAccount = app.createRateLimit({ max: options.perAccount, timeWindow: options.windowMs, keyGenerator: (req) => keyOf(accounts.get(req) ?? '') })
  const byAddress = app.createRateLimit({ max: options.perAddress, timeWindow: options.windowMs, keyGenerator: (req) => `address:${req.ip}` })
  return {
    async check(request, account) {
      accounts.set(request, account)
      for (const limiter of [byAccount, byAddress]) {
        const state = await limiter(request, { increment: false })
        if (!state.isAllowed && state.remaining === 0) {
          const seconds = Math.max(1, state.ttlInSeconds)
          throw new TooManyRequestsError({ key: 'detail.throttled', params: { seconds } }, seconds)
        }
      }
    },
    async fail(request, account) {
      accounts.set(request, account)
      await byAccount(request)
      await byAddress(request)
    },
    succeed(account) {
      generations.set(account, (generations.get(account) ?? 0) + 1)
    },
  }
}

/**
 * A plain per-key limit on a public route that anyone may call (registration, a password
 * reset request): every call counts, and the call after `max` of them for one key in the
 * window is refused with 429 and `message` (a `detail.*` key taking `{{seconds}}`).
 */
export type RequestLimit = { max: number; windowMs: number }

export function requestLimiter(app: FastifyInstance, options: RequestLimit & { name: string; message: string }) {
  const { name, message } = options
  const keys = new WeakMap<FastifyRequest, string>()
  // Named keys: a shared store (several servers) holds every limiter's counts side by side.
  const limiter = app.createRateLimit({ max: options.max, timeWindow: options.windowMs, keyGenerator: (req) => `${name}:${keys.get(req) ?? req.ip}` })
  return async (request: FastifyRequest, key: string): Promise<void> => {
    keys.set(request, key)
    const state = await limiter(request)
    if (!state.isAllowed && state.isExceeded) {
      const seconds = Math.max(1, state.ttlInSeconds)
      throw new TooManyRequestsError({ key: message, params: { seconds } }, seconds)
    }
  }
}
