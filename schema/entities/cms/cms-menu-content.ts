import { defineEntity, f } from '../../kit'

/**
 * One content of a menu (api-contract §4.4, `/cms_menu_content/`, the spec's "Content"): a
 * named value the site shows (`{<name>: <value>}` per menu), and for the tour site the tour's
 * details. The value and the tour's longer texts are formatted text, sanitised by the server
 * before they are stored; `slug` is made from the name when left blank (unique: the site and
 * the meta data find a tour by it). The original made it for tours only (`type` Tours); one
 * for every content costs nothing and lets any page be addressed.
 *
 * The contract lists these rows under `menu_items`, which the navigation's menu items hold
 * already (a list key names one entity: the registry check, the quick panel's counts): the
 * registry's key is `cms_menu_contents`, and `all/` and the by-menu routes answer under
 * `menu_items` too (server/domain/cms/list-keys.ts, content-routes.ts).
 */
export const cmsMenuContent = defineEntity({
  name: 'cms_menu_content',
  module: 'cms',
  listKey: 'cms_menu_contents',
  model: 'CMSMenuContent',
  route: { area: 'content-management', list: 'contents' },
  // `all/` answers under the contract's `menu_items` too (server/domain/cms/list-keys.ts).
  // The contract's key (the navigation's menu items hold it in the registry).
  alsoListKeys: ['menu_items'],
  fields: {
    cms_menu: f.ref('cms_menu', { required: true, search: true }),
    name: f.text({ max: 255, required: true, search: true }),
    value: f.html({ hideInList: true }),
    slug: f.slug({ from: 'name', unique: true, max: 500 }),
    type: f.text({ max: 100 }),
    category: f.text({ max: 255 }),
    description: f.html({ hideInList: true }),
    duration: f.text({ max: 255, hideInList: true }),
    languages: f.text({ max: 255, hideInList: true }),
    reviews: f.text({ max: 255, hideInList: true }),
    group_size: f.text({ max: 255, hideInList: true }),
    location: f.text({ max: 255, hideInList: true }),
    tag: f.text({ max: 255, hideInList: true }),
    price: f.text({ max: 100, hideInList: true }),
    url: f.url({ hideInList: true }),
    trip_url: f.url({ hideInList: true }),
    additional_info: f.html({ hideInList: true }),
    knw_before_go: f.html({ hideInList: true }),
    // The contract's spellings (`inclution`) are its field names on the wire.
    inclution: f.html({ hideInList: true }),
    exclusion: f.html({ hideInList: true }),
    published: f.boolean({ default: false }),
    position: f.integer({ min: 0 }),
    order: f.integer({ min: 0, hideInList: true }),
  },
  listColumns: ['name', 'cms_menu', 'slug', 'type', 'category', 'published', 'position'],
  sections: [
    { key: 'content', label: 'section.content', fields: ['cms_menu', 'name', 'value', 'slug', 'type', 'category', 'published', 'position', 'order'] },
    {
      key: 'tour',
      label: 'section.tour',
      fields: ['description', 'duration', 'languages', 'reviews', 'group_size', 'location', 'tag', 'price', 'url', 'trip_url', 'additional_info', 'knw_before_go', 'inclution', 'exclusion'],
    },
  ],
  nav: { group: 'content-management', icon: 'description', order: 2, label: 'nav.contents' },
})
