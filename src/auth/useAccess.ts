import { useMemo } from 'react'
import { can, levelOf, meets, type Level, type Requirement } from './access'
import type { SessionUser } from './session'
import { useCurrentUser } from './useCurrentUser'

export type Access = {
  user: SessionUser | null
  level: Level | null
  can: (permission: string) => boolean
  meets: (requirement: Requirement) => boolean
}

/** The signed-in user's rights (src/auth/access.ts), for screens that hide what the server would refuse. */
export function useAccess(): Access {
  const user = useCurrentUser()
  return useMemo(
    () => ({ user, level: levelOf(user), can: (permission: string) => can(user, permission), meets: (requirement: Requirement) => meets(user, requirement) }),
    [user],
  )
}
