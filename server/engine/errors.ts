import type { Message } from '../../schema/kit'
import { messageFor } from '../i18n'

/**
 * Domain and engine code throws these; one error handler turns them into responses
 * (server/http/errors.ts), so no route builds an error body by hand.
 */
export abstract class HttpError extends Error {
  abstract readonly status: number
}

/** 400 with a field map `{field: ["message"]}`; messages are rendered per request language. */
export class ValidationError extends HttpError {
  readonly status = 400
  constructor(readonly fields: Record<string, Message[]>) {
    super(`invalid input: ${Object.keys(fields).join(', ')}`)
  }
}

/**
 * An error answered as `{detail}`: a text, or a message (an i18n key with parameters) that
 * the error handler renders in the language of the request.
 */
abstract class DetailError extends HttpError {
  constructor(readonly detail: string | Message) {
    // The message (for logs and code that catches it) is the English text.
    super(typeof detail === 'string' ? detail : messageFor('en', detail))
  }
}

/** 400 `{detail}`: a business rule refused the request. */
export class BusinessError extends DetailError {
  readonly status = 400
}
export class UnauthorizedError extends DetailError {
  readonly status = 401
}
export class ForbiddenError extends DetailError {
  readonly status = 403
}
export class NotFoundError extends DetailError {
  readonly status = 404
}
export class ConflictError extends DetailError {
  readonly status = 409
}
export class TooManyRequestsError extends DetailError {
  readonly status = 429
  constructor(detail: string | Message, readonly retryAfterSeconds: number) {
    super(detail)
  }
}
