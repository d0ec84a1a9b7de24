import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { storageOf, type Entity, type Fields } from '../../schema/kit'
import { can } from '../auth/principal'
import type { Executor } from '../db/types'
import { UnauthorizedError } from './errors'
import type { Registry } from './list-query'
import { rowIdOf } from './request'
import { readRow } from './operations/read'
import { requestContext } from './routes'
import type { HookRegistry } from './hooks'

/**
 * A record's history (EntityConfig.history): its audit entries — created, changed, moved by
 * a transition (with what the action was given), mailed — and those of the rows of its
 * `related` lists that refer to it (an order's payments and refunds), newest first. The
 * record is read as its DETAILS allows (its scope); a related entity's entries only for a
 * caller who may list that entity.
 */
export const HISTORY_SIZE = 200

export type HistoryEntry = {
  id: number
  at: string
  actor: string | null
  entity: string
  entity_id: number
  label: string | null
  action: string
  changes: Record<string, [unknown, unknown]>
}

type Deps = { db: Executor; registry: Registry; hooks: HookRegistry; mediaDir: string }

export function registerHistoryRoutes(app: FastifyInstance, entity: Entity<string, Fields>, deps: Deps): void {
  if (!entity.hasHistory) return
  for (const base of entity.api.bases) {
    app.get<{ Params: { id: string } }>(`${base}/history/:id`, { config: { permission: entity.permissions.DETAILS } }, async (req: FastifyRequest<{ Params: { id: string } }>) => {
      const caller = req.principal
      if (!caller) throw new UnauthorizedError({ key: 'detail.no_credentials' })
      const id = rowIdOf(entity, req.params.id)
      // In the caller's scope, or a 404 as the record's read answers.
      await readRow(requestContext(deps, entity, req), id)
      const related = entity.related
        .map((spec) => ({ spec, other: deps.registry.find((e) => e.name === spec.entity) }))
        .filter((r): r is { spec: (typeof entity.related)[number]; other: Entity<string, Fields> } => r.other !== undefined && can(caller, r.other.permissions.LIST))
      // A related row's label as it is now (one gone keeps none).
      const labelOf = (other: Entity<string, Fields>) => sql`(select ${sql.ref(other.labelField)}::text from ${sql.id(storageOf(other, other.labelField).name)} x where x.id = a.entity_id)`
      const parts = [
        sql`select a.id, a.at, a.actor, a.entity, a.entity_id, a.action, a.changes, null::text as label from audit_log a where a.entity = ${entity.name} and a.entity_id = ${id}`,
        ...related.map(
          ({ spec, other }) => sql`select a.id, a.at, a.actor, a.entity, a.entity_id, a.action, a.changes, ${labelOf(other)} as label from audit_log a
            where a.entity = ${other.name} and (
              a.entity_id in (select r.id from ${sql.id(storageOf(other, spec.via).name)} r where r.${sql.ref(spec.via)} = ${id})
              or a.changes -> ${spec.via} ->> 0 = ${String(id)} or a.changes -> ${spec.via} ->> 1 = ${String(id)})`,
        ),
      ]
      const rows = await sql<Omit<HistoryEntry, 'actor' | 'at'> & { at: Date | string; actor: number | null; username: string | null }>`
        select h.*, u.username from (${sql.join(parts, sql` union `)}) h left join "user" u on u.id = h.actor
        order by h.at desc, h.id desc limit ${HISTORY_SIZE}`.execute(deps.db)
      const history: HistoryEntry[] = rows.rows.map((r) => ({
        id: Number(r.id),
        at: r.at instanceof Date ? r.at.toISOString() : String(r.at),
        actor: r.username,
        entity: r.entity,
        entity_id: Number(r.entity_id),
        label: r.label,
        action: r.action,
        changes: (typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes) as HistoryEntry['changes'],
      }))
      return { history }
    })
  }
}
