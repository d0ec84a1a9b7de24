import { sql } from 'kysely'
import { entities } from '../../../schema'
import { can } from '../../auth/principal'
import type { DomainModule } from '../../engine/modules'
import { requestContext } from '../../engine/routes'
import { countList } from '../../engine/service'
import { mediaHooks, trackUploads } from '../../engine/uploads'
import { outboxActions } from '../../mail/outbox-actions'
import { changeLogRows } from './change-log'
import { notificationActions, registerNotificationRoutes } from './notifications'
import { noteHooks } from './notes'
import { savedViewHooks } from './saved-views'
import { todaysFigures, unreadNotifications, type QuickPanelFigure, type QuickPanelNotification } from './quick-panel'
import { utcDay } from '../../../schema/kit/dates'

/**
 * The quick panel's live content (spec §2 "Quick panel"; issue 4): today's date, how many
 * records of each kind the caller may list — as many as each list's `total_elements` says,
 * the dashboard's cards as well (issue 20: one request, not one per list) — and the latest
 * changes to them from the audit log; today's figures (open tickets, today's orders, products
 * running low) and the caller's newest unread notifications (issue 23, quick-panel.ts). It
 * shows only what the caller's permissions already let them read.
 */
export type QuickPanelData = {
  date: string
  counts: Record<string, number>
  recent: Array<{ id: number; at: string; actor: string | null; entity: string; entity_id: number; action: 'create' | 'update' | 'delete' }>
  figures: QuickPanelFigure[]
  notifications: QuickPanelNotification[]
}

const RECENT = 10

export function workspaceModule(): DomainModule {
  return {
    name: 'workspace',
    reports: { change_log: changeLogRows },
    // Uploaded files (quota, removal of released ones), the outbox's "Send again" (issue 9) and the Inbox's "Mark read" (issue 23);
    // a note is its writer's (notes.ts).
    hooks: { ...mediaHooks(entities), note: noteHooks, saved_view: savedViewHooks },
    actions: { ...outboxActions, ...notificationActions },
    routes(app, deps) {
      const { db, registry, mediaDir } = deps
      trackUploads(app, { db, registry, mediaDir })
      registerNotificationRoutes(app, deps)
      app.get('/api/quick-panel/data', async (request): Promise<QuickPanelData> => {
        const principal = request.principal!
        // The lines of a document are counted and shown with it, not as records of their own.
        const visible = registry.filter((e) => !e.isLine && can(principal, e.permissions.LIST))
        const names = visible.map((e) => e.name)
        const counts: Record<string, number> = {}
        let recent: QuickPanelData['recent'] = []
        if (names.length > 0) {
          // Each count is what the entity's list totals for the caller (the dashboard's cards
          // read these too): their row scope applied, a document kept one row per line once.
          const totals = await Promise.all(visible.map((e) => countList(requestContext(deps, e, request))))
          visible.forEach((e, i) => (counts[e.listKey] = totals[i]!))
          // Rows kept per person (a row scope: one's notifications, notes, a department's tickets) are not everyone's news.
          const recentNames = visible.filter((e) => !e.scope && !e.own).map((e) => e.name)
          const changes = await sql<QuickPanelData['recent'][number]>`
            select a.id, a.at, u.email as actor, a.entity, a.entity_id, a.action
            from audit_log a left join "user" u on u.id = a.actor
            where a.entity = any(${recentNames})
            order by a.at desc, a.id desc limit ${RECENT}`.execute(db)
          recent = changes.rows
        }
        const [figures, notifications] = await Promise.all([todaysFigures(deps, request), unreadNotifications(deps, request)])
        return { date: utcDay(), counts, recent, figures, notifications }
      })
    },
  }
}
