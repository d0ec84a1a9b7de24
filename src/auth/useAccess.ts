import { useMemo } from 'react'
import type { AnyEntity } from '../engine/entity-api'
import { can, canDo, levelOf, meets, type Level, type Requirement } from './access'
import type { SessionUser } from './session'
import { useCurrentUser } from './useCurrentUser'
import { useSession } from './useSession'

export type Access = {
  user: SessionUser | null
  level: Level | null
  /** Holds the permission (an admin holds all): what the role gives, not what `own` allows. */
  can: (permission: string) => boolean
  /** May do `action` to the entity's records: by its permission, or to their own rows by its `own` (access.ts `canDo`). */
  canDo: (entity: Pick<AnyEntity, 'own' | 'permissions' | 'actions' | 'publicActions'>, action: string) => boolean
  /** An admin (`is_admin`), as the server's rules read it: what only an admin may set (Field.isAdminOnly). */
  isAdmin: boolean
  meets: (requirement: Requirement) => boolean
}

const accessOf = (user: SessionUser | null): Access => ({
  user,
  level: levelOf(user),
  can: (permission: string) => can(user, permission),
  canDo: (entity, action) => canDo(user, entity, action),
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
