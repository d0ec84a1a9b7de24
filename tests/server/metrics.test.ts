import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { buildApp, defaultModules } from '../../server/app'
import { ConfigError } from '../../server/config'
import { metricsTokenOf } from '../../server/http/metrics'
import { OUTBOX_TABLE, queueMail } from '../../server/mail/outbox'
import { startMailSender } from '../../server/mail/sender'
import type { MailTransport } from '../../server/mail/transport'
import { sql } from 'kysely'
import { describeEachDatabase, JWT_SECRET } from './helpers/app'

/**
 * `GET /metrics` (issue 26, "Operating it"): Prometheus' text format with its own bearer
 * token (METRICS_TOKEN), off without one; requests counted and timed by route pattern, the
 * database pool, the outbox's backlog, the process's own metrics.
 */
const TOKEN = 'metrics-token-of-the-tests-0123456789'

// The test app is built with the environment's token: none here, whatever the shell has.
delete process.env.METRICS_TOKEN

/** The value of one sample (`name{labels} value`) in the text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`)
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const have = (m[2] ?? '').split(',').filter(Boolean)
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(m[3])
  }
  return undefined
}

describe('METRICS_TOKEN', () => {
  it('is off when unset or empty, refused when short or spaced', () => {
    expect(metricsTokenOf({})).toBeNull()
    expect(metricsTokenOf({ METRICS_TOKEN: '  ' })).toBeNull()
    expect(metricsTokenOf({ METRICS_TOKEN: TOKEN })).toBe(TOKEN)
    expect(() => metricsTokenOf({ METRICS_TOKEN: 'short' })).toThrow(ConfigError)
    expect(() => metricsTokenOf({ METRICS_TOKEN: 'a long token with spaces in it' })).toThrow(ConfigError)
  })
})

describeEachDatabase('metrics', (t, kind) => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await buildApp({ db: t.current.db, jwtSecret: JWT_SECRET, mediaDir: t.current.mediaDir, modules: defaultModules(), metricsToken: TOKEN })
  })
  afterAll(async () => {
    await app?.close()
  })
  const scrape = async () => {
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    return res.body
  }

  it('is off without a METRICS_TOKEN: 404, whoever asks', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }, { authorization: `Bearer ${await t.current.token()}` }]) {
      const res = await t.current.app.inject({ method: 'GET', url: '/metrics', headers })
      expect(res.statusCode).toBe(404)
      expect(JSON.parse(res.body)).toEqual({ detail: expect.any(String) })
    }
  })

  it('needs its token: 401 without it, with another, or with a user’s token', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, `Bearer ${await t.current.token()}`]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} })
      expect(res.statusCode, String(authorization)).toBe(401)
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/)
      expect(JSON.parse(res.body).detail).toContain('METRICS_TOKEN')
    }
    const tr = await app.inject({ method: 'GET', url: '/metrics', headers: { 'accept-language': 'tr' } })
    expect(JSON.parse(tr.body).detail).toMatch(/belirte/)
  })

  it('counts and times requests by route pattern, method and status class, never by URL', async () => {
    const base = registry.country.api.base
    const route = `${base}/:id`
    const before = await scrape()
    const labels = { method: 'GET', route, status_class: '4xx' }
    const was = sample(before, 'http_requests_total', labels) ?? 0
    const admin = { authorization: `Bearer ${await t.current.token()}` }
    for (const id of [999999901, 999999902, 999999903]) expect((await app.inject({ method: 'GET', url: `${base}/${id}`, headers: admin })).statusCode).toBe(404)
    // Without a token: a 401 of the same route.
    expect((await app.inject({ method: 'GET', url: `${base}/999999904` })).statusCode).toBe(401)
    // No route at all: one label for every unknown address.
    await app.inject({ method: 'GET', url: '/no/such/address/123' })
    const text = await scrape()
    expect(sample(text, 'http_requests_total', labels)).toBe(was + 4)
    expect(sample(text, 'http_request_duration_seconds_count', labels)).toBe(was + 4)
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(was + 4)
    expect(sample(text, 'http_request_duration_seconds_sum', labels)).toBeGreaterThan(0)
    expect(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status_class: '4xx' })).toBeGreaterThanOrEqual(1)
    // Its own scrapes count too.
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/metrics', status_class: '2xx' })).toBeGreaterThanOrEqual(1)
    expect(text).not.toContain('999999901')
    expect(text).not.toContain('/no/such/address')
  })

  it("reports the database pool's use", async () => {
    await app.inject({ method: 'GET', url: '/api/health' })
    const text = await scrape()
    // The tests' PostgreSQL pool opens at most 4; PGlite's is its one connection.
    expect(sample(text, 'db_pool_max_connections')).toBe(kind === 'pglite' ? 1 : 4)
    const inUse = sample(text, 'db_pool_connections', { state: 'in_use' })!
    const idle = sample(text, 'db_pool_connections', { state: 'idle' })!
    expect(inUse).toBeGreaterThanOrEqual(0)
    expect(idle).toBeGreaterThanOrEqual(0)
    expect(inUse + idle).toBeGreaterThanOrEqual(1)
    expect(inUse + idle).toBeLessThanOrEqual(kind === 'pglite' ? 1 : 4)
    expect(sample(text, 'db_pool_waiting_requests')).toBe(0)
  })

  it('reports the outbox: a queued mail moves its backlog', async () => {
    const before = await scrape()
    const queued = sample(before, 'outbox_messages', { status: 'queued' })!
    expect(queued).toBeGreaterThanOrEqual(0)
    expect(sample(before, 'outbox_messages', { status: 'failed' })).toBeGreaterThanOrEqual(0)
    await t.current.db.transaction().execute((trx) => queueMail(trx, { to: 'someone@example.com', subject: 'Metrics', text: 'Counted.' }))
    const after = await scrape()
    expect(sample(after, 'outbox_messages', { status: 'queued' })).toBe(queued + 1)
    expect(sample(after, 'outbox_oldest_pending_seconds')).toBeGreaterThanOrEqual(0)
  })

  it('counts attempts to send a mail by result: sent, retrying, failed for good', async () => {
    const before = await scrape()
    const was = (result: string) => sample(before, 'mail_send_attempts_total', { result })!
    expect([was('sent'), was('retrying'), was('failed')].every((n) => n >= 0)).toBe(true)
    let isDown = true
    const transport: MailTransport = {
      kind: 'smtp',
      send: async () => {
        if (isDown) throw new Error('relay down')
      },
      close: async () => {},
    }
    const sender = startMailSender({ db: t.current.db, transport, pollMs: 3_600_000, maxAttempts: 2, backoffSeconds: () => 0, onAttempt: app.metrics.mailAttempt })
    try {
      // Only this test's mails are due: the others are pushed out of the sender's reach.
      await sql`update ${sql.id(OUTBOX_TABLE)} set next_attempt_at = now() + interval '1 day' where status in ('queued', 'retrying')`.execute(t.current.db)
      await t.current.db.transaction().execute((trx) => queueMail(trx, { to: 'fails@example.com', subject: 'Fails twice', text: '…' }))
      await sender.runOnce() // attempt 1: retrying
      await sender.runOnce() // attempt 2 of 2: failed
      isDown = false
      await t.current.db.transaction().execute((trx) => queueMail(trx, { to: 'goes@example.com', subject: 'Goes', text: '…' }))
      await sender.runOnce()
    } finally {
      await sender.stop()
    }
    const text = await scrape()
    expect(sample(text, 'mail_send_attempts_total', { result: 'retrying' })).toBe(was('retrying') + 1)
    expect(sample(text, 'mail_send_attempts_total', { result: 'failed' })).toBe(was('failed') + 1)
    expect(sample(text, 'mail_send_attempts_total', { result: 'sent' })).toBe(was('sent') + 1)
  })

  it("carries the process's own metrics", async () => {
    const text = await scrape()
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0)
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    expect(text).toMatch(/^# HELP http_requests_total /m)
  })
})
