import { useQuery } from '@tanstack/react-query'
import { useEntity } from '../../engine/entities-context'
import { fetchUnreadCount, unreadCountKey } from './notifications-api'

/** How often the toolbar asks how many notifications are unread (and after each marking). */
export const UNREAD_REFRESH_MS = 60_000

/** The caller's unread notifications, for the toolbar's badge and the user menu; undefined until known. */
export function useUnreadCount(): number | undefined {
  const entity = useEntity('notification')
  const query = useQuery({
    queryKey: unreadCountKey,
    queryFn: ({ signal }) => fetchUnreadCount(entity!, signal),
    enabled: entity !== undefined,
    refetchInterval: UNREAD_REFRESH_MS,
    staleTime: UNREAD_REFRESH_MS / 2,
  })
  return query.data
}
