import type { FastifyInstance, FastifyRequest } from 'fastify'
import { NotFoundError } from '../../engine/errors'
import type { Filter } from '../../engine/list-query'
import type { ModuleDeps } from '../../engine/modules'
import { rowIdOf } from '../../engine/request'
import { actionConfig, requestContext } from '../../engine/routes'
import { readList } from '../../engine/service'
import { contractPrefix } from './content-routes'
import { imagesByHead } from './image-maps'

/** The paths below `/cms_menu_content_image/api/v1` of the pictures' read routes (api-contract §4.4). */
export const imageRoutePaths = {
  rows: 'get_all_cms_menu_content_image_by_cms_menu_id/:menu_id',
  byHead: 'get_all_cms_menu_content_image_list_by_cms_menu_id/:menu_id',
  byMenuName: 'get_all_cms_menu_content_image_list_by_menu_name/:name',
  contentsAndImages: 'get_content_and_images_by_menu_id/:menu_id',
} as const

/**
 * A menu's pictures as the site reads them, beside the entity's own routes (the contract's
 * paths), with its LIST permission: as rows, grouped by heading (`{<head>: [urls]}`), the
 * same for every menu whose name contains a text (none such is a 404), and with the menu's
 * contents. Rows are read through the engine as the caller; a menu without pictures is an
 * empty answer, not an error.
 */
export function registerImageRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const byName = (name: string) => deps.registry.find((e) => e.name === name)
  const [menu, content, image] = [byName('cms_menu'), byName('cms_menu_content'), byName('cms_menu_content_image')]
  // A test's registry of its own may have no CMS.
  if (!menu || !content || !image) return
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }
  const ofMenu = (id: number): Filter[] => [{ field: 'cms_menu', op: 'equals', value: id }]
  const imagesOf = async (request: FastifyRequest, menuId: number) =>
    (await readList(requestContext(engine, image, request), { filters: ofMenu(menuId), ordering: 'id' })).rows
  const base = contractPrefix(image)
  const config = actionConfig(image, 'LIST')
  type MenuParams = { Params: { menu_id: string } }

  app.get<MenuParams>(`${base}/${imageRoutePaths.rows}`, { config }, async (request) => ({
    [image.listKey]: await imagesOf(request, rowIdOf(menu, request.params.menu_id)),
  }))
  app.get<MenuParams>(`${base}/${imageRoutePaths.byHead}`, { config }, async (request) => ({
    [image.listKey]: imagesByHead(await imagesOf(request, rowIdOf(menu, request.params.menu_id))),
  }))
  app.get<{ Params: { name: string } }>(`${base}/${imageRoutePaths.byMenuName}`, { config }, async (request) => {
    const name = request.params.name
    const menus = await readList(requestContext(engine, menu, request), { filters: [{ field: 'name', op: 'contains', value: name }], ordering: menu.ordering })
    if (menus.rows.length === 0) throw new NotFoundError({ key: 'detail.cms_menu_name_not_found', params: { name } })
    const rows = await Promise.all(menus.rows.map((m) => imagesOf(request, Number(m.id))))
    return { [image.listKey]: imagesByHead(rows.flat()) }
  })
  app.get<MenuParams>(`${base}/${imageRoutePaths.contentsAndImages}`, { config }, async (request) => {
    const menuId = rowIdOf(menu, request.params.menu_id)
    const contents = await readList(requestContext(engine, content, request), { filters: ofMenu(menuId), ordering: 'position' })
    return { menu_items: contents.rows, [image.listKey]: await imagesOf(request, menuId) }
  })
}
