import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query'
import { useState } from 'react'
import { useEntity } from '../../engine/entities-context'
import { quickPanelKey } from '../panels/useQuickPanelData'
import { fetchInboxPage, inboxKey, inboxPagesKey, markAllRead, markRead, unreadCountKey, type InboxPage, type Notification } from './notifications-api'

/**
 * The Inbox's behaviour (the page only renders it): the caller's notifications a page at a
 * time, newest first, narrowed to one kind or not; one marked read (at once on screen, then
 * from the server), or all of them. Every marking refreshes the unread count and the quick
 * panel, which shows the latest unread ones.
 */
export function useInbox() {
  const entity = useEntity('notification')
  const client = useQueryClient()
  const [kind, setKind] = useState('')
  const pages = useInfiniteQuery({
    queryKey: inboxPagesKey(kind),
    queryFn: ({ pageParam, signal }) => fetchInboxPage(entity!, pageParam, kind, signal),
    initialPageParam: 1,
    getNextPageParam: (last: InboxPage) => (last.page < last.totalPages ? last.page + 1 : undefined),
    enabled: entity !== undefined,
  })
  // A notification that arrived while pages were loaded pushes the next page's first row onto it again.
  const byId = new Map<number, Notification>()
  for (const n of (pages.data?.pages ?? []).flatMap((p) => p.notifications)) if (!byId.has(n.id)) byId.set(n.id, n)
  const notifications = [...byId.values()]

  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: inboxKey }), client.invalidateQueries({ queryKey: quickPanelKey })])

  const markOne = useMutation({
    mutationFn: (id: number) => markRead(entity!, id),
    onMutate: (id: number) => {
      const wasUnread = notifications.some((n) => n.id === id && !n.isRead)
      client.setQueriesData<InfiniteData<InboxPage>>({ queryKey: [...inboxKey, 'pages'] }, (data) =>
        data && { ...data, pages: data.pages.map((p) => ({ ...p, notifications: p.notifications.map((n) => (n.id === id ? { ...n, isRead: true } : n)) })) },
      )
      if (wasUnread) client.setQueryData<number>(unreadCountKey, (n) => (n === undefined ? n : Math.max(0, n - 1)))
    },
    onSettled: refresh,
  })

  const markAll = useMutation({
    mutationFn: () => markAllRead(entity!),
    onSuccess: (unread) => client.setQueryData(unreadCountKey, unread),
    onSettled: refresh,
  })

  const kinds = entity?.fields.kind?.options ?? []
  return { entity, kind, setKind, kinds, notifications, pages, markOne, markAll }
}
