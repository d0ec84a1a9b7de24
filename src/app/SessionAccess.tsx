import type { ReactNode } from 'react'
import { useAccess } from '../auth/useAccess'
import { AccessProvider } from '../engine/access-context'

/** Gives the engine's screens the signed-in user's permissions, from the session (the engine knows no session of its own). */
export function SessionAccess({ children }: { children: ReactNode }) {
  return <AccessProvider access={useAccess()}>{children}</AccessProvider>
}
