/** Ends the session on the server (issue 9): the token stops working wherever it was copied. */
export const LOGOUT_PATH = '/api/auth/logout'

/**
 * Sent and not awaited: the browser signs out at once whatever the answer (offline, or a
 * token the server has already ended); `keepalive` lets the request outlive the page the
 * logout leaves. Plain fetch, and the language read from the page: the session module is in
 * the framework chunk, which must not import the i18n chunk (a cycle that breaks start-up).
 */
export function endServerSession(token: string): void {
  const url = `${globalThis.location?.origin ?? 'http://localhost'}${LOGOUT_PATH}`
  try {
    void fetch(url, { method: 'POST', keepalive: true, headers: { Authorization: token, Accept: 'application/json', 'Accept-Language': globalThis.document?.documentElement.lang || 'en' } }).catch(() => undefined)
  } catch {
    // No fetch (an old test environment): the local sign-out stands on its own.
  }
}
