import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { isSet } from '../../../schema/kit'
import { rowIdValueOf } from '../../../schema/kit/validators'
import { can } from '../../auth/principal'
import { messageFor } from '../../i18n'
import { asSystem, type EngineCtx } from '../../engine/access'
import { BusinessError, ForbiddenError, UnauthorizedError, ValidationError } from '../../engine/errors'
import type { ModuleDeps } from '../../engine/modules'
import { rowIdOf } from '../../engine/request'
import { requestContext } from '../../engine/routes'
import { changeLines, createRow, deleteRow, documentOfLine, inTransaction, notFound, readList, readRow, runAction, updateRow } from '../../engine/service'
import { addressOf } from './addresses'
import { confirmHandler } from './sale'

/**
 * The contract's order routes beside the engine's (api-contract §4.9, §5.3): the storefront's
 * `customerorder/…` — a cart that grows a line at a time, its confirmation, its lines changed
 * one by one — and the order's reads as the invoice and the storefront want them. Each is an
 * engine read or write of the registry's order (the workflow's lock, the rules, the stock,
 * the audit). Staff act under their permissions; a customer acts on their own orders only.
 */
type Line = Record<string, unknown>
type Ids = { Params: { id: string } }

/** The most units one request may add to or take from a line. */
const MAX_STEP = 1_000_000

