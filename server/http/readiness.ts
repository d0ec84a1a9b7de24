import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { Db } from '../db/types'
import type { RouteDoc } from '../engine/openapi'

/**
 * Readiness, for a load balancer: `GET /api/ready` answers 200 `{status: 'ready'}` while the
 * server may take requests — its database answers a `select 1` within READY_TIMEOUT_MS — and
 * 503 `{status: 'unavailable'}` otherwise, or once it is shutting down (`markDraining`), so
 * that the balancer sends its traffic elsewhere before the server stops. `/api/health` stays
 * the liveness check (the process answers). Public, as the balancer carries no token, and it
 * says nothing of why.
 */
export const READY_PATH = '/api/ready'
export const READY_TIMEOUT_MS = 2_000

const draining = new WeakSet<FastifyInstance>()

/** From now on the app answers "unavailable" to readiness (its graceful shutdown's first step); `app.close()` marks it too. */
export function markDraining(app: FastifyInstance): void {
  draining.add(app)
}

export const isDraining = (app: FastifyInstance): boolean => draining.has(app)

const READY = { status: 'ready' } as const
const UNAVAILABLE = { status: 'unavailable' } as const

const readyDoc = (): RouteDoc => ({
  summary: 'Readiness',
  description: `For a load balancer: 200 while the server takes requests (its database answers within ${READY_TIMEOUT_MS / 1000} s), 503 when its database does not or it is shutting down. \`GET /api/health\` is the liveness check.`,
  responses: {
    200: { description: 'Ready.', content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ready' } }, required: ['status'] }, example: READY } } },
    503: { description: 'Not ready: the database does not answer, or the server is shutting down.', content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'unavailable' } }, required: ['status'] }, example: UNAVAILABLE } } },
  },
})

export function registerReadiness(app: FastifyInstance, options: { db: Db; timeoutMs?: number }): void {
  const timeoutMs = options.timeoutMs ?? READY_TIMEOUT_MS
  // One probe at a time: a database that hangs (an address that drops packets) must not
  // gather a query per check of the balancer while it does.
  let probe: Promise<unknown> | null = null
  const databaseAnswers = async (): Promise<void> => {
    probe ??= sql`select 1`.execute(options.db).finally(() => {
      probe = null
    })
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the database did not answer within ${timeoutMs} ms`)), timeoutMs)
    })
    try {
      await Promise.race([probe, late])
    } finally {
      clearTimeout(timer)
    }
  }
  app.addHook('preClose', async () => markDraining(app))
  app.get(READY_PATH, { config: { isPublic: true, openapi: readyDoc } }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    if (isDraining(app)) return reply.code(503).send(UNAVAILABLE)
    try {
      await databaseAnswers()
      return READY
    } catch (e) {
      request.log.warn({ err: e }, 'not ready: the database does not answer')
      return reply.code(503).send(UNAVAILABLE)
    }
  })
}
