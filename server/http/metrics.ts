import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import { ConfigError } from '../config'
import { poolOf } from '../db/connect'
import type { Db } from '../db/types'
import type { RouteDoc } from '../engine/openapi'
import { messageFor } from '../i18n'
import { OUTBOX_TABLE } from '../mail/outbox'
import type { MailAttempt } from '../mail/sender'
import { routeOf } from './request-log'

/**
 * `GET /metrics` in Prometheus' text format (prom-client): requests and their latency per
 * route, the database pool's use, the outbox's backlog and its failed mails, and the
 * process's own (CPU, memory, event loop, GC).
 *
 * Not for the internet: it answers only with `Authorization: Bearer <METRICS_TOKEN>` (401
 * otherwise), and without a METRICS_TOKEN it is off (404, as an unknown address). It is
 * outside the API's guard (`isPublic`: no user's token) as the scraper is no user.
 */
export const METRICS_PATH = '/metrics'

/** At least this long: a token a scraper keeps in its configuration, not a password a person types. */
const MIN_TOKEN_LENGTH = 16

/** The metrics token from the environment (`METRICS_TOKEN`); none: /metrics is off. */
export function metricsTokenOf(env: NodeJS.ProcessEnv = process.env): string | null {
  const token = env.METRICS_TOKEN?.trim()
  if (!token) return null
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) throw new ConfigError(`Invalid configuration:\n  - METRICS_TOKEN: must be at least ${MIN_TOKEN_LENGTH} characters, without spaces`)
  return token
}

/** Latency buckets, in seconds: a list's 5 ms to an export's half a minute. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
/** The outbox is counted at most this long: a slow database must not hold the scrape. */
const QUERY_BUDGET_MS = 2_000
const PENDING = ['queued', 'retrying'] as const
const COUNTED = [...PENDING, 'failed'] as const
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * The process's metrics (prom-client's defaults) once per process, however many apps it
 * builds (tests build many): each collection keeps observers and timers for good.
 */
let processRegistry: Registry | undefined
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry })
  }
  return processRegistry
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
    timer.unref()
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

type OutboxCount = { status: string; count: number | string; oldest: number | string | null }

/**
 * The outbox by status, from the table every server shares: the same backlog whichever
 * server is scraped. One count at a time: scrapes that meet share it.
 */
function outboxCounter(db: Db): () => Promise<OutboxCount[]> {
  let current: Promise<OutboxCount[]> | null = null
  return () => {
    current ??= sql<OutboxCount>`
      select status, count(*) as count, extract(epoch from now() - min(created_at))::float8 as oldest
      from ${sql.id(OUTBOX_TABLE)} where status in (${sql.join(COUNTED)}) group by status`
      .execute(db)
      .then((r) => r.rows)
      .finally(() => {
        current = null
      })
    return within(current, QUERY_BUDGET_MS)
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics that are not requests: the mail sender (started beside the app) counts its attempts here. */
    metrics: { mailAttempt: (result: MailAttempt) => void }
  }
}

