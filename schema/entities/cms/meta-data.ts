import { defineEntity, f } from '../../kit'

/**
 * What search engines and link previews read of a page (api-contract §4.4, `/cms_meta_data/`,
 * the spec's "Cms Meta Data"): its title, description and picture, for a menu content. The
 * slug is made from the title when left blank, `-2`, `-3`… added when another row has it.
 */
export const metaData = defineEntity({
  name: 'cms_meta_data',
  module: 'cms',
  listKey: 'meta_data',
  model: 'MetaData',
  labelField: 'meta_title',
  route: { area: 'meta-management', list: 'metas' },
  fields: {
    cms_content: f.ref('cms_menu_content', { search: true }),
    meta_title: f.text({ max: 255, required: true, search: true }),
    meta_description: f.text({ multiline: true, hideInList: true }),
    image: f.image(),
    slug: f.slug({ from: 'meta_title', unique: true, max: 500 }),
  },
  nav: { group: 'content-management', icon: 'label', order: 4, label: 'nav.cms_meta_data' },
})
