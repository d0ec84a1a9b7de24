import type { FastifyInstance, FastifyRequest } from 'fastify'
import '@fastify/rate-limit'
import { TooManyRequestsError } from '../engine/errors'

/**
 * Sign-in throttling: failed attempts are counted per account and per client address in a
 * window (the store of @fastify/rate-limit, so a shared store can be plugged in for several
 * servers). Once either count reaches its limit, every attempt for that account or from that
 * address is refused with 429 and a Retry-After until the window ends, whatever the password.
 * Only failures count; the caller makes the account key change after a success (it includes
 * the last sign-in time), so a user's own later typo starts from zero.
 */
export type ThrottleOptions = { perAccount: number; perAddress: number; windowMs: number }
export const DEFAULT_THROTTLE: ThrottleOptions = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 }

export type LoginThrottle = {
  /** Throws 429 when the account or the address has used up its failures. */
  check: (request: FastifyRequest, account: string) => Promise<void>
  /** Counts a failed attempt against both. */
  fail: (request: FastifyRequest, account: string) => Promise<void>
}

export function loginThrottle(app: FastifyInstance, options: ThrottleOptions = DEFAULT_THROTTLE): LoginThrottle {
  const accounts = new WeakMap<FastifyRequest, string>()
  const byAccount = app.createRateLimit({ max: options.perAccount, timeWindow: options.windowMs, keyGenerator: (req) => `account:${accounts.get(req)}` })
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
  }
}
