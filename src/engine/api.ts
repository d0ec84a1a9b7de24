import ky, { type KyInstance } from 'ky'
import { currentLanguage } from '../i18n'
import { ApiError, bodyOf, errorOfBody, NETWORK_ERROR_STATUS } from './api-error'
import { apiToken, unauthorized } from './api-session'
import { discardAnswer, takeEarlyAnswer } from './early-answers'
import { requestUrlOf } from '../../schema/kit/request-url'

export { ApiError, bodyOf, errorOfBody, isApiError, NETWORK_ERROR_STATUS, type FieldErrors } from './api-error'
export { apiToken, unauthorized } from './api-session'

/**
 * The HTTP client. Every call sends the stored token (already `"Bearer <access>"`) and the
 * interface language, so the server answers validation messages in it. A 401 on any call
 * but the login clears the session with 'Invalid access_token' (spec §4, §8).
 */

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
  /** The start-up sign-in with the stored token: a 401 is the check's answer, not a logout. */
  isTokenCheck?: boolean
}

/** Sends one request and returns the parsed JSON body; non-2xx answers throw an ApiError. */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<unknown> {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage(), Accept: 'application/json' }
  const token = apiToken()
  if (token && !options.isLogin) headers.Authorization = token
  // A write names the screen it was made on, for the record's history (audit_log.source).
  if ((options.method ?? 'get') !== 'get' && typeof location !== 'undefined') headers['X-Screen'] = location.pathname.slice(0, 300)
  const searchParams: Record<string, string | number> = {}
  for (const [key, value] of Object.entries(options.searchParams ?? {})) if (value !== undefined) searchParams[key] = value

  let response: Response | undefined
  if ((options.method ?? 'get') === 'get') {
    const early = takeEarlyAnswer(() => requestUrlOf(path, searchParams), headers.Authorization ?? null, headers['Accept-Language']!)
    // A failed or refused early answer is asked again: the usual handling of its error follows.
    response = await early
      ?.then((r) => {
        if (r.ok) return r
        discardAnswer(r)
        return undefined
      })
      .catch(() => undefined)
  }
  try {
    response ??= await client(path.replace(/^\/+/, ''), {
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
  if (response.status === 401 && !options.isLogin && !options.isTokenCheck) unauthorized()
  throw errorOfBody(response.status, body)
}
