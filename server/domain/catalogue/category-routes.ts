import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Row } from '../../db/types'
import type { Filter } from '../../engine/list-query'
import type { ModuleDeps } from '../../engine/modules'
import { rowIdOf } from '../../engine/request'
import { actionConfig, requestContext } from '../../engine/routes'
import { notFound, readList } from '../../engine/service'
import { ancestryOf, treeStorageOf } from '../../engine/tree'

/**
 * The contract's level lists of categories (api-contract §4.8), unpaginated, with the
 * entity's LIST permission:
 * - `get_all_parent_category_without_pagination/`: the parent categories (no parent), under
 *   the backend's key `parent_categories` and the key the spec's frontend reads, `categorys`;
 * - `get_all_sub_category_by_category_id_without_pagination/{id}`: the sub categories of a
 *   parent category (`sub_categories`);
 * - `get_all_sub_sub_category_by_category_id_without_pagination/{id}`: the sub-sub categories
 *   of a sub category (`sub_sub_categories`).
 * Each key holds rows of its own level only: the list of a category of another level is empty.
 * An unknown id is a 404, as `{id}` answers it.
 */
export function registerCategoryRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const entity = deps.registry.find((e) => e.name === 'category')
  // A test's registry of its own may have no catalogue.
  if (!entity) return
  const base = entity.api.base
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }
  const config = actionConfig(entity, 'LIST')
  const tree = treeStorageOf(entity, 'parent')

  const list = async (request: FastifyRequest, filters: Filter[]): Promise<Row[]> => {
    const { rows } = await readList(requestContext(engine, entity, request), { filters, ordering: entity.ordering })
    return rows
  }
  /** The level of a stored category (1 for a parent category), or a 404. */
  const levelOf = async (raw: string): Promise<{ id: number; level: number }> => {
    const id = rowIdOf(entity, raw)
    const { levels: level } = await ancestryOf(deps.db, tree, id)
    if (level === 0) throw notFound(entity, id)
    return { id, level }
  }
  const childrenAt = async (request: FastifyRequest, raw: string, parentLevel: number): Promise<Row[]> => {
    const { id, level } = await levelOf(raw)
    return level === parentLevel ? list(request, [{ field: 'parent', op: 'equals', value: id }]) : []
  }

  app.get(`${base}/get_all_parent_category_without_pagination/`, { config }, async (request) => {
    const rows = await list(request, [{ field: 'parent', op: 'equals', value: null }])
    return { parent_categories: rows, [entity.listKey]: rows }
  })
  app.get<{ Params: { id: string } }>(`${base}/get_all_sub_category_by_category_id_without_pagination/:id`, { config }, async (request) => ({
    sub_categories: await childrenAt(request, request.params.id, 1),
  }))
  app.get<{ Params: { id: string } }>(`${base}/get_all_sub_sub_category_by_category_id_without_pagination/:id`, { config }, async (request) => ({
    sub_sub_categories: await childrenAt(request, request.params.id, 2),
  }))
}