function appMetrics(db: Db): {
  registry: Registry
  refresh: () => Promise<void>
  observe: (labels: { method: string; route: string; status_class: string }, seconds: number) => void
  mailAttempt: (result: MailAttempt) => void
} {
  const registry = new Registry()
  const labelNames = ['method', 'route', 'status_class'] as const
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route pattern, method and status class.', labelNames, registers: [registry] })
  const latency = new Histogram({ name: 'http_request_duration_seconds', help: 'Time to answer an HTTP request, by route pattern, method and status class.', labelNames, buckets: LATENCY_BUCKETS, registers: [registry] })
  // The pool of the database (PGlite's is one connection: in use or idle).
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database connections of this server, by state (in_use, idle).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = poolOf(db)
      if (!pool) return
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount)
      this.set({ state: 'idle' }, pool.idleCount)
    },
  })
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries of this server waiting for a database connection.',
    registers: [registry],
    collect() {
      const pool = poolOf(db)
      if (pool) this.set(pool.waitingCount)
    },
  })
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'The most database connections this server opens.',
    registers: [registry],
    collect() {
      const pool = poolOf(db)
      if (pool) this.set(pool.options.max ?? 10)
    },
  })
  const outbox = new Gauge({
    name: 'outbox_messages',
    help: 'Mails in the outbox not sent yet (queued, retrying) and failed for good (failed: an admin may send them again), on every server alike.',
    labelNames: ['status'],
    registers: [registry],
  })
  const oldest = new Gauge({ name: 'outbox_oldest_pending_seconds', help: 'Age of the oldest mail not sent yet (queued or retrying); 0 when none waits.', registers: [registry] })
  // Per attempt, on the server that made it: the outbox's gauges say where messages stand, this how sending goes (a rate of failures).
  const attempts = new Counter({ name: 'mail_send_attempts_total', help: 'Attempts of this server to send a mail, by result (sent; retrying: failed, tried again later; failed: the last attempt failed).', labelNames: ['result'], registers: [registry] })
  for (const result of ['sent', 'retrying', 'failed'] as const) attempts.inc({ result }, 0)
  const countOutbox = outboxCounter(db)
  // Counted once per scrape, before the text is made (both gauges from one count).
  const refresh = async (): Promise<void> => {
    const rows = await countOutbox().catch(() => null)
    // No count in time: no value rather than a stale one (NaN where the gauge has no labels).
    outbox.reset()
    if (!rows) return oldest.set(Number.NaN)
    for (const status of COUNTED) outbox.set({ status }, Number(rows.find((r) => r.status === status)?.count ?? 0))
    const ages = rows.filter((r) => (PENDING as readonly string[]).includes(r.status) && r.oldest !== null).map((r) => Number(r.oldest))
    oldest.set(ages.length > 0 ? Math.max(0, ...ages) : 0)
  }
  return {
    registry: Registry.merge([processMetrics(), registry]),
    refresh,
    observe: (labels, seconds) => {
      requests.inc(labels)
      latency.observe(labels, seconds)
    },
    mailAttempt: (result) => attempts.inc({ result }),
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest()

/** Whether the Authorization header carries the token (compared in constant time). */
function carriesToken(header: string | undefined, token: string): boolean {
  const given = header ? /^\s*Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined
  return given !== undefined && timingSafeEqual(digest(given), digest(token))
}

const metricsDoc = (): RouteDoc => ({
  summary: 'Metrics for Prometheus',
  description:
    'The server\'s metrics in Prometheus\' text format: `http_requests_total` and `http_request_duration_seconds` by route pattern, method and status class; `db_pool_connections`, `db_pool_waiting_requests`, `db_pool_max_connections`; `outbox_messages` by status and `outbox_oldest_pending_seconds`; `mail_send_attempts_total` by result (sent, retrying, failed); the process\'s own (prom-client\'s defaults). Needs `Authorization: Bearer <METRICS_TOKEN>` (the server\'s environment), not a user\'s token; without a METRICS_TOKEN it answers 404.',
  responses: {
    200: { description: 'The metrics.', content: { 'text/plain': { schema: { type: 'string' }, example: 'http_requests_total{method="GET",route="/api/health",status_class="2xx"} 3\n' } } },
    401: { description: 'Without the metrics token.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Detail' } } } },
    404: { description: 'No METRICS_TOKEN is set: the metrics are off.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Detail' } } } },
  },
})

/** Counts and times every request of the app, and serves `GET /metrics` when a token is given. */
export function registerMetrics(app: FastifyInstance, options: { db: Db; token: string | null }): void {
  const { registry, refresh, observe, mailAttempt } = appMetrics(options.db)
  app.decorate('metrics', { mailAttempt })
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: METHODS.has(request.method) ? request.method : 'OTHER', route: routeOf(request), status_class: `${Math.floor(reply.statusCode / 100)}xx` }
    observe(labels, reply.elapsedTime / 1000)
  })
  app.get(METRICS_PATH, { config: { isPublic: true, openapi: metricsDoc } }, async (request, reply) => {
    const say = (key: string) => ({ detail: messageFor(request.headers['accept-language'], { key }) })
    if (options.token === null) return reply.code(404).send(say('detail.path_not_found'))
    if (!carriesToken(request.headers.authorization, options.token)) return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').send(say('detail.metrics_token'))
    await refresh()
    const text = await registry.metrics()
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text)
  })
}
