import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Entity, Fields } from '../../../schema/kit'
import type { Row } from '../../db/types'
import type { ModuleDeps } from '../../engine/modules'
import { rowIdOf } from '../../engine/request'
import { actionConfig, requestContext } from '../../engine/routes'
import { notFound, readList, readRow } from '../../engine/service'

/**
 * A cause's page as the contract reads it (api-contract §4.5):
 * - `cause/…/get_all_content_and_image_by_cause_id/{id}`: its contents and images at once
 *   (`{cause_contents, content_images}`), with the cause's DETAILS and each list's LIST;
 * - `/cause_content/api/v1/get_all_cause_content_by_cause_id/{id}` and
 *   `/cause_content_image/api/v1/get_all_cause_content_image_by_cause_id/{id}`: the contract's
 *   paths (without the entity's second segment; the engine's `…/cause_content/get_all…` work too).
 * An unknown cause is a 404.
 */
export function registerCauseRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const find = (name: string) => deps.registry.find((e) => e.name === name)
  const [cause, content, image] = [find('cause'), find('cause_content'), find('cause_content_image')]
  // A test's registry of its own may have no causes.
  if (!cause || !content || !image) return
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }

  /** The rows of a cause (the cause read first: an unknown one is a 404, as `{id}` answers it). */
  const ofCause = async (request: FastifyRequest, entity: Entity<string, Fields>, raw: string): Promise<Row[]> => {
    const causeId = rowIdOf(cause, raw)
    const known = await deps.db.selectFrom(cause.name).select('id').where('id', '=', causeId).executeTakeFirst()
    if (!known) throw notFound(cause, causeId)
    const { rows } = await readList(requestContext(engine, entity, request), { filters: [{ field: 'cause', op: 'equals', value: causeId }], ordering: entity.ordering })
    return rows
  }

  type ById = FastifyRequest<{ Params: { id: string } }>
  app.get(`${cause.api.base}/get_all_content_and_image_by_cause_id/:id`, { config: actionConfig(cause, 'DETAILS') }, async (request: ById) => {
    await readRow(requestContext(engine, cause, request), rowIdOf(cause, request.params.id))
    return { cause_contents: await ofCause(request, content, request.params.id), content_images: await ofCause(request, image, request.params.id) }
  })
  app.get(`/${content.name}/api/v1/get_all_cause_content_by_cause_id/:id`, { config: actionConfig(content, 'LIST') }, async (request: ById) => ({
    [content.listKey]: await ofCause(request, content, request.params.id),
  }))
  app.get(`/${image.name}/api/v1/get_all_cause_content_image_by_cause_id/:id`, { config: actionConfig(image, 'LIST') }, async (request: ById) => {
    const rows = await ofCause(request, image, request.params.id)
    return { content_images: rows, [image.listKey]: rows }
  })
}
