import type { IncomingMessage } from 'node:http'
import { LogController, type FastifyInstance, type FastifyRequest } from 'fastify'
import { newRequestId, REQUEST_ID_HEADER } from './errors'

/**
 * Request ids and the one log line per request. A request keeps the id a load balancer or
 * proxy gave it (`X-Request-Id`), so one id follows it across the balancer's log and every
 * server's; anything else a caller sends there is replaced, never logged as it came: only a
 * short token of letters, digits, `.`, `_` and `-` is taken (no spaces, quotes or control
 * characters to forge a log line with). The id is answered in the same header.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/

/** The request's id: its incoming `X-Request-Id` when it is a sane token, else a new one (Fastify's `genReqId`). */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER]
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : newRequestId()
}

/**
 * The route a request matched, as registered (`/thana/api/v1/thana/:id`), not its URL: a
 * bounded set of values, for the log and the metrics' labels alike. A request no route
 * matched is named as one.
 */
export const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? 'unmatched'

/** Fastify's own two lines per request off (`logController`): registerRequestLog writes one instead. */
export const requestLogController = (): LogController => new LogController({ disableRequestLogging: true })

/**
 * Echoes the request id on every answer and logs one JSON line per request (pino, Fastify's
 * logger) at `info`: its method, route, status, duration, client address and the signed-in
 * user. Not its URL:
 * a query may carry what a person searched for. With the app's `logger` off (tests,
 * development) the level is `error` and these lines are not written.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id)
  })
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: routeOf(request),
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 10) / 10,
        // The client's address: a load balancer's own unless TRUST_PROXY believes its X-Forwarded-For.
        ip: request.ip,
        ...(request.principal ? { user_id: request.principal.id } : {}),
      },
      'request',
    )
  })
}
