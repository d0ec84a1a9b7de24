/**
 * Whose calls the HTTP client makes: the session's token, and what a 401 does (the session
 * ends). The session connects itself (src/auth/session.ts) — a port of its own, so that the
 * sign-in screen does not load the client, and the engine knows no sign-in of its own.
 */
export type ApiSession = { token: () => string | null; onUnauthorized: () => void }

let apiSession: ApiSession = { token: () => null, onUnauthorized: () => {} }

/** Connects whose calls the client makes; the answer puts back the one connected before (tests). */
export function connectApiSession(connected: ApiSession): () => void {
  const before = apiSession
  apiSession = connected
  return () => {
    apiSession = before
  }
}

/** The token calls are made with (`"Bearer <access>"`). */
export const apiToken = (): string | null => apiSession.token()

/** What a 401 does: the session ends. */
export const unauthorized = (): void => apiSession.onUnauthorized()
