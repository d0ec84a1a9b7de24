import type { FastifyError, FastifyInstance } from 'fastify'
import { renderMessage, type Message } from '../../schema/kit'
import { HttpError, TooManyRequestsError, ValidationError } from '../engine/errors'
import { languageOf, messageFor, translator } from '../i18n'

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
    const fe = error as FastifyError
    const say = (key: string, params?: Record<string, string>) => messageFor(request.headers['accept-language'], { key, params })
    if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (fe.statusCode === 400 && fe.code?.startsWith('FST_'))) {
      return reply.code(400).send({ detail: say('detail.malformed', { reason: fe.message }) })
    }
    if (fe.statusCode === 413 || fe.code === 'FST_REQ_FILE_TOO_LARGE' || fe.code === 'FST_PARTS_LIMIT' || fe.code === 'FST_FILES_LIMIT') {
      return reply.code(413).send({ detail: say('detail.too_large') })
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({ detail: say('detail.media_type') })
    }
    if (fe.statusCode === 429) {
      return reply.code(429).send({ detail: fe.message })
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply.code(fe.statusCode).send({ detail: fe.message })
    }
    request.log.error({ err: error }, 'unhandled error')
    return reply.code(500).send({ detail: say('detail.internal') })
  })
}