export function registerOrderRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const byName = (name: string) => deps.registry.find((e) => e.name === name)
  const [order, item, shipping, billing] = [byName('order'), byName('orderitem'), byName('shippingaddress'), byName('billingaddress')]
  // A test's registry of its own may have no orders.
  if (!order || !item || !shipping || !billing) return
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }
  const bases = order.api.bases

  /**
   * The engine context a caller acts on `owner`'s order in: their own, under `permission` if
   * they hold it; else as the system, when the order is theirs (a customer's storefront).
   */
  function ctxFor(req: FastifyRequest, owner: number | null, permission: string): EngineCtx {
    const caller = req.principal
    if (!caller) throw new UnauthorizedError({ key: 'detail.no_credentials' })
    const ctx = requestContext(engine, order!, req)
    if (can(caller, permission)) return ctx
    if (owner !== null && caller.id === owner) return asSystem(ctx, order!)
    throw new ForbiddenError({ key: 'detail.forbidden', params: { permissions: permission } })
  }

  /** Whose an order is, or a 404. */
  async function ownerOf(id: number): Promise<number> {
    const found = await sql<{ user: number }>`select "user" from "order" where id = ${id}`.execute(deps.db)
    if (!found.rows[0]) throw notFound(order!, id)
    return Number(found.rows[0].user)
  }

  const orderOfLine = (lineId: number) => documentOfLine(deps.db, item!, lineId)

  const bodyOf = (req: FastifyRequest): Line => {
    const body = req.body ?? {}
    if (typeof body !== 'object' || Array.isArray(body)) throw new BusinessError({ key: 'detail.json_object' })
    return body as Line
  }

  /** The order's lines changed through its update (its lock, rules, stock and posting): `change` gets them as ids with their quantity. */
  const changeItems = (ctx: EngineCtx, id: number, change: (lines: Line[]) => Line[]) =>
    changeLines(ctx, id, 'order_items', (stored) => change(stored.map((l) => ({ id: l.id, quantity: l.quantity }))))

  // A line taken off (`customerorder_delete_item/{orderId}/{itemId}`); the last line of a cart takes the cart with it.
  const deleteItem = async (req: FastifyRequest<{ Params: { orderId: string; itemId: string } }>) => {
    const id = rowIdOf(order, req.params.orderId)
    const lineId = rowIdOf(item, req.params.itemId)
    if ((await orderOfLine(lineId)) !== id) throw notFound(item, lineId)
    const ctx = ctxFor(req, await ownerOf(id), order.permissions.UPDATE)
    const row = await readRow(ctx, id)
    const rest = ((row.order_items as Line[]) ?? []).filter((l) => l.id !== lineId)
    if (rest.length === 0 && row.status === 'pending') return { detail: messageFor(req.headers['accept-language'], await deleteRow(ctx, id)), order_deleted: true }
    return changeItems(ctx, id, (lines) => lines.filter((l) => l.id !== lineId))
  }
  const stepItem = (sign: 1 | -1) => async (req: FastifyRequest<{ Params: { orderId: string; itemId: string } }>) => {
    const id = rowIdOf(order, req.params.orderId)
    const lineId = rowIdOf(item, req.params.itemId)
    if ((await orderOfLine(lineId)) !== id) throw notFound(item, lineId)
    const step = Number((bodyOf(req).quantity as unknown) ?? 1)
    if (!Number.isSafeInteger(step) || step < 1 || step > MAX_STEP) throw new ValidationError({ quantity: [{ key: step < 1 ? 'validation.min_value' : 'validation.max_value', params: { min: 1, max: MAX_STEP } }] })
    const ctx = ctxFor(req, await ownerOf(id), order.permissions.UPDATE)
    return changeItems(ctx, id, (lines) => lines.map((l) => (l.id === lineId ? { ...l, quantity: Number(l.quantity) + sign * step } : l)))
  }
  // At each of the order's bases, and where the contract's table puts them (`/customerorder/api/v1/customerorder_delete_item/…`).
  for (const prefix of [...bases, '/customerorder/api/v1']) {
    app.delete(`${prefix}/customerorder_delete_item/:orderId/:itemId`, deleteItem)
    app.route({ method: ['POST', 'PUT'], url: `${prefix}/customerorder_increase_quantity/:orderId/:itemId`, handler: stepItem(1) })
    app.route({ method: ['POST', 'PUT'], url: `${prefix}/customerorder_decrease_quantity/:orderId/:itemId`, handler: stepItem(-1) })
  }

  /**
   * The storefront names the payment method of a confirmation by its name (`bkash`), where the
   * registry's input takes the method's id: the name is read as its id before the engine judges it.
   */
  const confirmUrls = new Set(bases.flatMap((base) => [`${base}/confirm/:id`, `${base}/confirm_from_frontend/:id`]))
  app.addHook('preValidation', async (req) => {
    if (!confirmUrls.has(req.routeOptions.url ?? '')) return
    const body = req.body as Line | undefined
    const given = body && typeof body === 'object' ? body.payment_method : undefined
    if (typeof given !== 'string' || rowIdValueOf(given) !== null || given.trim() === '' || given.length > 100) return
    const found = await sql<{ id: number }>`select id from payment_method where name = ${given.trim().toLowerCase()} and deleted_at is null`.execute(deps.db)
    if (found.rows[0]) body!.payment_method = Number(found.rows[0].id)
  })

  for (const base of bases) {
    // A line's quantity or price changed (`update_item/{itemId}`), under the order's UPDATE.
    app.put<{ Params: { itemId: string } }>(`${base}/update_item/:itemId`, async (req) => {
      const lineId = rowIdOf(item, req.params.itemId)
      const id = await orderOfLine(lineId)
      const body = bodyOf(req)
      const given = Object.fromEntries(['product', 'color', 'size', 'quantity', 'price'].filter((k) => Object.hasOwn(body, k)).map((k) => [k, body[k]]))
      return changeItems(ctxFor(req, await ownerOf(id), order.permissions.UPDATE), id, (lines) => lines.map((l) => (l.id === lineId ? { ...l, ...given } : l)))
    })

    // The storefront's confirmation: the customer's own order (or staff's, under CONFIRM), as the engine's `confirm`.
    app.post<Ids>(`${base}/confirm_from_frontend/:id`, async (req) => {
      const id = rowIdOf(order, req.params.id)
      const ctx = ctxFor(req, await ownerOf(id), order.actions.confirm!.permission)
      return runAction(ctx, id, 'confirm', bodyOf(req), confirmHandler)
    })

    // `{order: {..., order_items}}`, for its customer or staff.
    app.get<Ids>(`${base}/get_a_customer_order_detail/:id`, async (req) => {
      const id = rowIdOf(order, req.params.id)
      return { order: await readRow(ctxFor(req, await ownerOf(id), order.permissions.DETAILS), id) }
    })

    app.get<Ids>(`${base}/get_a_customer_order_detail_with_order_orderitem_shipping/:id`, async (req) => {
      const id = rowIdOf(order, req.params.id)
      const row = await readRow(ctxFor(req, await ownerOf(id), order.permissions.DETAILS), id)
      return { order: row, order_items: row.order_items, shipping: await addressOf(deps.db, 'shippingaddress', id) }
    })

    // The invoice's facts (api-contract §4.9): `{order, billing, shipping}`.
    app.get<Ids>(`${base}/get_invoice_by_order_id/:id`, async (req) => {
      const id = rowIdOf(order, req.params.id)
      const row = await readRow(ctxFor(req, await ownerOf(id), order.permissions.DETAILS), id)
      return { order: row, billing: await addressOf(deps.db, 'billingaddress', id), shipping: await addressOf(deps.db, 'shippingaddress', id) }
    })
  }

  /**
   * The storefront's cart (`customerorder/create/`): the product added to the customer's
   * pending order — to its line of the same product, colour and size, or as a new line —
   * or a new order started with it. One cart per customer: two adds at once wait in turn.
   */
  app.post(`/customerorder/api/v1/customerorder/create/`, async (req, reply) => {
    const body = bodyOf(req)
    const caller = req.principal
    if (!caller) throw new UnauthorizedError({ key: 'detail.no_credentials' })
    const customer = isSet(body.user) ? rowIdValueOf(body.user) : caller.id
    if (customer === null) throw new ValidationError({ user: [{ key: 'validation.ref', params: { label: 'field.customer' } }] })
    const ctx = ctxFor(req, customer, order.permissions.CREATE)
    const line: Line = { product: body.product, quantity: body.quantity ?? 1, color: body.color ?? null, size: body.size ?? null, ...(isSet(body.price) ? { price: body.price } : {}) }
    const made = await inTransaction(ctx, async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`cart:${customer}`}, 0))`.execute(trx)
      const inTrx = { ...ctx, db: trx }
      const cart = await sql<{ id: number }>`select id from "order" where "user" = ${customer} and status = 'pending' order by id desc limit 1`.execute(trx)
      if (!cart.rows[0]) {
        return createRow(inTrx, { user: customer, order_date: body.order_date ?? undefined, branch: body.branch ?? null, order_items: [line] })
      }
      const id = Number(cart.rows[0].id)
      const stored = ((await readRow(inTrx, id)).order_items as Line[]) ?? []
      const same = stored.find((l) => rowIdValueOf(l.product) === rowIdValueOf(line.product) && rowIdValueOf(l.color) === rowIdValueOf(line.color) && rowIdValueOf(l.size) === rowIdValueOf(line.size))
      // Stored lines by their id (the engine keeps the rest of each), with their quantity to add to.
      const lines = stored.map((l) => ({ id: l.id, quantity: l.quantity }))
      const next = same ? lines.map((l) => (l.id === same.id ? { ...l, quantity: Number(l.quantity) + Number(line.quantity), ...(isSet(line.price) ? { price: line.price } : {}) } : l)) : [...lines, line]
      return updateRow(inTrx, id, { order_items: next })
    })
    return reply.code(201).send({ order_details: made })
  })

  for (const url of [`/shippingaddress/api/v1/shippingaddress_using_order_id/:id`, `${shipping.api.base}/shippingaddress_using_order_id/:id`]) {
    app.get<Ids>(url, async (req) => {
      const id = rowIdOf(order, req.params.id)
      // The address is the order's: its customer, or staff who may read addresses.
      ctxFor(req, await ownerOf(id), shipping.permissions.DETAILS)
      return { shippingaddress: await addressOf(deps.db, 'shippingaddress', id) }
    })
  }

  // The storefront's own orders, newest first (any signed-in customer).
  app.get(`/customerorder/api/v1/customerorder/get_all_by_customer/`, async (req) => {
    const caller = req.principal
    if (!caller) throw new UnauthorizedError({ key: 'detail.no_credentials' })
    const { rows } = await readList(asSystem(requestContext(engine, order, req), order), { filters: [{ field: 'user', op: 'equals', value: caller.id }], ordering: '-id' })
    return { [order.listKey]: rows }
  })
}
