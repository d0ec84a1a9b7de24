import type { DomainModule } from '../../engine/modules'
import { refuseCycles } from '../../engine/tree'
import { registerBlogRoutes } from './blog-routes'
import { registerContentRoutes } from './content-routes'
import { registerImageRoutes } from './image-routes'
import { registerMenuRoutes } from './menu-routes'

/**
 * Content (issue 12, api-contract §4.4): the site's menus as a tree that never loops, their
 * contents and pictures, tours' stops, pages' meta data, blog categories and posts. The
 * entities are the registry's (formatted text sanitised and slugs made by the engine); this
 * module adds the menu tree's rule and the contract's read routes for the site.
 */
export function cmsModule(): DomainModule {
  return {
    name: 'cms',
    hooks: { cms_menu: refuseCycles('parent', 'validation.cms_menu_cycle') },
    routes(app, deps) {
      registerMenuRoutes(app, deps)
      registerContentRoutes(app, deps)
      registerImageRoutes(app, deps)
      registerBlogRoutes(app, deps)
    },
  }
}
