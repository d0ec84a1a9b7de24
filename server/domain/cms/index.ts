import type { DomainModule } from '../../engine/modules'
import { registerBlogRoutes } from './blog-routes'
import { registerContentRoutes } from './content-routes'
import { registerImageRoutes } from './image-routes'
import { registerMenuRoutes } from './menu-routes'

/**
 * Content (issue 12, api-contract §4.4): the site's menus as a tree that never loops, their
 * contents and pictures, tours' stops, pages' meta data, blog categories and posts. The
 * entities are the registry's (formatted text sanitised, slugs made and the menu tree kept by
 * the engine); this module adds the contract's read routes for the site.
 */
export function cmsModule(): DomainModule {
  return {
    name: 'cms',
    routes(app, deps) {
      registerMenuRoutes(app, deps)
      registerContentRoutes(app, deps)
      registerImageRoutes(app, deps)
      registerBlogRoutes(app, deps)
    },
  }
}
