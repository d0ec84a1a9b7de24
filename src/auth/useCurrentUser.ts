import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { apiRequest } from '../engine/api'
import { session, userOf, type SessionUser } from './session'
import { useSession } from './useSession'

export const userPath = (id: number) => `/user/api/v1/user/${id}`

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

export function userOfAnswer(body: unknown, id: number): SessionUser | null {
  return isRecord(body) ? userOf(body, id) : null
}

/**
 * The signed-in user. Known right after login; after a reload it is fetched once from the
 * user endpoint (spec §7: `user endpoint + id`, errors ignored).
 */
export function useCurrentUser(): SessionUser | null {
  const { user, userId, isLoggedIn } = useSession()
  const shouldFetch = isLoggedIn && user === null && userId !== null
  const { data } = useQuery({
    queryKey: ['user', userId],
    queryFn: async ({ signal }) => userOfAnswer(await apiRequest(userPath(userId!), { signal }), userId!),
    enabled: shouldFetch,
    retry: false,
    staleTime: Infinity,
  })
  useEffect(() => {
    if (shouldFetch && data) session.setUser(data)
  }, [shouldFetch, data])
  return user ?? data ?? null
}
