import { createHash } from 'node:crypto'
import { sql } from 'kysely'
import { isEmbedded } from '../db/connect'
import type { Db } from '../db/types'
import { TooManyRequestsError } from '../engine/errors'

/**
 * Throttles and rate limits count where every server sees the same counts: on PostgreSQL in
 * the database itself (`rate_limit`, migration 11), so servers behind a load balancer share
 * them and nothing else needs to run. Each key counts hits in a fixed window that begins with
 * its first hit, measured by the database's clock, so servers whose clocks differ agree.
 *
 * The embedded database belongs to one process, and has one connection: there the counts
 * are kept beside it in that process's memory, by the same rules. Counted in its one
 * connection, a limit would queue the answers it guards behind whatever transaction holds
 * that connection — a public route such as the forgotten password's must answer at once
 * whoever is writing (tests/server/password-reset.test.ts), and a counting write per call
 * is a cost the single connection would pay for nothing.
 */
type Count = { hits: number; seconds: number }

export type Counter = {
  /** Counts one hit on each key (on PostgreSQL one statement, its rows locked: servers never lose a hit); answers each key's count and the seconds its window has left. */
  hit: (keys: readonly string[], windowMs: number) => Promise<Count[]>
  /** The keys' counts in their current windows, counting nothing. */
  peek: (keys: readonly string[]) => Promise<Count[]>
  /** Starts a key's count again. */
  reset: (key: string) => Promise<void>
}

