import { session } from './session'

/**
 * The start-up session check (spec §4) with the server's token sign-in, which loads only
 * when a valid token is stored: the login screen of a guest does not carry it.
 */
export function checkSession(): Promise<void> {
  return session.check(() => import('./token-sign-in').then((m) => m.signInWithToken()))
}
