/**
 * The error every call of the contract throws, and how an error body becomes one. Kept
 * apart from the HTTP client so the login screen can use it without loading the client.
 */
export type FieldErrors = Record<string, string[]>

export class ApiError extends Error {
  readonly status: number
  readonly fieldErrors?: FieldErrors
  readonly detail?: string
  /** The whole answer, for a refusal that says more than `detail` (a bulk change names each record). */
  readonly body?: unknown

  constructor(init: { status: number; fieldErrors?: FieldErrors; detail?: string; body?: unknown }) {
    super(init.detail ?? (init.fieldErrors ? 'Validation failed' : `HTTP ${init.status}`))
    this.name = 'ApiError'
    this.status = init.status
    this.fieldErrors = init.fieldErrors
    this.detail = init.detail
    this.body = init.body
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError
}

/** Status 0: the server could not be reached. */
export const NETWORK_ERROR_STATUS = 0

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Turns an error body (`{detail}` or `{field: [messages]}`) into an ApiError. */
export function errorOfBody(status: number, body: unknown): ApiError {
  if (!isRecord(body)) return new ApiError({ status, body })
  if (typeof body.detail === 'string') return new ApiError({ status, detail: body.detail, body })
  const fieldErrors: FieldErrors = {}
  for (const [field, value] of Object.entries(body)) {
    if (Array.isArray(value)) fieldErrors[field] = value.map(String)
    else if (typeof value === 'string') fieldErrors[field] = [value]
  }
  return Object.keys(fieldErrors).length > 0 ? new ApiError({ status, fieldErrors, body }) : new ApiError({ status, body })
}

/** The parsed JSON body of an answer; text that is not JSON as it came; undefined when empty. */
export async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}
