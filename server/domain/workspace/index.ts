import { sql } from 'kysely'
import { entities } from '../../../schema'
import { can } from '../../auth/principal'
import type { DomainModule } from '../../engine/modules'
import { requestContext } from '../../engine/routes'
import { countList } from '../../engine/service'
import { mediaHooks, trackUploads } from '../../engine/uploads'
import { outboxActions } from '../../mail/outbox-actions'
import { changeLogRows } from './change-log'
import { utcDay } from '../../../schema/kit/dates'

/**
 * The quick panel's live content (spec §2 "Quick panel"; issue 4): today's date, how many
 * records of each kind the caller may list — as many as each list's `total_elements` says,
 * the dashboard's cards as well (issue 20: one request, not one per list) — and the latest
 * changes to them from the audit log. It shows only what the caller's permissions already
 * let them read.
 */
export type QuickPanelData = {
  date: string
  counts: Record<string, number>
  recent: Array<{ id: number; at: string; actor: string | null; entity: string; entity_id: number; action: 'create' | 'update' | 'delete' }>
}

const RECENT = 10

export function workspaceModule(): DomainModule {
  return {
    name: 'workspace',
    reports: { change_log: changeLogRows },
    // Uploaded files (quota, removal of released ones) and the outbox's "Send again" (issue 9).
    hooks: mediaHooks(entities),
    actions: outboxActions,
    routes(app, deps) {
      const { db, registry, mediaDir } = deps
      trackUploads(app, { db, registry, mediaDir })
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
          const changes = await sql<QuickPanelData['recent'][number]>`
            select a.id, a.at, u.email as actor, a.entity, a.entity_id, a.action
            from audit_log a left join "user" u on u.id = a.actor
            where a.entity = any(${names})
            order by a.at desc, a.id desc limit ${RECENT}`.execute(db)
          recent = changes.rows
        }
        return { date: utcDay(), counts, recent }
      })
    },
  }
}
