import { createContext, useContext, type ReactNode } from 'react'

/**
 * What the engine's screens ask of the signed-in user: whether they hold a permission (the
 * server decides; the screens only leave out what it would refuse). The app gives it
 * (src/app: from the session), so the engine knows no session or sign-in of its own.
 */
export type EngineAccess = { readonly can: (permission: string) => boolean; readonly isAdmin: boolean }

// Outside the app (a component rendered alone) nothing is offered that needs a permission.
const AccessContext = createContext<EngineAccess>({ can: () => false, isAdmin: false })

export function AccessProvider({ access, children }: { access: EngineAccess; children: ReactNode }) {
  return <AccessContext.Provider value={access}>{children}</AccessContext.Provider>
}

export const useAccess = (): EngineAccess => useContext(AccessContext)
