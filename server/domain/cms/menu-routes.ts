import type { FastifyInstance } from 'fastify'
import type { ModuleDeps } from '../../engine/modules'
import { rowIdOf } from '../../engine/request'
import { actionConfig, requestContext } from '../../engine/routes'
import { readList, readRow } from '../../engine/service'
import { imageOrImagesByHead, valuesByName } from './image-maps'
import { nestMenus } from './menu-tree'

/**
 * The CMS menu's own routes beyond the generic ones (api-contract §4.4), read through the
 * engine as the caller (each entity's permission checked where it is read):
 * - `get_all_nested_cms_menu/`: the menus as a tree, roots by position, `{menus}`;
 * - `get_all_menu_content_and_image_by_cms_menu_id/{menu_id}`: what the site shows of one
 *   menu, `{menu_contents: {<name>: <value>}, content_images: {<head>: url | [urls]}}`;
 *   an unknown menu is a 404, as `{id}` answers it.
 */
export function registerMenuRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const byName = (name: string) => deps.registry.find((e) => e.name === name)
  const [menu, content, image] = [byName('cms_menu'), byName('cms_menu_content'), byName('cms_menu_content_image')]
  // A test's registry of its own may have no CMS.
  if (!menu || !content || !image) return
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }

  app.get(`${menu.api.base}/get_all_nested_cms_menu/`, { config: actionConfig(menu, 'LIST') }, async (request) => {
    const { rows } = await readList(requestContext(engine, menu, request), { filters: [], ordering: 'position' })
    return { [menu.listKey]: nestMenus(rows) }
  })

  app.get<{ Params: { menu_id: string } }>(
    `${menu.api.base}/get_all_menu_content_and_image_by_cms_menu_id/:menu_id`,
    { config: actionConfig(menu, 'DETAILS') },
    async (request) => {
      const menuId = rowIdOf(menu, request.params.menu_id)
      await readRow(requestContext(engine, menu, request), menuId)
      const ofMenu = { filters: [{ field: 'cms_menu', op: 'equals' as const, value: menuId }], ordering: 'position' }
      const contents = await readList(requestContext(engine, content, request), ofMenu)
      const images = await readList(requestContext(engine, image, request), { ...ofMenu, ordering: 'id' })
      return { menu_contents: valuesByName(contents.rows), content_images: imageOrImagesByHead(images.rows) }
    },
  )
}