// Keys carry e-mails and addresses a caller chose: long ones are stored by their digest, which
// keeps the primary key's index entries small and changes no count.
const storedKey = (key: string) => (key.length <= 200 ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`)
/** Ended windows are dropped now and then by whichever server counts; meanwhile an ended one reads as none, and the next hit starts its key afresh. */
const SWEEP_EVERY_MS = 60_000

const countOf = (row: { hits: number; seconds: number } | undefined): Count => (row ? { hits: Number(row.hits), seconds: Math.max(1, Number(row.seconds)) } : { hits: 0, seconds: 0 })

function databaseCounter(db: Db): Counter {
  let sweptAt = 0
  const sweep = async () => {
    if (Date.now() - sweptAt < SWEEP_EVERY_MS) return
    sweptAt = Date.now()
    await sql`delete from rate_limit where resets_at <= now()`.execute(db)
  }
  return {
    async hit(keys, windowMs) {
      await sweep()
      const rows = [...new Set(keys.map(storedKey))].map((k) => sql`(${k}, 1, now() + ${windowMs / 1000}::double precision * interval '1 second')`)
      const r = await sql<{ key: string; hits: number; seconds: number }>`
        insert into rate_limit as r (key, hits, resets_at) values ${sql.join(rows)}
        on conflict (key) do update set
          hits = case when r.resets_at <= now() then 1 else r.hits + 1 end,
          resets_at = case when r.resets_at <= now() then excluded.resets_at else r.resets_at end
        returning r.key, r.hits, ceil(extract(epoch from r.resets_at - now()))::integer as seconds`.execute(db)
      return keys.map((k) => countOf(r.rows.find((row) => row.key === storedKey(k))))
    },
    async peek(keys) {
      const r = await sql<{ key: string; hits: number; seconds: number }>`
        select key, hits, ceil(extract(epoch from resets_at - now()))::integer as seconds
        from rate_limit where key = any(${keys.map(storedKey)}) and resets_at > now()`.execute(db)
      return keys.map((k) => countOf(r.rows.find((row) => row.key === storedKey(k))))
    },
    async reset(key) {
      await sql`delete from rate_limit where key = ${storedKey(key)}`.execute(db)
    },
  }
}

// By database: two apps of one process on one embedded database count together, as two servers on PostgreSQL do.
const MAX_MEMORY_KEYS = 100_000
const memoryCounts = new WeakMap<object, Map<string, { hits: number; resetsAt: number }>>()

function memoryCounter(db: Db): Counter {
  let counts = memoryCounts.get(db)
  if (!counts) memoryCounts.set(db, (counts = new Map()))
  const live = counts
  let sweptAt = 0
  const sweep = (now: number) => {
    if (now - sweptAt < SWEEP_EVERY_MS) return
    sweptAt = now
    for (const [key, entry] of live) if (entry.resetsAt <= now) live.delete(key)
  }
  const countAt = (key: string, now: number): Count => {
    const entry = live.get(storedKey(key))
    return entry && entry.resetsAt > now ? countOf({ hits: entry.hits, seconds: Math.ceil((entry.resetsAt - now) / 1000) }) : countOf(undefined)
  }
  return {
    async hit(keys, windowMs) {
      const now = Date.now()
      sweep(now)
      for (const key of new Set(keys.map(storedKey))) {
        const entry = live.get(key)
        if (entry && entry.resetsAt > now) entry.hits++
        else {
          live.delete(key)
          live.set(key, { hits: 1, resetsAt: now + windowMs })
          // Bounded as @fastify/rate-limit's store was: past the bound the oldest window goes.
          if (live.size > MAX_MEMORY_KEYS) live.delete(live.keys().next().value!)
        }
      }
      return keys.map((k) => countAt(k, now))
    },
    async peek(keys) {
      const now = Date.now()
      return keys.map((k) => countAt(k, now))
    },
    async reset(key) {
      live.delete(storedKey(key))
    },
  }
}

/** The counter every server of this database shares. */
export const sharedCounter = (db: Db): Counter => (isEmbedded(db) ? memoryCounter(db) : databaseCounter(db))

/**
 * Sign-in throttling: failed attempts are counted per account and per client address in a
 * window. Once either count reaches its limit, every attempt for that account or from that
 * address is refused with 429 and a Retry-After until the window ends, whatever the password.
 *
 * Only failures count, and only a successful sign-in with the password (`succeed`) starts
 * the account's count again, on every server, so a user's own later typo starts from zero.
 * Nothing else may: the count once followed the last sign-in time, which the user's app
 * moves whenever it renews its session, and so wiped an attacker's failures behind the
 * user's back.
 */
export type ThrottleOptions = { perAccount: number; perAddress: number; windowMs: number }
export const DEFAULT_THROTTLE: ThrottleOptions = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 }

export type LoginThrottle = {
  /** Throws 429 when the account or the address has used up its failures. */
  check: (account: string, address: string) => Promise<void>
  /** Counts a failed attempt against both. */
  fail: (account: string, address: string) => Promise<void>
  /** A sign-in with the right password: the account's failures are forgiven. */
  succeed: (account: string) => Promise<void>
}

export function loginThrottle(db: Db, options: ThrottleOptions = DEFAULT_THROTTLE): LoginThrottle {
  const counter = sharedCounter(db)
  const accountKey = (account: string) => `account:${account}`
  const addressKey = (address: string) => `address:${address}`
  return {
    async check(account, address) {
      const [byAccount, byAddress] = await counter.peek([accountKey(account), addressKey(address)])
      for (const [count, max] of [[byAccount!, options.perAccount], [byAddress!, options.perAddress]] as const) {
        if (count.hits >= max) throw new TooManyRequestsError({ key: 'detail.throttled', params: { seconds: count.seconds } }, count.seconds)
      }
    },
    async fail(account, address) {
      await counter.hit([accountKey(account), addressKey(address)], options.windowMs)
    },
    async succeed(account) {
      await counter.reset(accountKey(account))
    },
  }
}

/**
 * A plain per-key limit on a public route that anyone may call (registration, a password
 * reset request): every call counts, and the call after `max` of them for one key in the
 * window is refused with 429 and `message` (a `detail.*` key taking `{{seconds}}`).
 */
export type RequestLimit = { max: number; windowMs: number }

export function requestLimiter(db: Db, options: RequestLimit & { name: string; message: string }) {
  const { name, message, max, windowMs } = options
  const counter = sharedCounter(db)
  // Named keys: every limiter's counts live side by side in one table.
  return async (key: string): Promise<void> => {
    const [count] = await counter.hit([`${name}:${key}`], windowMs)
    if (count!.hits > max) throw new TooManyRequestsError({ key: message, params: { seconds: count!.seconds } }, count!.seconds)
  }
}
