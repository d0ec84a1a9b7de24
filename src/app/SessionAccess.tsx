import type { ReactNode } from 'react'
import { useSessionAccess } from '../auth/useAccess'
import { AccessProvider } from '../engine/access-context'

/**
 * Gives the engine's screens the signed-in user's permissions, from the session (the engine
 * knows no session of its own). It sits above the shell's server-state cache, so it reads the
 * session alone.
 */
export function SessionAccess({ children }: { children: ReactNode }) {
  return <AccessProvider access={useSessionAccess()}>{children}</AccessProvider>
}
