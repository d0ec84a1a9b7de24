import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Entity, Fields } from '../../../schema/kit'
import type { Row } from '../../db/types'
import { NotFoundError } from '../../engine/errors'
import type { Filter } from '../../engine/list-query'
import type { ModuleDeps } from '../../engine/modules'
import { rowIdOf } from '../../engine/request'
import { actionConfig, requestContext } from '../../engine/routes'
import { readList, readRow } from '../../engine/service'

/** `/cms_menu_content/api/v1`: the part of an entity's base before its own name, where the contract puts some of its routes. */
export const contractPrefix = (entity: Entity<string, Fields>) => entity.api.base.slice(0, entity.api.base.lastIndexOf('/'))

/**
 * The contract's read routes of a menu's contents, a tour's stops and a page's meta data
 * (api-contract §4.4), as the site calls them — some beside the entity's own routes rather
 * than under them (`/cms_menu_content/api/v1/get_all_…`, the itinerary's `api/v1/Itinerary/…`).
 * Rows are read through the engine as the caller, each entity's permission checked where it
 * is read. A list of one menu or tour answers under the contract's key and the registry's
 * (`menu_items` and `cms_menu_contents`; `itineraries` and the spec's `menu_items`); an empty
 * one is no error.
 */
export function registerContentRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const byName = (name: string) => deps.registry.find((e) => e.name === name)
  const [menu, content, itinerary, meta] = [byName('cms_menu'), byName('cms_menu_content'), byName('cms_itinerary'), byName('cms_meta_data')]
  // A test's registry of its own may have no CMS.
  if (!menu || !content || !itinerary || !meta) return
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }
  const list = async (request: FastifyRequest, entity: Entity<string, Fields>, filters: Filter[], ordering: string): Promise<Row[]> =>
    (await readList(requestContext(engine, entity, request), { filters, ordering })).rows

  // A menu's contents by position: the contract's two paths answer alike.
  type MenuParams = { Params: { menu_id: string } }
  const contentsOfMenu = async (request: FastifyRequest<MenuParams>) => {
    const rows = await list(request, content, [{ field: 'cms_menu', op: 'equals', value: rowIdOf(menu, request.params.menu_id) }], 'position')
    return { menu_items: rows, [content.listKey]: rows }
  }
  app.get<MenuParams>(`${contractPrefix(content)}/get_all_cms_menu_content_by_cms_menu_id/:menu_id`, { config: actionConfig(content, 'LIST') }, contentsOfMenu)
  app.get<MenuParams>(`${content.api.base}/get_cms_menu_content_by_cms_menu_id/:menu_id`, { config: actionConfig(content, 'LIST') }, contentsOfMenu)

  // A tour's stops, in the order they were entered.
  app.get<{ Params: { id: string } }>(
    `${contractPrefix(itinerary)}/Itinerary/get_Itinerary_by_cms_content_id/:id`,
    { config: actionConfig(itinerary, 'LIST') },
    async (request) => {
      const rows = await list(request, itinerary, [{ field: 'cms_content', op: 'equals', value: rowIdOf(content, request.params.id) }], 'id')
      return { [itinerary.listKey]: rows, menu_items: rows }
    },
  )

  // A page's meta data, found by the slug of its content (the site's address of a tour), as `{id}` answers it.
  app.get<{ Params: { slug: string } }>(`${meta.api.base}/get_meta_data_by_cms_content_slug/:slug/`, { config: actionConfig(meta, 'DETAILS') }, async (request) => {
    const slug = request.params.slug
    const [found] = await list(request, content, [{ field: 'slug', op: 'equals', value: slug }], 'id')
    if (!found) throw new NotFoundError({ key: 'detail.cms_content_slug_not_found', params: { slug } })
    const [first] = await list(request, meta, [{ field: 'cms_content', op: 'equals', value: Number(found.id) }], 'id')
    if (!first) throw new NotFoundError({ key: 'detail.cms_meta_data_not_found', params: { slug } })
    return readRow(requestContext(engine, meta, request), Number(first.id))
  })
}
