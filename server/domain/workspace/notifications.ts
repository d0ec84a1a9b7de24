import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { Executor } from '../../db/types'
import type { ModuleDeps } from '../../engine/modules'
import { inTransaction, updateRow, type ActionHandler } from '../../engine/service'

/**
 * The Inbox's server side (issue 23): a notification marked read (the registry's `mark_read`
 * action, on one's own), all of one's unread ones marked read at once, and how many are
 * unread (the toolbar's badge). What writes notifications is `notify` (server/engine/notify.ts),
 * called by the modules whose writes cause them.
 */

/** The most notifications one "Mark all as read" marks, newest first: one bounded statement, however full an inbox is. */
export const MARK_ALL_LIMIT = 1000

export type UnreadCount = { unread: number }
export type MarkedAll = { marked: number; unread: number }

export const notificationActions: Readonly<Record<string, Readonly<Record<string, ActionHandler>>>> = {
  notification: {
    mark_read: async ({ id, registry, engine }) => {
      const notification = registry.find((e) => e.name === 'notification')!
      await updateRow(engine(notification), id, { is_read: true, read_at: new Date().toISOString() })
    },
  },
}

async function unreadOf(db: Executor, user: number): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from notification where "user" = ${user} and not is_read`.execute(db)
  return Number(r.rows[0]?.n ?? 0)
}

/** `unread_count/` and `mark_all_read/`, for any signed-in user, on their own notifications only. */
export function registerNotificationRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const notification = deps.registry.find((e) => e.name === 'notification')
  // A test's registry of its own may have none.
  if (!notification) return
  const base = notification.api.base
  app.get(`${base}/unread_count/`, async (request): Promise<UnreadCount> => ({ unread: await unreadOf(deps.db, request.principal!.id) }))
  app.post(`${base}/mark_all_read/`, async (request): Promise<MarkedAll> => {
    const user = request.principal!.id
    // Being read is not audited (the fields are `audited: false`) and nothing hooks it, so the
    // engine's per-row write would add nothing but a thousand round trips: one statement does it.
    return inTransaction({ db: deps.db, entity: notification }, async (trx) => {
      const marked = await sql`
        update notification set is_read = true, read_at = now(), updated_at = now(), updated_by = ${user}
        where id in (select id from notification where "user" = ${user} and not is_read order by id desc limit ${MARK_ALL_LIMIT})`.execute(trx)
      return { marked: Number(marked.numAffectedRows ?? 0), unread: await unreadOf(trx, user) }
    })
  })
}
