import { notify, showSnackbar } from '../engine/ui/notifications'
import { connectApiSession } from '../engine/api-session'
import { dropEarlyAnswers } from '../engine/early-answers'
import { endServerSession } from './logout-api'

/**
 * The session (spec §3, §4, §8). The browser is signed in whenever an access token is in
 * localStorage; the store re-reads storage on every change, including `storage` events
 * from other tabs, so a logout anywhere logs every tab out.
 */
export const TOKEN_KEY = 'jwt_access_token'
export const USER_ID_KEY = 'user_id'
/** The user's name, e-mail, role and image (spec §3 "stored in the browser"), as JSON. */
export const USER_PROFILE_KEY = 'user_profile'

/**
 * The signed-in user as the client holds it (spec §3), plus what the guard and the
 * navigation filter with: `is_admin` and the role's permission names (the server's
 * extension of the user answer; the server enforces them either way).
 */
export type SessionUser = {
  id: number
  email: string
  displayName: string
  role: string | null
  photoURL: string | null
  isAdmin: boolean
  permissions: readonly string[]
}

/**
 * What login, register and the token sign-in answer (api-contract §3.1): the access token
 * and the user's fields, of which the client reads id, email, username, image, role,
 * is_admin and permissions.
 */
export type LoginAnswer = { access: string; id: number } & Record<string, unknown>

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

/** Signs in with the stored, unexpired token at start-up: answers a fresh token and the user. */
export type TokenSignIn = () => Promise<LoginAnswer>

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
    // The claims only (the server checks the signature): base64url JSON, the second part.
    const part = raw.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')
    const { exp } = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(part), (c) => c.charCodeAt(0)))) as { exp?: unknown }
    if (typeof exp === 'number' && exp * 1000 < nowMs) {
      console.warn('access token expired')
      return 'expired'
    }
    return 'valid'
  } catch {
    return 'invalid'
  }
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '')

/**
 * The session user of a user answer (login, register, access-token, the user resource) or
 * of the stored profile: `displayName` from username, `photoURL` from image (spec §3).
 */
export function userOf(answer: Record<string, unknown>, id = answer.id as number): SessionUser {
  const isAdmin = answer.is_admin === true || answer.isAdmin === true
  return {
    id,
    email: text(answer.email),
    displayName: text(answer.displayName) || text(answer.username) || text(answer.email) || `#${id}`,
    role: text(answer.role) || (isAdmin ? 'admin' : null),
    photoURL: text(answer.photoURL) || text(answer.image) || null,
    isAdmin,
    permissions: Array.isArray(answer.permissions) ? answer.permissions.filter((p): p is string => typeof p == 'string') : [],
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
    const p = JSON.parse(raw) as Record<string, unknown>
    return p.id === userId ? userOf(p) : null
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
    dropEarlyAnswers()
    writeStorage(USER_PROFILE_KEY, null)
    writeStorage(USER_ID_KEY, null)
    writeStorage(TOKEN_KEY, null)
    user = null
  }

  /** Stores `"Bearer <access>"`, the user id and the profile (login, register, token sign-in). */
  function signIn(answer: LoginAnswer): SessionUser {
    writeStorage(TOKEN_KEY, `Bearer ${answer.access}`)
    writeStorage(USER_ID_KEY, String(answer.id))
    user = userOf(answer)
    writeStorage(USER_PROFILE_KEY, JSON.stringify(user))
    endReason = null
    isChecking = false
    emit()
    return user
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

    signIn,

    setUser(next: SessionUser): void {
      if (readStorage(TOKEN_KEY) === null) return
      user = next
      writeStorage(USER_PROFILE_KEY, JSON.stringify(next))
      emit()
    },

    /** Menu logout: ends the session on the server and clears both keys; the caller goes to `/`. */
    logout(): void {
      const token = readStorage(TOKEN_KEY)
      endReason = 'logout'
      clear()
      emit()
      if (token !== null) endServerSession(token)
    },

    /**
     * A fresh token of the same session (one's own password change ends the others and
     * gives this one a new token): stored in place, the user unchanged.
     */
    renewToken(access: string): void {
      if (readStorage(TOKEN_KEY) === null) return
      writeStorage(TOKEN_KEY, `Bearer ${access}`)
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

    /**
     * Start-up check (spec §4): the splash shows until it ends. A valid token signs in
     * again (a fresh token, the user); a failure is said in the message bar and logs out.
     */
    async check(signInWithToken: TokenSignIn): Promise<void> {
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
          signIn(await signInWithToken())
        } catch {
          clear()
          showSnackbar({ kind: 'error', key: messages.tokenSignInFailed })
        }
      } finally {
        isChecking = false
        emit()
      }
    },

    /** Back to the state of a page load: storage read again, the start-up check to run (tests). */
    restart(): void {
      isChecking = true
      user = null
      endReason = null
      emit()
    },
  }
}

export type Session = ReturnType<typeof createSession>

export const session: Session = createSession()

// The HTTP client sends this session's token, and a 401 of any call but the login ends it (spec §4, §8).
connectApiSession({ token: () => session.token(), onUnauthorized: () => session.autoLogout(messages.invalidToken) })
