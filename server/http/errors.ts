import { randomUUID } from 'node:crypto'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { renderMessage, type Message } from '../../schema/kit'
import { HttpError, TooManyRequestsError, ValidationError } from '../engine/errors'
import { pgError } from '../engine/operations/transaction'
import { languageOf, messageFor, translator } from '../i18n'

/** The header a 500 names its request in, as its body does (`request_id`). */
export const REQUEST_ID_HEADER = 'x-request-id'

/** Random request ids: one quoted from a 500 names one request in the logs, across restarts and servers. */
export const newRequestId = (): string => randomUUID()

const say = (request: FastifyRequest, key: string, params?: Record<string, string>) => messageFor(request.headers['accept-language'], { key, params })

/** A bug: logged with its request id, answered with that id for the person to quote. */
function answerInternalError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  request.log.error({ err: error, request_id: request.id }, 'unhandled error')
  return reply
    .code(500)
    .header(REQUEST_ID_HEADER, request.id)
    .send({ detail: say(request, 'detail.internal_quote_id', { request_id: request.id }), request_id: request.id })
}

/**
 * What Fastify answers itself before any route or hook runs (Fastify's `frameworkErrors`): a
 * path with a malformed `%` escape, a path parameter too long. The hooks that set security
 * headers never ran, so `securityHeaders` sets them here.
 */
export function frameworkErrorHandler(securityHeaders: (request: FastifyRequest, reply: FastifyReply) => void) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    securityHeaders(request, reply)
    if (error.code === 'FST_ERR_BAD_URL') return reply.code(400).send({ detail: say(request, 'detail.bad_url') })
    if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.code(414).send({ detail: say(request, 'detail.url_too_long') })
    return answerInternalError(error, request, reply)
  }
}

/**
 * What the database refuses that is no bug of the server: its SQLSTATE and the answer. A
 * number too large for its type (an amount, or a sum of amounts: 22003), a character it
 * cannot store (U+0000: 22021, 22P05), a statement stopped by the write's time limit (57014,
 * `WRITE_STATEMENT_TIMEOUT_MS` in operations/transaction.ts) — the transaction was rolled back.
 */
const DATABASE_REFUSALS: Readonly<Record<string, { status: number; key: string }>> = {
  '22003': { status: 400, key: 'detail.number_out_of_range' },
  '22021': { status: 400, key: 'detail.unstorable_character' },
  '22P05': { status: 400, key: 'detail.unstorable_character' },
  '57014': { status: 503, key: 'detail.statement_timeout' },
}

/**
 * The one place that turns errors into responses. Bad input is a 400 with a field map or
 * a `{detail}`, never a 500; a 500 is a bug and is logged with the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof ValidationError) {
      const t = translator(languageOf(request.headers['accept-language']))
      const body = Object.fromEntries(Object.entries(error.fields).map(([field, messages]) => [field, messages.map((m) => renderMessage(t, m))]))
      return reply.code(400).send(body)
    }
    if (error instanceof HttpError) {
      if (error instanceof TooManyRequestsError) reply.header('Retry-After', String(error.retryAfterSeconds))
      const detail = 'detail' in error ? (error as { detail: string | Message }).detail : error.message
      const body: Record<string, string> = {
        detail: typeof detail === 'string' ? detail : renderMessage(translator(languageOf(request.headers['accept-language'])), detail),
      }
      if ('code' in error && typeof error.code === 'string') body.code = error.code
      return reply.code(error.status).send(body)
    }
    const refusal = DATABASE_REFUSALS[pgError(error).code ?? '']
    if (refusal) {
      request.log.warn({ err: error, request_id: request.id }, 'the database refused the request')
      return reply.code(refusal.status).send({ detail: say(request, refusal.key) })
    }
    const fe = error as FastifyError
    if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (fe.statusCode === 400 && fe.code?.startsWith('FST_'))) {
      return reply.code(400).send({ detail: say(request, 'detail.malformed', { reason: fe.message }) })
    }
    if (fe.statusCode === 413 || fe.code === 'FST_REQ_FILE_TOO_LARGE' || fe.code === 'FST_PARTS_LIMIT' || fe.code === 'FST_FILES_LIMIT') {
      return reply.code(413).send({ detail: say(request, 'detail.too_large') })
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({ detail: say(request, 'detail.media_type') })
    }
    if (fe.statusCode === 429) {
      return reply.code(429).send({ detail: fe.message })
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply.code(fe.statusCode).send({ detail: fe.message })
    }
    return answerInternalError(error, request, reply)
  })
}
