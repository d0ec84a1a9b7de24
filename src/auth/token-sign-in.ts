import { startPaths } from '../app/paths'
import { apiRequest } from '../engine/api'
import { applyUserSettings } from '../shell/settings/store'
import type { LoginAnswer } from './session'

/** Sign-in with the stored token (spec §4, §7): the server answers `{user, access_token}`. */
export const ACCESS_TOKEN_PATH = startPaths.accessToken

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Signs in again with the stored token and returns the user with the fresh token. The
 * user's layout settings, kept on the server, are applied here: they follow the user from
 * device to device. Any failure (401 included) is the caller's 'Failed to login with token.'.
 */
export async function signInWithToken(): Promise<LoginAnswer> {
  const body = await apiRequest(ACCESS_TOKEN_PATH, { isTokenCheck: true })
  const user = isRecord(body) ? body.user : undefined
  if (!isRecord(body) || typeof body.access_token !== 'string' || !isRecord(user) || typeof user.id !== 'number') {
    throw new Error('Unexpected answer to the token sign-in')
  }
  if (isRecord(user.settings)) applyUserSettings(user.settings)
  return { ...user, id: user.id, access: body.access_token }
}
