import { decodeJwt } from 'jose'
import { notify } from '../engine/ui/notifications'

/**
 * The session (spec §3, §4, §8). The browser is signed in whenever an access token is in
 * localStorage; the store re-reads storage on every change, including `storage` events
 * from other tabs, so a logout anywhere logs every tab out.
 */
export const TOKEN_KEY = 'jwt_access_token'
export const USER_ID_KEY = 'user_id'
/** The user's name, e-mail, role and image (spec §3 "stored in the browser"), as JSON. */
export const USER_PROFILE_KEY = 'user_profile'

/** The signed-in user as the client holds it (spec §3). */
export type SessionUser = {
  id: number
  email: string
  displayName: string
  role: string | null
  photoURL: string | null
}

/** What the login endpoint answers (api-contract §3.1); the fields the client reads. */
export type LoginAnswer = {
  access: string
  refresh?: string
  id: number
  email: string
  username?: string | null
  image?: string | null
  role?: string | null
  is_admin?: boolean
}

export type SessionState = {
  isChecking: boolean
  isLoggedIn: boolean
  /** The stored `"Bearer <access>"`. */
  token: string | null
  userId: number | null
  user: SessionUser | null
  /** How the last session ended: the menu logout goes to `/`, anything else to /login. */
  endReason: 'logout' | 'auto-logout' | null
}

export type TokenCheck = 'valid' | 'expired' | 'invalid' | 'none'

/**
 * Signs in with a stored, unexpired token at start-up and returns the user, or null when
 * the user is to be fetched later. The server's `/api/auth/access-token` plugs in here.
 */
export type TokenSignIn = (token: string) => Promise<SessionUser | null>

export const trustStoredToken: TokenSignIn = async () => null

export const messages = {
  invalidToken: 'auth.invalid_access_token',
  expiredToken: 'auth.access_token_expired',
  tokenSignInFailed: 'auth.token_sign_in_failed',
} as const

/** Spec §5: a token with no value is invalid; one whose expiry is past is invalid. */
export function checkToken(stored: string | null, nowMs: number = Date.now()): TokenCheck {
  if (stored === null) return 'none'
  const raw = stored.replace(/^Bearer\s*/i, '').trim()
  if (raw === '' || raw === 'undefined' || raw === 'null') return 'invalid'
  try {
    const { exp } = decodeJwt(raw)
    if (typeof exp === 'number' && exp * 1000 < nowMs) {
      console.warn('access token expired')
      return 'expired'
    }
    return 'valid'
  } catch {
    return 'invalid'
  }
}

export function userOfLogin(answer: LoginAnswer): SessionUser {
  return {
    id: answer.id,
    email: answer.email,
    displayName: answer.username || answer.email,
    role: answer.role ?? (answer.is_admin ? 'admin' : null),
    photoURL: answer.image ?? null,
  }
}

function readStorage(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null
  } catch {
    return null
  }
}

function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key)
    else globalThis.localStorage?.setItem(key, value)
  } catch {
    // Storage unavailable: the session lasts for this page only.
  }
}

function storedProfile(userId: number | null): SessionUser | null {
  const raw = readStorage(USER_PROFILE_KEY)
  if (raw === null || userId === null) return null
  try {
    const value: unknown = JSON.parse(raw)
    if (typeof value !== 'object' || value === null) return null
    const p = value as Record<string, unknown>
    if (p.id !== userId || typeof p.email !== 'string' || typeof p.displayName !== 'string') return null
    return {
      id: userId,
      email: p.email,
      displayName: p.displayName,
      role: typeof p.role === 'string' ? p.role : null,
      photoURL: typeof p.photoURL === 'string' ? p.photoURL : null,
    }
  } catch {
    return null
  }
}

function createSession() {
  const listeners = new Set<() => void>()
  let isChecking = true
  let user: SessionUser | null = null
  let endReason: SessionState['endReason'] = null
  let state: SessionState = snapshot()

  function snapshot(): SessionState {
    const token = readStorage(TOKEN_KEY)
    const rawId = readStorage(USER_ID_KEY)
    const userId = rawId !== null && /^\d+$/.test(rawId) ? Number(rawId) : null
    if (token === null || (user !== null && user.id !== userId)) user = null
    if (token !== null && user === null) user = storedProfile(userId)
    return { isChecking, isLoggedIn: token !== null, token, userId, user, endReason }
  }

  function emit(): void {
    const next = snapshot()
    const isSame =
      next.isChecking === state.isChecking && next.token === state.token && next.userId === state.userId && next.user === state.user && next.endReason === state.endReason
    if (isSame) return
    state = next
    for (const listener of listeners) listener()
  }

  function clear(): void {
    writeStorage(USER_PROFILE_KEY, null)
    writeStorage(USER_ID_KEY, null)
    writeStorage(TOKEN_KEY, null)
    user = null
  }

  if (typeof window !== 'undefined') {
    window.addEventListener('storage', (event) => {
      if (event.key === null || event.key === TOKEN_KEY || event.key === USER_ID_KEY || event.key === USER_PROFILE_KEY) emit()
    })
  }

  return {
    getState: (): SessionState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    /** Read from storage on every call: another tab may have changed it. */
    isLoggedIn: (): boolean => readStorage(TOKEN_KEY) !== null,
    token: (): string | null => readStorage(TOKEN_KEY),

    signIn(answer: LoginAnswer): SessionUser {
      writeStorage(TOKEN_KEY, `Bearer ${answer.access}`)
      writeStorage(USER_ID_KEY, String(answer.id))
      user = userOfLogin(answer)
      writeStorage(USER_PROFILE_KEY, JSON.stringify(user))
      endReason = null
      isChecking = false
      emit()
      return user
    },

    setUser(next: SessionUser): void {
      if (readStorage(TOKEN_KEY) === null) return
      user = next
      writeStorage(USER_PROFILE_KEY, JSON.stringify(next))
      emit()
    },

    /** Menu logout: clears both keys; the caller goes to `/`. */
    logout(): void {
      endReason = 'logout'
      clear()
      emit()
    },

    /** Auto-logout: shows the message, clears both keys; the guard sends the user to /login. */
    autoLogout(messageKey?: string): void {
      const wasLoggedIn = readStorage(TOKEN_KEY) !== null
      endReason = 'auto-logout'
      clear()
      if (messageKey && wasLoggedIn) notify({ kind: 'error', key: messageKey })
      emit()
    },

    /** Start-up check (spec §4): the splash shows until it ends. */
    async check(signInWithToken: TokenSignIn = trustStoredToken): Promise<void> {
      const token = readStorage(TOKEN_KEY)
      const verdict = checkToken(token)
      try {
        if (verdict === 'none') return
        if (verdict !== 'valid') {
          clear()
          notify({ kind: 'error', key: messages.expiredToken })
          return
        }
        try {
          const signedIn = await signInWithToken(token!)
          if (signedIn) user = signedIn
        } catch {
          clear()
          notify({ kind: 'error', key: messages.tokenSignInFailed })
        }
      } finally {
        isChecking = false
        emit()
      }
    },

    /** Re-reads storage (tests, and callers that changed it directly). */
    refresh(): void {
      emit()
    },
  }
}

export type Session = ReturnType<typeof createSession>

export const session: Session = createSession()
