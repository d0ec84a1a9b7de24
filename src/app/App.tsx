import { RouterProvider } from '@tanstack/react-router'
import { useEffect } from 'react'
import { session } from '../auth/session'
import { useSession } from '../auth/useSession'
import type { AppRouter } from './router'
import { Splash } from './Splash'

/**
 * The splash while the start-up session check runs, then the router. Whenever the
 * session starts or ends (sign-in, menu logout, auto-logout, another tab) the router
 * moves on: the menu logout goes to `/` (spec §2); every other ending re-runs the guards,
 * which send the user to /login remembering the page.
 */
export function App({ router }: { router: AppRouter }) {
  const { isChecking } = useSession()

  useEffect(() => {
    let wasLoggedIn = session.getState().isLoggedIn
    return session.subscribe(() => {
      const { isLoggedIn, endReason } = session.getState()
      if (isLoggedIn === wasLoggedIn) return
      wasLoggedIn = isLoggedIn
      if (!isLoggedIn && endReason === 'logout') void router.navigate({ to: '/', ignoreBlocker: true })
      else void router.invalidate()
    })
  }, [router])

  if (isChecking) return <Splash />
  return <RouterProvider router={router} />
}
