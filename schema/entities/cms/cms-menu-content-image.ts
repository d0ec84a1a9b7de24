import { defineEntity, f } from '../../kit'

/**
 * A picture of a menu (api-contract §4.4, `/cms_menu_content_image/`, the spec's "Cms Image"),
 * under a heading: the site reads a menu's pictures grouped by `head`
 * (server/domain/cms/content-routes.ts).
 */
export const cmsMenuContentImage = defineEntity({
  name: 'cms_menu_content_image',
  module: 'cms',
  listKey: 'content_images',
  model: 'CMSMenuContentImage',
  labelField: 'head',
  // The spec's `content-management-image/{imageId}/{contentName}/{menuName?}` opens a picture's form too.
  route: { area: 'image-management', list: 'images', formAt: ['content-management-image'] },
  fields: {
    cms_menu: f.ref('cms_menu', { required: true, search: true }),
    head: f.text({ max: 500, required: true, search: true }),
    image: f.image({ required: true }),
  },
  listColumns: ['image', 'head', 'cms_menu'],
  nav: { group: 'content-management', icon: 'image', order: 3, label: 'nav.cms_images' },
})
