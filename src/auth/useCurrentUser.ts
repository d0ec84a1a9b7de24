import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { session, type SessionUser } from './session'
import { signInWithToken } from './token-sign-in'
import { useSession } from './useSession'

/**
 * The signed-in user. Known from the login or the start-up sign-in; should a session be
 * without its user (storage changed by hand, say), the stored token signs in again to
 * learn it — the user resource's `{id}` answers the role as an id, and the guard and the
 * navigation need its name and permissions.
 */
export function useCurrentUser(): SessionUser | null {
  const { user, userId, isLoggedIn } = useSession()
  const shouldFetch = isLoggedIn && user === null
  const { data } = useQuery({
    queryKey: ['session-user', userId],
    queryFn: () => signInWithToken(),
    enabled: shouldFetch,
    retry: false,
    staleTime: Infinity,
  })
  useEffect(() => {
    if (shouldFetch && data) session.signIn(data)
  }, [shouldFetch, data])
  return user
}
