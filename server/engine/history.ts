import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { Entity, Fields, Message } from '../../schema/kit'
import { isIdText } from '../../schema/kit/validators'
import type { Executor } from '../db/types'
import { UnauthorizedError, ValidationError } from './errors'
import type { HookRegistry } from './hooks'
import type { Registry } from './list-query'
import { presentHistory, type HistoryEntry, type HistoryRow } from './history-present'
import { historyScope, relatedCondition } from './history-scope'
import { readRow } from './operations/read'
import { rowIdOf } from './request'
import { requestContext } from './routes'

export type { HistoryEntry, HistoryLine } from './history-present'

/**
 * A record's history (EntityConfig.history, on for every entity with a form): its audit
 * entries — created, changed, moved by a transition (with what the action was given), mailed
 * — each with who, when, from which screen or route and the bulk operation it was part of;
 * its document's lines' entries, each naming its line; and those of the rows of its `related`
 * lists that refer to it (an order's payments and refunds) — newest first, a page at a time:
 * `GET …/history/{id}?size=&before=` answers `{history, next}`, `next` the `before` of the
 * page after (null on the last). The record is read as its DETAILS allows (its scope); a
 * related entity's entries only for a caller who may list that entity.
 */
export const HISTORY_PAGE = 50
export const HISTORY_MAX_PAGE = 200

export type HistoryPage = { history: HistoryEntry[]; next: number | null }

type Deps = { db: Executor; registry: Registry; hooks: HookRegistry; mediaDir: string }

const one = (v: unknown) => (Array.isArray(v) ? v[0] : v)

/** `size` (1 to HISTORY_MAX_PAGE) and `before` (an entry's id); anything else a 400 field map. */
export function historyPaging(query: Readonly<Record<string, unknown>>): { before: number | null; size: number } {
  const errors: Record<string, Message[]> = {}
  const rawSize = one(query.size)
  const rawBefore = one(query.before)
  let size = HISTORY_PAGE
  if (rawSize !== undefined && rawSize !== '') {
    const text = String(rawSize)
    if (!/^\d{1,9}$/.test(text)) errors.size = [{ key: 'validation.integer' }]
    else if (Number(text) < 1) errors.size = [{ key: 'validation.min_value', params: { min: 1 } }]
    else if (Number(text) > HISTORY_MAX_PAGE) errors.size = [{ key: 'validation.max_value', params: { max: HISTORY_MAX_PAGE } }]
    else size = Number(text)
  }
  let before: number | null = null
  if (rawBefore !== undefined && rawBefore !== '') {
    if (!isIdText(String(rawBefore))) errors.before = [{ key: 'validation.integer' }]
    else before = Number(rawBefore)
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  return { before, size }
}

/** One page of a record's history, newest first (the record's access already checked). */
export async function readHistory(deps: { db: Executor; registry: Registry }, entity: Entity<string, Fields>, id: number, caller: NonNullable<FastifyRequest['principal']>, paging: { before: number | null; size: number }): Promise<HistoryPage> {
  const scope = await historyScope(deps.db, deps.registry, entity, id, caller)
  // Each part its newest entries before the cursor, then the page of them all: every part reads its index, never the whole log.
  const take = paging.size + 1
  const older = paging.before === null ? sql`` : sql`and a.id < ${paging.before}`
  const columns = sql`a.id, a.at, a.actor, a.entity, a.entity_id, a.action, a.changes, a.source, a.batch`
  const parts = [
    ...scope.rows
      .filter((r) => r.ids.length > 0)
      .map((r) => sql`(select ${columns}, ${r.part}::text as part from audit_log a where a.entity = ${r.entity} and a.entity_id = any(${[...r.ids]}::bigint[]) ${older} order by a.id desc limit ${take})`),
    ...scope.related.map(({ spec, other }) => sql`(select ${columns}, 'related'::text as part from audit_log a where ${relatedCondition(spec, other, id, scope.since)} ${older} order by a.id desc limit ${take})`),
  ]
  if (parts.length === 0) return { history: [], next: null }
  const found = await sql<HistoryRow>`
    select h.*, u.username from (${sql.join(parts, sql` union `)}) h left join "user" u on u.id = h.actor
    order by h.id desc limit ${take}`.execute(deps.db)
  const rows = found.rows.slice(0, paging.size)
  const history = await presentHistory(deps.db, deps.registry, rows, scope.lines)
  return { history, next: found.rows.length > paging.size ? history[history.length - 1]!.id : null }
}

export function registerHistoryRoutes(app: FastifyInstance, entity: Entity<string, Fields>, deps: Deps): void {
  if (!entity.hasHistory || entity.isLine) return
  for (const base of entity.api.bases) {
    app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(`${base}/history/:id`, { config: { permission: entity.permissions.DETAILS } }, async (req) => {
      const caller = req.principal
      if (!caller) throw new UnauthorizedError({ key: 'detail.no_credentials' })
      const id = rowIdOf(entity, req.params.id)
      const paging = historyPaging(req.query)
      // In the caller's scope, or a 404 as the record's read answers.
      await readRow(requestContext(deps, entity, req), id)
      return readHistory(deps, entity, id, caller, paging)
    })
  }
}
