import ky, { type KyInstance } from 'ky'
import { messages, session } from '../auth/session'
import { currentLanguage } from '../i18n'

/**
 * The HTTP client. Every call sends the stored token (already `"Bearer <access>"`) and the
 * interface language, so the server answers validation messages in it. A 401 on any call
 * but the login clears the session with 'Invalid access_token' (spec §4, §8).
 */
export type FieldErrors = Record<string, string[]>

export class ApiError extends Error {
  readonly status: number
  readonly fieldErrors?: FieldErrors
  readonly detail?: string

  constructor(init: { status: number; fieldErrors?: FieldErrors; detail?: string }) {
    super(init.detail ?? (init.fieldErrors ? 'Validation failed' : `HTTP ${init.status}`))
    this.name = 'ApiError'
    this.status = init.status
    this.fieldErrors = init.fieldErrors
    this.detail = init.detail
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError
}

/** Status 0: the server could not be reached. */
export const NETWORK_ERROR_STATUS = 0

// Relative prefixes break under Node's fetch in jsdom (toolchain §3.3); the origin always works.
const client: KyInstance = ky.create({
  prefixUrl: `${globalThis.location?.origin ?? 'http://localhost'}`,
  retry: 0,
  timeout: 30_000,
  throwHttpErrors: false,
})

type Query = Record<string, string | number | undefined>

export type RequestOptions = {
  method?: 'get' | 'post' | 'put' | 'patch' | 'delete'
  searchParams?: Query
  json?: unknown
  body?: FormData
  signal?: AbortSignal
  /** The login call: no token is sent and a 401 is the form's answer, not a logout. */
  isLogin?: boolean
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Turns an error body (`{detail}` or `{field: [messages]}`) into an ApiError. */
export function errorOfBody(status: number, body: unknown): ApiError {
  if (!isRecord(body)) return new ApiError({ status })
  if (typeof body.detail === 'string') return new ApiError({ status, detail: body.detail })
  const fieldErrors: FieldErrors = {}
  for (const [field, value] of Object.entries(body)) {
    if (Array.isArray(value)) fieldErrors[field] = value.map(String)
    else if (typeof value === 'string') fieldErrors[field] = [value]
  }
  return Object.keys(fieldErrors).length > 0 ? new ApiError({ status, fieldErrors }) : new ApiError({ status })
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** Sends one request and returns the parsed JSON body; non-2xx answers throw an ApiError. */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<unknown> {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage(), Accept: 'application/json' }
  const token = session.token()
  if (token && !options.isLogin) headers.Authorization = token
  const searchParams: Record<string, string | number> = {}
  for (const [key, value] of Object.entries(options.searchParams ?? {})) if (value !== undefined) searchParams[key] = value

  let response: Response
  try {
    response = await client(path.replace(/^\/+/, ''), {
      method: options.method ?? 'get',
      headers,
      searchParams,
      json: options.json,
      body: options.body,
      signal: options.signal,
    })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError({ status: NETWORK_ERROR_STATUS, detail: error instanceof Error ? error.message : undefined })
  }
  const body = await bodyOf(response)
  if (response.ok) return body
  if (response.status === 401 && !options.isLogin) session.autoLogout(messages.invalidToken)
  throw errorOfBody(response.status, body)
}
