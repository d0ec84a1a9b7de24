import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import { Kysely, PostgresDialect } from 'kysely'
import { describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { buildApp, defaultModules } from '../../server/app'
import { markDraining, READY_PATH, registerReadiness } from '../../server/http/readiness'
import type { Db } from '../../server/db/types'
import { describeEachDatabase, JWT_SECRET } from './helpers/app'
import { freshDatabase } from './helpers/databases'

/**
 * Operating several servers (issue 26): `/api/health` stays the liveness check, `/api/ready`
 * says whether the server may take requests (its database answers, it is not shutting
 * down), and every request carries an id — the balancer's when sane — answered in
 * `X-Request-Id` and written in its one JSON log line.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('readiness of a database that does not answer', () => {
  it('answers 503 in time, and asks it one question at a time', async () => {
    // A database behind an address that drops packets: a connection never comes.
    let asked = 0
    const pool = { connect: () => (asked++, new Promise<never>(() => {})), end: async () => {} }
    const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) })
    const app = Fastify()
    registerReadiness(app, { db, timeoutMs: 100 })
    try {
      const started = Date.now()
      const answers = await Promise.all([1, 2, 3].map(() => app.inject({ method: 'GET', url: READY_PATH })))
      expect(answers.map((r) => r.statusCode)).toEqual([503, 503, 503])
      expect(JSON.parse(answers[0]!.body)).toEqual({ status: 'unavailable' })
      expect((await app.inject({ method: 'GET', url: READY_PATH })).statusCode).toBe(503)
      expect(Date.now() - started).toBeLessThan(2_000)
      expect(asked).toBe(1)
    } finally {
      await app.close()
    }
  })
})

describeEachDatabase('readiness and request ids', (t, kind) => {
  it('is ready while the database answers, without a token; health stays liveness', async () => {
    const ready = await t.current.call({ method: 'GET', url: READY_PATH, asAnonymous: true })
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({ status: 'ready' })
    expect(ready.headers['cache-control']).toBe('no-store')
    // A stale token does not lock the balancer out.
    expect((await t.current.call({ method: 'GET', url: READY_PATH, headers: { authorization: 'Bearer not-a-token' } })).status).toBe(200)
    const health = await t.current.call({ method: 'GET', url: '/api/health', asAnonymous: true })
    expect(health.status).toBe(200)
    expect(health.body).toEqual({ status: 'ok' })
  })

  it('answers 503, never a 500, when its database is gone', async () => {
    const connection = await freshDatabase(kind)
    const mediaDir = mkdtempSync(join(tmpdir(), 'media-'))
    const app = await buildApp({ db: connection.db, jwtSecret: JWT_SECRET, mediaDir, modules: defaultModules(), metricsToken: null })
    try {
      expect((await app.inject({ method: 'GET', url: READY_PATH })).statusCode).toBe(200)
      await connection.close()
      for (let i = 0; i < 2; i++) {
        const res = await app.inject({ method: 'GET', url: READY_PATH })
        expect(res.statusCode, res.body).toBe(503)
        expect(JSON.parse(res.body)).toEqual({ status: 'unavailable' })
      }
    } finally {
      await app.close()
      rmSync(mediaDir, { recursive: true, force: true })
    }
  })

  it('answers 503 once marked draining (the first step of its shutdown)', async () => {
    const app = await buildApp({ db: t.current.db, jwtSecret: JWT_SECRET, mediaDir: t.current.mediaDir, modules: defaultModules(), metricsToken: null })
    try {
      expect((await app.inject({ method: 'GET', url: READY_PATH })).statusCode).toBe(200)
      markDraining(app)
      const res = await app.inject({ method: 'GET', url: READY_PATH })
      expect(res.statusCode).toBe(503)
      expect(JSON.parse(res.body)).toEqual({ status: 'unavailable' })
      // Liveness is not readiness: the process still answers, and so do requests in flight.
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    } finally {
      await app.close()
    }
    // The other app over the same database stays ready.
    expect((await t.current.call({ method: 'GET', url: READY_PATH, asAnonymous: true })).status).toBe(200)
  })

  it('gives every request an id, keeps a sane incoming one and replaces any other', async () => {
    const fresh = await t.current.call({ method: 'GET', url: '/api/health', asAnonymous: true })
    expect(String(fresh.headers['x-request-id'])).toMatch(UUID)
    const other = await t.current.call({ method: 'GET', url: '/api/health', asAnonymous: true })
    expect(other.headers['x-request-id']).not.toBe(fresh.headers['x-request-id'])
    const kept = 'lb-7f3a.9_Z-01'
    for (const url of ['/api/health', `${registry.country.api.base}/999999999`, '/no/such/address']) {
      const res = await t.current.call({ method: 'GET', url, headers: { 'x-request-id': kept } })
      expect(res.headers['x-request-id'], url).toBe(kept)
    }
    // Refused before the route (no token): still named.
    expect((await t.current.call({ method: 'GET', url: `${registry.country.api.base}/all/`, asAnonymous: true, headers: { 'x-request-id': kept } })).headers['x-request-id']).toBe(kept)
    for (const bad of ['has space', 'quote"d', 'a'.repeat(101), '', 'new\\nline', 'ünicode', 'semi;colon']) {
      const res = await t.current.call({ method: 'GET', url: '/api/health', asAnonymous: true, headers: { 'x-request-id': bad } })
      expect(String(res.headers['x-request-id']), bad).toMatch(UUID)
    }
    expect((await t.current.call({ method: 'GET', url: '/api/health', asAnonymous: true, headers: { 'x-request-id': 'a'.repeat(100) } })).headers['x-request-id']).toBe('a'.repeat(100))
  })

  it('logs one JSON line per request: its id, method, route pattern, status, duration and user', async () => {
    const lines: string[] = []
    const app = await buildApp({ db: t.current.db, jwtSecret: JWT_SECRET, mediaDir: t.current.mediaDir, modules: defaultModules(), metricsToken: null, logger: true, logStream: { write: (line) => lines.push(line) } })
    try {
      const token = await t.current.token()
      const base = registry.country.api.base
      await app.inject({ method: 'GET', url: `${base}/999999999?search=secret-words`, headers: { authorization: `Bearer ${token}`, 'x-request-id': 'signed-in-1' } })
      await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'anonymous-1' } })
      const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
      const of = (id: string) => logged.filter((l) => l.reqId === id)
      expect(of('signed-in-1')).toEqual([expect.objectContaining({ msg: 'request', method: 'GET', route: `${base}/:id`, status: 404, duration_ms: expect.any(Number), user_id: t.current.adminId, level: 30 })])
      expect(of('anonymous-1')).toEqual([expect.objectContaining({ msg: 'request', method: 'GET', route: '/api/health', status: 200 })])
      expect(of('anonymous-1')[0]).not.toHaveProperty('user_id')
      // Not the URL: a query may carry what a person searched for.
      expect(lines.join('\n')).not.toContain('secret-words')
    } finally {
      await app.close()
    }
  })

  it('names the client by X-Forwarded-For only through the proxies TRUST_PROXY believes', async () => {
    const ipsOf = async (trustProxy: number | readonly string[] | undefined) => {
      const lines: string[] = []
      const app = await buildApp({ db: t.current.db, jwtSecret: JWT_SECRET, mediaDir: t.current.mediaDir, modules: defaultModules(), metricsToken: null, logger: true, trustProxy, logStream: { write: (line) => lines.push(line) } })
      try {
        // inject() comes from 127.0.0.1: the balancer; the client forged one hop before it.
        await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-for': '198.51.100.9, 203.0.113.7' } })
        return lines.map((l) => JSON.parse(l) as { ip?: string }).map((l) => l.ip)
      } finally {
        await app.close()
      }
    }
    expect(await ipsOf(undefined)).toEqual(['127.0.0.1'])
    expect(await ipsOf(1)).toEqual(['203.0.113.7'])
    expect(await ipsOf(['127.0.0.1'])).toEqual(['203.0.113.7'])
    expect(await ipsOf(['10.0.0.0/8'])).toEqual(['127.0.0.1'])
  })
})
