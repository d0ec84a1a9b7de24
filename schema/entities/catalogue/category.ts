import { defineEntity, f } from '../../kit'

/**
 * A product category (api-contract §4.8), in three levels: a parent category (no parent), a
 * sub category (its parent is a parent category) and a sub-sub category: the parent is a
 * tree of at most three levels (`maxDepth`), kept by the engine against the stored tree, and
 * the module serves the contract's three level lists.
 */
export const category = defineEntity({
  name: 'category',
  module: 'catalogue',
  // The spec's frontend reads `categorys` (the backend said `categories`): decisions.md, the spec wins.
  listKey: 'categorys',
  route: { area: 'categories-management', list: 'categories' },
  fields: {
    name: f.text({ max: 255, required: true, search: true, normalize: 'title' }),
    description: f.text({ multiline: true, hideInList: true }),
    icon: f.image({ hideInList: true }),
    image: f.image(),
    // The contract cascades: deleting a category deletes its sub categories, each through the
    // engine (its audit entry, its images released).
    parent: f.ref('category', {
      onDelete: 'cascade',
      label: 'field.parent_category',
      maxDepth: 3,
      messages: { tree_cycle: 'validation.category_cycle', tree_depth: 'validation.category_too_deep', tree_subtree_depth: 'validation.category_subtree_too_deep' },
    }),
    is_active: f.boolean({ default: true }),
    is_top_category: f.boolean({ default: false }),
    show_on_homepage: f.boolean({ default: false }),
  },
  listColumns: ['image', 'name', 'parent', 'is_active', 'is_top_category', 'show_on_homepage'],
  trash: true,
  // The products in it.
  related: [{ entity: 'product', via: 'category', columns: ['name', 'product_code', 'brand', 'unit_price', 'is_verified'] }],
  nav: { group: 'e-commerce', icon: 'category', order: 2 },
})
