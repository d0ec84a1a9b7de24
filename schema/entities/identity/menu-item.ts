import { defineEntity, f } from '../../kit'

/**
 * A navigation row of the sidebar (api-contract §3.4; spec §2 item shape). `translate` is
 * the i18n key of the label and is stored as given: §2.6's Title Case would break the lookup.
 * `url` is an app path (`/apps/…`), not a web address.
 */
export const menuItem = defineEntity({
  name: 'menu_item',
  module: 'identity',
  listKey: 'menu_items',
  labelField: 'title',
  route: { area: 'menuItem-management', list: 'menuItems' },
  fields: {
    // Listed as the raw id, as the original backend did: its client renders the cell as it comes.
    parent: f.ref('menu_item', { onDelete: 'cascade', label: 'field.parent', listAs: 'id' }),
    menu_id: f.text({ max: 100 }),
    title: f.text({ max: 255, search: true, normalize: 'title' }),
    translate: f.text({ max: 255, required: true }),
    type: f.choice(['group', 'collapse', 'item', 'link', 'divider'], { required: true }),
    icon: f.text({ max: 100 }),
    url: f.text({ max: 1000 }),
    exact: f.boolean({ default: true }),
    // Siblings are shown by position, then by id (a registry entry's `nav.order`).
    position: f.integer({ default: 0, min: 0 }),
  },
  search: ['title'],
  // The original backend answered its search under `branches`, and its client reads that key.
  searchAlsoKeys: ['branches'],
  // The contract's `all/` answers every item, unpaged, as `{menu_items}`.
  paginateAll: false,
  nav: { group: 'user-config', icon: 'list', order: 5, label: 'nav.menu_items' },
})
