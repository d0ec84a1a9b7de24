import { useMemo } from 'react'
import { can, levelOf, meets, type Level, type Requirement } from './access'
import type { SessionUser } from './session'
import { useCurrentUser } from './useCurrentUser'
import { useSession } from './useSession'

export type Access = {
  user: SessionUser | null
  level: Level | null
  can: (permission: string) => boolean
  /** An admin (`is_admin`), as the server's rules read it: what only an admin may set (Field.isAdminOnly). */
  isAdmin: boolean
  meets: (requirement: Requirement) => boolean
}

const accessOf = (user: SessionUser | null): Access => ({
  user,
  level: levelOf(user),
  can: (permission: string) => can(user, permission),
  isAdmin: user?.isAdmin === true,
  meets: (requirement: Requirement) => meets(user, requirement),
})

/** The signed-in user's rights (src/auth/access.ts), for screens that hide what the server would refuse. */
export function useAccess(): Access {
  const user = useCurrentUser()
  return useMemo(() => accessOf(user), [user])
}

/**
 * The rights of the user the session holds, without asking the server for a missing one: for
 * what sits above the server-state cache (the engine's access context). The shell's guard
 * fetches a missing user, and the session hands it here when it comes.
 */
export function useSessionAccess(): Access {
  const { user } = useSession()
  return useMemo(() => accessOf(user), [user])
}
