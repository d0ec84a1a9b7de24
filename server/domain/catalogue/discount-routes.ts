import type { FastifyInstance } from 'fastify'
import type { ModuleDeps } from '../../engine/modules'
import { NotFoundError } from '../../engine/errors'
import { rowIdOf } from '../../engine/request'
import { actionConfig, requestContext } from '../../engine/routes'
import { notFound, readRow } from '../../engine/service'

/**
 * The contract's `get_a_discount_by_product_id/{id}` (api-contract §4.8): a product's discount
 * (one at most: the reference is unique), as `{id}` answers it, with the entity's DETAILS
 * permission. An unknown product and a product without a discount are 404s, each saying which.
 */
export function registerDiscountRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const discount = deps.registry.find((e) => e.name === 'discount')
  const product = deps.registry.find((e) => e.name === 'product')
  // A test's registry of its own may have no catalogue.
  if (!discount || !product) return
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }
  app.get<{ Params: { id: string } }>(`${discount.api.base}/get_a_discount_by_product_id/:id`, { config: actionConfig(discount, 'DETAILS') }, async (request) => {
    const productId = rowIdOf(product, request.params.id)
    const found = await deps.db.selectFrom(discount.name).select('id').where('product', '=', productId).executeTakeFirst()
    if (!found) {
      const isProduct = await deps.db.selectFrom(product.name).select('id').where('id', '=', productId).executeTakeFirst()
      if (!isProduct) throw notFound(product, productId)
      throw new NotFoundError({ key: 'detail.no_discount_for_product', params: { id: String(productId) } })
    }
    // Through the engine's read: the caller's permission, the after-read hooks, the labels.
    return readRow(requestContext(engine, discount, request), Number(found.id))
  })
}
