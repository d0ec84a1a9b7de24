import { randomUUID } from 'node:crypto'
import { routeDocs } from './route-docs'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { z } from 'zod'
import type { Entity, Fields, Message } from '../../schema/kit'
import { scopeOf, type EngineCtx } from './access'
import { inAuditBatch } from './audit-scope'
import { bulkSettableFields, isBulkSettable, MAX_BULK_FIELDS } from '../../schema/kit/bulk'
import { BulkRefusedError, changeEach, refusalBody } from './bulk-update-rows'
import { undoBulkUpdate } from './bulk-update-undo'
import { BusinessError, UnauthorizedError, ValidationError } from './errors'
import { countList } from './operations/read'
import { source, whereClause } from './list-query'
import { filtersOf, viewFilters } from './request'
import { actionConfig, idsOfBody, requestContext, type EngineDeps } from './routes'
import type { Values } from './validate'

/**
 * Bulk update (issue 25): one field or a few set for the selected records, or for every
 * record of the list's filter, in one transaction through the engine's update — and its
 * undo from the audit log. Every record's audit entry carries the batch's id.
 *
 * - `POST {base}/bulk_update/` `{"ids": [..]} | {"filter": {q?, <filter param>…}}` with
 *   `"values": {"<field>": value}` → `{updated, batch}`; a record that refuses → 400
 *   `{detail, rows: {"<id>": {field: [msg]}}, labels: {"<id>": name}}` and nothing written.
 * - `POST {base}/undo/:batch` → `{restored, batch}` (the undo's own batch).
 */

/** The most records a filter may reach in one bulk update: more is a list to narrow first. */
export const MAX_BULK_ROWS = 10_000
/** A filter's parameters, as a list's query holds them: few, short. */
const MAX_FILTER_PARAMS = 50
const MAX_FILTER_VALUE = 500

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const filterValue = z.union([z.string().max(MAX_FILTER_VALUE), z.number(), z.boolean()]).transform(String)
const bulkBody = z
  .object({
    ids: z.unknown().optional(),
    filter: z
      .record(z.string().max(100), filterValue)
      .refine((f) => Object.keys(f).length <= MAX_FILTER_PARAMS)
      .optional(),
    values: z.record(z.string().max(100), z.unknown()).refine((v) => Object.keys(v).length >= 1 && Object.keys(v).length <= MAX_BULK_FIELDS),
  })
  .strict()
  .refine((b) => (b.ids === undefined) !== (b.filter === undefined))

/** The values, if each may be set in bulk; else a 400 field map naming those that may not. */
function settableValues(entity: Entity<string, Fields>, values: Values): Values {
  const refused: Record<string, Message[]> = {}
  for (const name of Object.keys(values)) {
    if (!entity.fields[name]) refused[name] = [{ key: 'validation.unknown_field' }]
    else if (!isBulkSettable(entity, name)) refused[name] = [{ key: 'validation.bulk_field', params: { label: entity.fieldLabelKey(name) } }]
  }
  if (Object.keys(refused).length > 0) throw new ValidationError(refused)
  return values
}

/** The records a filter reaches for the caller — their scope, their list's rules — at most MAX_BULK_ROWS. */
async function idsOfFilter(ctx: EngineCtx, query: Record<string, string>): Promise<number[]> {
  const filters = [...viewFilters(ctx.entity, query.view), ...filtersOf(ctx.entity, query, { unknown: 'refuse' })]
  const count = await countList(ctx, filters)
  if (count > MAX_BULK_ROWS) throw new BusinessError({ key: 'detail.bulk_too_many', params: { count, max: MAX_BULK_ROWS } })
  // The list's rows (`readList`: the same filters within the caller's read scope), their ids alone.
  const where = whereClause(ctx.registry, ctx.entity, 't', [...filters, ...scopeOf(ctx, 'read')])
  const ids = (await sql<{ id: number }>`select t.id from ${source(ctx.entity)} t ${where} order by t.id`.execute(ctx.db)).rows.map((r) => Number(r.id))
  // Rows added between the count and the read count too.
  if (ids.length > MAX_BULK_ROWS) throw new BusinessError({ key: 'detail.bulk_too_many', params: { count: ids.length, max: MAX_BULK_ROWS } })
  return ids
}

/** The records to change, in id order: two bulk changes over the same records take their locks alike, never in a circle. */
async function idsOfTarget(ctx: EngineCtx, body: { ids?: unknown; filter?: Record<string, string> }): Promise<number[]> {
  if (body.filter) return idsOfFilter(ctx, body.filter)
  return [...new Set(idsOfBody({ ids: body.ids }))].sort((a, b) => a - b)
}

/** A refusal of several records is answered with each record's reasons: the one answer the error handler does not shape. */
async function answering<T>(req: FastifyRequest, reply: FastifyReply, work: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await work()
  } catch (e) {
    if (e instanceof BulkRefusedError) return reply.code(400).send(refusalBody(req.headers['accept-language'], e))
    throw e
  }
}

export function registerBulkUpdateRoutes(app: FastifyInstance, entity: Entity<string, Fields>, deps: EngineDeps): void {
  // A document kept one row per line is changed whole by its own update, not row by row;
  // an entity none of whose fields may be set in bulk has no bulk change to offer.
  if (entity.routes.update !== 'generic' || entity.rowsPerLine || bulkSettableFields(entity).length === 0) return
  for (const base of entity.api.bases) {
    if (entity.api.except[base]?.includes('update')) continue

    app.post(`${base}/bulk_update/`, { config: { ...actionConfig(entity, 'UPDATE'), openapi: routeDocs.bulkUpdate(entity, { body: bulkBody, maxRows: MAX_BULK_ROWS }) } }, async (req, reply) => {
      const parsed = bulkBody.safeParse(req.body ?? {})
      if (!parsed.success) throw new BusinessError({ key: 'detail.bulk_body', params: { max: MAX_BULK_FIELDS } })
      const ctx = requestContext(deps, entity, req)
      const values = settableValues(entity, parsed.data.values as Values)
      const ids = await idsOfTarget(ctx, parsed.data)
      if (ids.length === 0) throw new BusinessError({ key: 'detail.bulk_none' })
      const batch = randomUUID()
      return answering(req, reply, async () => ({
        updated: await inAuditBatch(batch, () => changeEach(ctx, ids.map((id) => ({ id, values })))),
        batch,
      }))
    })

    app.post<{ Params: { batch: string } }>(`${base}/undo/:batch`, { config: { ...actionConfig(entity, 'UPDATE'), openapi: routeDocs.undo(entity) } }, async (req, reply) => {
      const batch = req.params.batch
      if (!UUID.test(batch)) throw new BusinessError({ key: 'detail.bulk_batch' })
      const caller = req.principal
      if (!caller) throw new UnauthorizedError({ key: 'detail.no_credentials' })
      return answering(req, reply, () => undoBulkUpdate(requestContext(deps, entity, req), caller, batch.toLowerCase()))
    })
  }
}
