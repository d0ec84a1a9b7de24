import { bodyOf, errorOfBody, ApiError, NETWORK_ERROR_STATUS } from '../engine/api-error'
import { changeLanguage, currentLanguage, isLanguage } from '../i18n'
import { applyStoredSettings, SETTINGS_EVENT, SETTINGS_KEY } from '../shell/settings/boot'
import type { LoginAnswer } from './session'

export const LOGIN_PATH = '/user/api/v1/user/login/'
export const DEMO_CREDENTIALS_PATH = '/api/auth/demo-credentials'

export type Credentials = { email: string; password: string }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

/**
 * The two calls of the login screen, with plain fetch: the screen must stay light (the
 * signed-in screens' HTTP client weighs more than the whole form). No token is sent and
 * a 401 is the form's answer, not a logout.
 */
async function guestRequest(path: string, init: { method?: 'GET' | 'POST'; json?: unknown } = {}): Promise<unknown> {
  // Relative URLs break under Node's fetch in jsdom (toolchain §3.3); the origin always works.
  const url = `${globalThis.location?.origin ?? 'http://localhost'}${path}`
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage(), Accept: 'application/json' }
  if (init.json !== undefined) headers['Content-Type'] = 'application/json'
  let response: Response
  try {
    response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) })
  } catch (error) {
    throw new ApiError({ status: NETWORK_ERROR_STATUS, detail: error instanceof Error ? error.message : undefined })
  }
  const body = await bodyOf(response)
  if (!response.ok) throw errorOfBody(response.status, body)
  return body
}

export async function login(credentials: Credentials): Promise<LoginAnswer> {
  const body = await guestRequest(LOGIN_PATH, { method: 'POST', json: credentials })
  if (!isRecord(body) || typeof body.access !== 'string' || typeof body.id !== 'number') throw new Error('Unexpected login answer')
  // The user's layout settings follow them to this device: in place before the shell loads,
  // and handed to the settings store if it is already running (a second sign-in).
  if (isRecord(body.settings)) {
    try {
      globalThis.localStorage?.setItem(SETTINGS_KEY, JSON.stringify(body.settings))
    } catch {
      // Storage unavailable: the defaults for this page.
    }
    applyStoredSettings()
    globalThis.dispatchEvent?.(new CustomEvent(SETTINGS_EVENT, { detail: body.settings }))
    // The language the user chose on another device is theirs here too.
    if (isLanguage(body.settings.language) && body.settings.language !== currentLanguage()) await changeLanguage(body.settings.language)
  }
  return body as LoginAnswer
}

/** Demo mode only (spec §5: the form is prefilled); any failure means "no prefill". */
export async function fetchDemoCredentials(): Promise<Credentials | null> {
  try {
    const body = await guestRequest(DEMO_CREDENTIALS_PATH)
    if (isRecord(body) && typeof body.email === 'string' && typeof body.password === 'string') return { email: body.email, password: body.password }
  } catch {
    // Not in demo mode.
  }
  return null
}
