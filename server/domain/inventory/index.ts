import type { DomainModule } from '../../engine/modules'
import { rowIdOf } from '../../engine/request'
import { notFound } from '../../engine/service'
import { stockOf } from './stock'

/**
 * Inventory (issue 21): each product's stock and the append-only stock ledger, both kept
 * by the stock kernel (stock.ts) in the transactions of the documents that move stock; the
 * registry's routes read them. Here, the contract's `check_by_product_id/{productId}` →
 * `{in_stock, is_in_stock}`, for any signed-in user (the storefront asks it before an order
 * line; it tells a count, not a cost).
 */
export function inventoryModule(): DomainModule {
  return {
    name: 'inventory',
    routes(app, deps) {
      const inventory = deps.registry.find((e) => e.name === 'inventory')
      const product = deps.registry.find((e) => e.name === 'product')
      // A test's registry of its own may have no inventory.
      if (!inventory || !product) return
      app.get<{ Params: { id: string } }>(`${inventory.api.base}/check_by_product_id/:id`, async (request) => {
        const id = rowIdOf(product, request.params.id)
        const known = await deps.db.selectFrom(product.name).select('id').where('id', '=', id).executeTakeFirst()
        if (!known) throw notFound(product, id)
        return stockOf(deps.db, id)
      })
    },
  }
}
