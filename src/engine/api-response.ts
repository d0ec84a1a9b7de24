import { currentLanguage } from '../i18n'
import { errorOfBody, ApiError, bodyOf, NETWORK_ERROR_STATUS } from './api-error'
import { apiToken, unauthorized } from './api-session'

/**
 * The answer of one call as a stream, for what the JSON client cannot do: read a file as it
 * arrives (an export, a report's PDF), read NDJSON progress (an import), or wait longer than
 * its 30 s (a bulk change of 10,000 records, which has no time limit but the user's Cancel).
 * The same session as every call: the token, the interface language, the screen a write was
 * made on (audit_log.source), a 401 ends the session, a refusal is an ApiError with its body.
 */
export type ResponseOptions = {
  method?: 'get' | 'post' | 'put' | 'patch' | 'delete'
  searchParams?: Readonly<Record<string, string | number | undefined>>
  json?: unknown
  body?: FormData
  /** Further headers (`Accept` of a file). */
  headers?: Readonly<Record<string, string>>
  signal?: AbortSignal
}

/** The headers every call carries: the token, the interface language, and on a write the screen it was made on. */
export function sessionHeaders(method: ResponseOptions['method'] = 'get'): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage() }
  const token = apiToken()
  if (token) headers.Authorization = token
  if (method !== 'get' && typeof location !== 'undefined') headers['X-Screen'] = location.pathname.slice(0, 300)
  return headers
}

/** The address of a path below the origin, with its query (empty values left out). */
export function urlOf(path: string, searchParams: ResponseOptions['searchParams'] = {}): URL {
  const url = new URL(path, globalThis.location?.origin ?? 'http://localhost')
  for (const [key, value] of Object.entries(searchParams)) if (value !== undefined && value !== '') url.searchParams.set(key, String(value))
  return url
}

/** Sends one request; answers its 2xx response unread. Rejects with an ApiError (or the AbortError of a cancel). */
export async function openApiResponse(path: string, options: ResponseOptions = {}): Promise<Response> {
  const method = options.method ?? 'get'
  const headers = { ...sessionHeaders(method), ...options.headers }
  if (options.json !== undefined) headers['Content-Type'] = 'application/json'
  let response: Response
  try {
    response = await fetch(urlOf(path, options.searchParams), {
      method: method.toUpperCase(),
      headers,
      body: options.json !== undefined ? JSON.stringify(options.json) : options.body,
      signal: options.signal,
    })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError({ status: NETWORK_ERROR_STATUS, detail: error instanceof Error ? error.message : undefined })
  }
  if (response.ok) return response
  const body = await bodyOf(response)
  if (response.status === 401) unauthorized()
  throw errorOfBody(response.status, body)
}

/** Gives a whole file to the browser to save (an `<a download>` of a Blob). */
export function saveFile(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = href
  link.download = fileName
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has taken the file by then; the address only holds memory.
  setTimeout(() => URL.revokeObjectURL(href), 30_000)
}
