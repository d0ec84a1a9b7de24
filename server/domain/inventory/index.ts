import { sql, type RawBuilder } from 'kysely'
import { PURCHASE_STATUSES } from '../../../schema/entities/inventory/purchase-status'
import type { Executor, Trx } from '../../db/types'
import type { DomainModule } from '../../engine/modules'
import type { Engine } from '../../engine/stock-moves'
import { notify } from '../../engine/notify'
import { rowIdOf } from '../../engine/request'
import { notFound } from '../../engine/service'
import { adjustmentMoves, adjustmentPosting } from './adjustments'
import { moveStock, openStock, reverseStock, standingStock, stockOf, type StockRow } from './stock'
import { stockReportRows } from './stock-report'

/**
 * Inventory (issue 21): each product's stock and the append-only stock ledger, both kept
 * by the stock kernel (stock.ts) in the transactions of the documents that move stock — the
 * engine moves a document's goods through this module's `stock` — and read by the
 * registry's routes. Every product has its stock row from the start (zero on
 * hand), so that the inventory lists every product. Here too, the contract's
 * `check_by_product_id/{productId}` → `{in_stock, is_in_stock}`, for any signed-in user (the
 * storefront asks it before an order line; it tells a count, not a cost).
 */
/** A product's low-stock alert when it gives none (domain-anchors §2.5). */
export const DEFAULT_LOW_STOCK = 5

/** A stock row `i` of product `p` at or below the product's alert: the one condition of every low-stock figure and list. */
export const isLowStock = sql`i.quantity <= coalesce(p.low_stock_alert, ${DEFAULT_LOW_STOCK})`

/** How many products are running low, among the stock rows `within` (a caller's row scope) narrows to. */
export async function countLowStock(db: Executor, within: RawBuilder<unknown> = sql``): Promise<number> {
  const low = await sql<{ n: string | number }>`select count(*) as n from inventory i join product p on p.id = i.id where ${isLowStock} ${within}`.execute(db)
  return Number(low.rows[0]?.n ?? 0)
}

async function lowStockAlerts(db: Executor, products: readonly number[]): Promise<Map<number, number>> {
  if (products.length === 0) return new Map()
  const found = await sql<{ id: number; alert: number | null }>`select id, low_stock_alert as alert from product where id = any(${[...products]}::bigint[])`.execute(db)
  return new Map(found.rows.map((r) => [Number(r.id), r.alert === null ? DEFAULT_LOW_STOCK : Number(r.alert)]))
}

/**
 * Tells those who keep the stock of each product a movement took from above its low-stock
 * alert to at or below it (issue 23): once, as it crosses — not at every sale after.
 */
async function noticeLowStock(trx: Trx, engine: Engine, rows: readonly StockRow[]): Promise<void> {
  const inventory = engine.registry.find((e) => e.name === 'inventory')
  if (!inventory || rows.length === 0) return
  const moved = new Map<number, { before: number; after: number }>()
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    const was = moved.get(row.product)
    moved.set(row.product, { before: was?.before ?? Number(row.quantity_after) - Number(row.quantity), after: Number(row.quantity_after) })
  }
  const products = await sql<{ id: number; name: string; alert: number | null }>`select id, name, low_stock_alert as alert from product where id = any(${[...moved.keys()]}::bigint[]) order by id`.execute(trx)
  for (const p of products.rows) {
    const alert = p.alert === null ? DEFAULT_LOW_STOCK : Number(p.alert)
    const { before, after } = moved.get(Number(p.id))!
    if (before <= alert || after > alert) continue
    const message = { key: 'notification.low_stock', params: { product: p.name, quantity: after, alert } }
    await notify(trx, engine.registry, engine.hooks, { to: { permission: inventory.permissions.LIST }, kind: 'low_stock', message, entity: inventory.name, recordId: Number(p.id) })
  }
}

export function inventoryModule(): DomainModule {
  return {
    name: 'inventory',
    // Where the engine moves the goods of the documents that move stock (`moves` of the registry).
    stock: {
      async move(trx, { type, id, number, date, movements, actor, registry, hooks }) {
        const rows = await moveStock(trx, { type, id, number, date }, movements, { actor: actor?.id ?? null })
        await noticeLowStock(trx, { registry, hooks }, rows)
        const costs: Array<string | null> = movements.map(() => null)
        for (const row of rows) if (row.movement !== undefined) costs[row.movement] = row.unit_cost
        return costs
      },
      async reverse(trx, { type, id, date, actor, registry, hooks }) {
        // Undoing a receipt takes stock out too.
        await noticeLowStock(trx, { registry, hooks }, await reverseStock(trx, { type, id }, { date, actor: actor?.id ?? null }))
      },
      standing: (trx, document) => standingStock(trx, document),
    },
    stockMoves: { stock_adjustment: adjustmentMoves },
    reports: { stock_report: stockReportRows },
    postings: { stock_adjustment: adjustmentPosting },
    hooks: {
      // Each stock row with its product's threshold, and whether it is low (checklist 43).
      inventory: {
        async afterRead({ db, rows }) {
          const alerts = await lowStockAlerts(db, rows.map((r) => Number(r.id)))
          for (const row of rows) {
            const alert = alerts.get(Number(row.id)) ?? DEFAULT_LOW_STOCK
            row.low_stock_alert = alert
            row.is_low_stock = Number(row.quantity ?? 0) <= alert
          }
        },
      },
      product: {
        afterWrite: async ({ trx, action, rowId, registry }) => {
          if (action === 'create' && registry.some((e) => e.name === 'inventory')) await openStock(trx, [rowId])
        },
        // Each product with its units on hand (what an order line's product search shows).
        async afterRead({ db, rows, registry }) {
          if (rows.length === 0 || !registry.some((e) => e.name === 'inventory')) return
          const found = await sql<{ id: number; quantity: number }>`select id, quantity from inventory where id = any(${rows.map((r) => Number(r.id))}::bigint[])`.execute(db)
          const onHand = new Map(found.rows.map((r) => [Number(r.id), Number(r.quantity)]))
          for (const row of rows) row.in_stock = onHand.get(Number(row.id)) ?? 0
        },
      },
    },
    async onStart({ db, registry }) {
      // Products made before the inventory existed (or by a seed past the engine).
      if (registry.some((e) => e.name === 'inventory')) await openStock(db)
      // The purchase statuses the purchasing flow relies on: whichever is missing is added, in order.
      if (registry.some((e) => e.name === 'purchase_status')) {
        await sql`insert into purchase_status (name)
          select name from unnest(${[...PURCHASE_STATUSES]}::text[]) with ordinality as seed(name, n)
          where not exists (select 1 from purchase_status p where p.name = seed.name) order by n
          on conflict (name) do nothing`.execute(db)
      }
    },
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
