import type { FastifyInstance, FastifyRequest } from 'fastify'
import { routeDocs } from './route-docs'
import { z } from 'zod'
import type { Entity, Fields } from '../../schema/kit'
import { messageFor } from '../i18n'
import { BusinessError } from './errors'
import { pageOf } from './request'
import { actionConfig, idsOfBody, requestContext, type EngineDeps } from './routes'
import { listTrash, purgeRows, restoreRows, type RestoreTarget } from './trash'

/**
 * The Trash's routes of an entity that has one (EntityConfig.trash), at each of its bases:
 * - `GET trash/?page=&size=&q=` (DELETE): its rows in the Trash, newest first, in the list's
 *   envelope, each with `deleted_at` and `deleted_by` (an e-mail);
 * - `POST restore/` `{ids}` or `{batch}` (DELETE): back from the Trash — 200 `{detail, ids}`;
 * - `DELETE purge/` `{ids}` (`<PREFIX>_PURGE`): deleted for good — 200 `{detail}`.
 * Ids as `delete_multiple/` takes them (1 to MAX_IDS); a batch is the uuid a delete answered.
 */
const batchBody = z.object({ batch: z.string().uuid() }).strict()

function restoreTargetOf(body: unknown): RestoreTarget {
  // One or the other: ids of this entity, or the batch of a delete.
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'ids' in body && !('batch' in body)) return { ids: idsOfBody(body) }
  const parsed = batchBody.safeParse(body)
  if (!parsed.success) throw new BusinessError({ key: 'detail.restore_body' })
  return { batch: parsed.data.batch }
}

const MAX_SEARCH = 200

export function registerTrashRoutes(app: FastifyInstance, entity: Entity<string, Fields>, deps: EngineDeps): void {
  if (!entity.trash) return
  const purge = { permission: entity.trash.purgePermission }
  const say = (req: FastifyRequest, message: Parameters<typeof messageFor>[1]) => messageFor(req.headers['accept-language'], message)
  for (const base of entity.api.bases) {
    // A base that leaves deletes to another app's routes leaves their Trash to it too.
    if (entity.api.except[base]?.includes('delete')) continue
    app.get(`${base}/trash/`, { config: { ...actionConfig(entity, 'DELETE'), openapi: routeDocs.trash(entity) } }, async (req) => {
      const query = req.query as Record<string, unknown>
      const q = typeof query.q === 'string' ? query.q.trim().slice(0, MAX_SEARCH) : ''
      const result = await listTrash(requestContext(deps, entity, req), { ...(q ? { q } : {}), page: pageOf(query) })
      return { [entity.listKey]: result.rows, page: result.page, size: result.size, total_pages: result.totalPages, total_elements: result.total }
    })
    app.post(`${base}/restore/`, { config: { ...actionConfig(entity, 'DELETE'), openapi: routeDocs.restore(entity, batchBody) } }, async (req) => {
      const { message, ids } = await restoreRows(requestContext(deps, entity, req), restoreTargetOf(req.body))
      return { detail: say(req, message), ids }
    })
    app.delete(`${base}/purge/`, { config: { ...purge, openapi: routeDocs.purge(entity) } }, async (req) => ({ detail: say(req, await purgeRows(requestContext(deps, entity, req), idsOfBody(req.body))) }))
  }
}
