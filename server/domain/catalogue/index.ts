import type { DomainModule } from '../../engine/modules'
import { registerCategoryRoutes } from './category-routes'
import { registerDiscountRoutes } from './discount-routes'
import { productImageHooks } from './product-images'
import { registerProductOptionRoutes } from './product-options'
import { productVerificationHooks } from './product-verification'

/**
 * The catalogue (issue 11): categories kept a tree of at most three levels, with the
 * contract's level lists. Brands, manufacturers, colours and sizes are plain registry entities;
 * products keep their colours and sizes (served as the contract's `productcolor` and
 * `productsize`), their gallery in order and one discount each.
 */
export function catalogueModule(): DomainModule {
  return {
    name: 'catalogue',
    hooks: { productimage: productImageHooks, product: productVerificationHooks },
    routes(app, deps) {
      registerCategoryRoutes(app, deps)
      registerProductOptionRoutes(app, deps)
      registerDiscountRoutes(app, deps)
    },
  }
}
