import { defineEntity, f } from '../../kit'

/**
 * A category of blog posts (api-contract §4.4). The contract mounts it at
 * `/cms_blog_category/api/v1/blog_category/…`, which is not the engine's `/<name>/api/v1/<name>/`:
 * the CMS module serves the same routes there too (server/domain/cms/blog-routes.ts).
 */
export const blogCategory = defineEntity({
  name: 'cms_blog_category',
  module: 'cms',
  listKey: 'blog_categories',
  model: 'BlogCategory',
  route: { area: 'blogCategory-management', list: 'blogCategories' },
  ordering: 'name',
  fields: {
    name: f.text({ max: 500, required: true, search: true }),
  },
  // Its posts.
  related: [{ entity: 'cms_blog', via: 'blog_category', columns: ['title', 'date', 'is_published', 'is_featured'] }],
  nav: { group: 'blogs-group', icon: 'category', order: 2 },
})
