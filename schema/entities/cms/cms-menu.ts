import { defineEntity, f } from '../../kit'

/**
 * A menu of the public site (api-contract §4.4, `/cms_menu/`): the spec's "Cms Menus". Menus
 * nest through `parent` — a menu with sub menus cannot be deleted (the contract's protect) and
 * is never placed under itself or one of its own sub menus (server/domain/cms/index.ts).
 * `position` orders the menus and no two share one; the nested tree lists roots by it.
 */
export const cmsMenu = defineEntity({
  name: 'cms_menu',
  module: 'cms',
  listKey: 'menus',
  model: 'CMSMenu',
  route: { area: 'menu-management', list: 'menus' },
  ordering: 'position',
  fields: {
    name: f.text({ max: 255, required: true, search: true }),
    parent: f.ref('cms_menu', { label: 'field.parent', messages: { tree_cycle: 'validation.cms_menu_cycle' } }),
    position: f.integer({ unique: true, min: 0 }),
  },
  nav: { group: 'content-management', icon: 'menu', order: 1, label: 'nav.cms_menus' },
})
