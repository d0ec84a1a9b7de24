import { createContext, useContext, type ReactNode } from 'react'
import type { AnyEntity } from './entity-api'

/**
 * What the engine's screens ask of the signed-in user: whether they hold a permission (the
 * server decides; the screens only leave out what it would refuse), and whether they may do
 * an action to an entity's records — by its permission, to their own rows by the entity's
 * `own` (a customer opens a ticket without TICKET_CREATE), or as anyone may (`public` reads).
 * The app gives it (src/app: from the session), so the engine knows no session or sign-in of
 * its own.
 */
export type EngineAccess = {
  readonly can: (permission: string) => boolean
  /** `action`: LIST, DETAILS, CREATE, UPDATE, DELETE or a custom action's name. */
  readonly canDo: (entity: Pick<AnyEntity, 'own' | 'permissions' | 'actions' | 'publicActions'>, action: string) => boolean
  readonly isAdmin: boolean
}

// Outside the app (a component rendered alone) nothing is offered that needs a permission.
const AccessContext = createContext<EngineAccess>({ can: () => false, canDo: () => false, isAdmin: false })

export function AccessProvider({ access, children }: { access: EngineAccess; children: ReactNode }) {
  return <AccessContext.Provider value={access}>{children}</AccessContext.Provider>
}

export const useAccess = (): EngineAccess => useContext(AccessContext)
