import { apiRequest, isApiError } from '../../engine/api'
import { fetchList, runEntityAction, type AnyEntity } from '../../engine/entity-api'

/**
 * The caller's notifications (issue 23): the registry's `notification` entity read through the
 * generic list — the server's row scope gives each person their own — its `mark_read` action,
 * and the Inbox's two routes of its own: how many are unread, and all of them marked read.
 */
export type Notification = {
  id: number
  kind: string
  /** An i18n key of the shell's catalogue (`notification.order_confirmed`), said with `params`. */
  message: string
  params: Record<string, unknown>
  /** The registry name and id of the record it is about (its form opens from the Inbox). */
  entity: string | null
  recordId: number | null
  isRead: boolean
  at: string | null
}

/** Every query of the Inbox (its pages, the unread count) starts with this: marking one refreshes them all. */
export const inboxKey = ['inbox'] as const
export const unreadCountKey = [...inboxKey, 'unread'] as const
export const inboxPagesKey = (kind: string) => [...inboxKey, 'pages', kind] as const

/** How many notifications one "Load more" brings. */
export const INBOX_PAGE_SIZE = 20

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A list row as the Inbox shows it; what is malformed is left out rather than shown wrong. */
export function notificationOf(row: Record<string, unknown>): Notification | undefined {
  if (typeof row.id !== 'number' || typeof row.message !== 'string') return undefined
  return {
    id: row.id,
    kind: typeof row.kind === 'string' ? row.kind : '',
    message: row.message,
    params: isRecord(row.params) ? row.params : {},
    entity: typeof row.entity === 'string' && row.entity !== '' ? row.entity : null,
    recordId: typeof row.record_id === 'number' ? row.record_id : null,
    isRead: row.is_read === true,
    at: typeof row.created_at === 'string' ? row.created_at : null,
  }
}

export type InboxPage = { notifications: Notification[]; page: number; totalPages: number; total: number }

/** One page of the caller's notifications, newest first; `kind` narrows them to one kind. */
export async function fetchInboxPage(entity: AnyEntity, page: number, kind: string, signal?: AbortSignal): Promise<InboxPage> {
  const list = await fetchList(entity, { page, size: INBOX_PAGE_SIZE, ordering: '-id', ...(kind ? { filters: { kind } } : {}) }, signal)
  return { notifications: list.rows.flatMap((r) => notificationOf(r) ?? []), page: list.page, totalPages: list.totalPages, total: list.totalElements }
}

export async function fetchUnreadCount(entity: AnyEntity, signal?: AbortSignal): Promise<number> {
  const body = await apiRequest(`${entity.api.base}/unread_count/`, { signal })
  return isRecord(body) && typeof body.unread === 'number' ? body.unread : 0
}

/** Marks one read; one already read (another tab marked it) is as good as done. */
export async function markRead(entity: AnyEntity, id: number): Promise<void> {
  try {
    await runEntityAction(entity, id, 'mark_read')
  } catch (error) {
    if (!(isApiError(error) && error.status === 409)) throw error
  }
}

/** Marks all of the caller's unread notifications read (the newest thousand); answers how many are left unread. */
export async function markAllRead(entity: AnyEntity): Promise<number> {
  const body = await apiRequest(`${entity.api.base}/mark_all_read/`, { method: 'post', json: {} })
  return isRecord(body) && typeof body.unread === 'number' ? body.unread : 0
}
