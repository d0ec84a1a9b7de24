import { sql } from 'kysely'
import { lineLinkColumn, type Entity, type Fields, type Message } from '../../../schema/kit'
import { rowIdValueOf } from '../../../schema/kit/validators'
import type { Trx } from '../../db/types'
import type { EngineCtx } from '../../engine/access'
import { BusinessError, ConflictError, ValidationError } from '../../engine/errors'
import type { Registry } from '../../engine/list-query'
import { createRow, notFound, type ActionHandler } from '../../engine/service'

/**
 * A final purchase from a verified offer (checklist 36: once), whether asked by the contract's
 * `create_from_purchase_request/` or by the offer's "Make Final Purchase": its lines, each
 * matched to a product — the one the caller names for it (`items: [{purchase_req_item,
 * product, quantity?, unit_price?}]`), or the one product of the line's name — at the offered
 * price unless the caller agrees another. A line with no product is refused, naming it.
 * In the caller's transaction; the offer's row is held until it ends.
 */
type Line = Record<string, unknown>
export type FromRequest = { items?: unknown; purchase_date?: unknown; note?: unknown }
export const MAX_AGREED_LINES = 200

const entityOf = (registry: Registry, name: string) => registry.find((e) => e.name === name) as Entity<string, Fields>

export async function purchaseFromRequest(trx: Trx, purchases: EngineCtx, requestId: number, body: FromRequest): Promise<number> {
  const agreed = Array.isArray(body.items) ? (body.items as Line[]) : []
  if (agreed.length > MAX_AGREED_LINES) throw new BusinessError({ key: 'detail.too_many_lines', params: { max: MAX_AGREED_LINES } })
  const offer = (await sql<{ id: number; status: string; vendor: number | null; invoice_no: string }>`
    select id, status, vendor, invoice_no from purchase_request where id = ${requestId} for update`.execute(trx)).rows[0]
  if (!offer) throw notFound(entityOf(purchases.registry, 'purchase_request'), requestId)
  if (offer.status !== 'verified') throw new ConflictError({ key: 'detail.request_not_verified', params: { number: offer.invoice_no, status: `option.${offer.status}` } })
  const taken = await sql<{ invoice_no: string }>`select invoice_no from purchase_final where purchase_request = ${requestId}`.execute(trx)
  if (taken.rows[0]) throw new ConflictError({ key: 'detail.request_already_purchased', params: { number: offer.invoice_no, purchase: taken.rows[0].invoice_no } })
  if (offer.vendor === null) throw new ValidationError({ vendor: [{ key: 'validation.required', params: { label: 'field.vendor' } }] })
  const requestItem = entityOf(purchases.registry, 'purchase_req_item')
  const lines = (await sql<{ id: number; name: string; unit_price: string; quantity: number }>`
    select id, name, unit_price::text, quantity from purchase_req_item where ${sql.ref(lineLinkColumn(requestItem))} = ${requestId} order by id`.execute(trx)).rows
  const errors: Record<string, Message[]> = {}
  const items = []
  for (const [i, line] of lines.entries()) {
    const given = agreed.find((a) => rowIdValueOf(a.purchase_req_item) === line.id) ?? {}
    const product = rowIdValueOf(given.product) ?? (await productNamed(trx, line.name))
    if (product === null) {
      ;(errors[`items.${i}.product`] ??= []).push({ key: 'validation.no_product_named', params: { name: line.name } })
      continue
    }
    items.push({ product, quantity: given.quantity ?? line.quantity, unit_price: given.unit_price ?? line.unit_price })
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  // The link is the server's to set (read-only to callers): a request becomes one purchase.
  const row = await createRow({ ...purchases, db: trx, access: 'system' }, { vendor: offer.vendor, purchase_request: requestId, purchase_date: body.purchase_date, note: body.note ?? offer.invoice_no, items })
  return Number(row.id)
}

/** The one product of that name (case aside), if exactly one. */
async function productNamed(trx: Trx, name: string): Promise<number | null> {
  const found = await sql<{ id: number }>`select id from product where lower(name) = lower(${name.trim()}) order by id limit 2`.execute(trx)
  return found.rows.length === 1 ? Number(found.rows[0]!.id) : null
}

/** The offer's "Make Final Purchase": its lines matched to products by name; the purchase then shows under the offer. */
export const makePurchaseHandler: ActionHandler = async ({ trx, id, registry, engine }) => {
  await purchaseFromRequest(trx, engine(entityOf(registry, 'purchase_final')), id, {})
}
