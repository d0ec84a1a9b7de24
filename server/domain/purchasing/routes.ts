import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { type Entity, type Fields } from '../../../schema/kit'
import { rowIdValueOf } from '../../../schema/kit/validators'
import type { Row } from '../../db/types'
import { asSystem, authorize, type EngineCtx } from '../../engine/access'
import { BusinessError, UnauthorizedError, ValidationError } from '../../engine/errors'
import { deleteMessage } from '../../engine/operations/delete'
import { messageFor } from '../../i18n'
import type { ModuleDeps } from '../../engine/modules'
import { rowIdOf } from '../../engine/request'
import { actionConfig, requestContext } from '../../engine/routes'
import { changeLines, documentOfLine, inTransaction, readList, readRow } from '../../engine/service'
import { purchaseFromRequest } from './from-request'
import { registerVendorOffers } from './vendor-offers'

/**
 * The contract's purchasing routes beside the engine's (api-contract §4.10): each is an
 * engine read or write of the registry's documents, under the caller's permission — a line
 * changed or removed is its document updated (the workflow's lock, the rules, the audit); a
 * final purchase made from an offer is the engine's create, in one transaction with the
 * offer's own check.
 */
type Line = Record<string, unknown>
type Ids = { Params: { id: string } }

export function registerPurchasingRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const byName = (name: string) => deps.registry.find((e) => e.name === name)
  const [request, requestItem, picture, purchase, purchaseItem, product, vendor] = [
    byName('purchase_request'),
    byName('purchase_req_item'),
    byName('purchase_req_item_image'),
    byName('purchase_final'),
    byName('purchase_final_item'),
    byName('product'),
    byName('vendor'),
  ]
  // A test's registry of its own may have no purchasing.
  if (!request || !requestItem || !picture || !purchase || !purchaseItem || !product || !vendor) return
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }
  const ctxOf = (entity: Entity<string, Fields>, req: FastifyRequest) => requestContext(engine, entity, req)

  /** A document's line changed or taken off through the document's update (`change`: the lines kept, by id). */
  const changeLinesOf = async (req: FastifyRequest, document: Entity<string, Fields>, field: string, line: Entity<string, Fields>, lineId: number, change: (lines: Line[]) => Line[]) =>
    changeLines(ctxOf(document, req), await documentOfLine(deps.db, line, lineId), field, (stored) => change(stored.map((l) => ({ id: l.id }))))

  const bodyOf = (req: FastifyRequest): Line => {
    const body = req.body ?? {}
    if (typeof body !== 'object' || Array.isArray(body)) throw new BusinessError({ key: 'detail.json_object' })
    return body as Line
  }

  // ---------------------------------------------------------------- final purchases

  const purchaseBase = purchase.api.base

  app.put<{ Params: { itemId: string } }>(`${purchaseBase}/update_item/:itemId`, { config: actionConfig(purchase, 'UPDATE') }, async (req) => {
    const itemId = rowIdOf(purchaseItem, req.params.itemId)
    const body = bodyOf(req)
    const given = Object.fromEntries(['product', 'quantity', 'unit_price'].filter((k) => Object.hasOwn(body, k)).map((k) => [k, body[k]]))
    return changeLinesOf(req, purchase, 'items', purchaseItem, itemId, (lines) => lines.map((l) => (l.id === itemId ? { ...l, ...given } : l)))
  })

  app.delete<{ Params: { itemId: string } }>(`${purchaseBase}/delete_item/:itemId`, { config: actionConfig(purchase, 'UPDATE') }, async (req) => {
    const itemId = rowIdOf(purchaseItem, req.params.itemId)
    return changeLinesOf(req, purchase, 'items', purchaseItem, itemId, (lines) => lines.filter((l) => l.id !== itemId))
  })

  /** The purchase as its invoice prints it: the record with its lines, and who it is from. */
  app.get<Ids>(`${purchaseBase}/get_invoice_by_purchase_final_id/:id`, { config: actionConfig(purchase, 'DETAILS', true) }, async (req) => {
    const row = await readRow(ctxOf(purchase, req), rowIdOf(purchase, req.params.id))
    return { ...row, vendor: await partyOf(Number(row.vendor)) }
  })

  async function partyOf(id: number | null): Promise<Row | null> {
    if (id === null || !Number.isFinite(id)) return null
    const found = await deps.db
      .selectFrom('user')
      .leftJoin('vendor', 'vendor.id', 'user.id')
      .select(['user.id', 'user.username', 'user.first_name', 'user.last_name', 'user.email', 'user.primary_phone', 'user.street_address_one', 'vendor.company_name'])
      .where('user.id', '=', id)
      .executeTakeFirst()
    return (found as Row | undefined) ?? null
  }

  /** A final purchase from a verified offer (from-request.ts), under the purchase's CREATE. */
  app.post(`${purchaseBase}/create_from_purchase_request/`, { config: actionConfig(purchase, 'CREATE') }, async (req, reply) => {
    const body = bodyOf(req)
    const ctx = ctxOf(purchase, req)
    authorize(ctx, 'CREATE')
    const requestId = rowIdValueOf(body.purchase_request)
    if (requestId === null) throw new ValidationError({ purchase_request: [{ key: 'validation.required', params: { label: 'entity.purchase_request.one' } }] })
    const made = await inTransaction(ctx, (trx) => purchaseFromRequest(trx, ctx, requestId, body))
    return reply.code(201).send(await readRow(ctx, made))
  })

  // ---------------------------------------------------------------- purchase requests

  const requestBase = request.api.base

  /** A request with its lines, each with its pictures (`purchase_request_item_images: [{id, image}]`). */
  async function requestWithPictures(ctx: EngineCtx, id: number): Promise<Row> {
    const row = await readRow(ctx, id)
    const lines = (row.purchase_request_items as Line[]) ?? []
    const ids = lines.map((l) => Number(l.id))
    const pictures = ids.length === 0 ? [] : (await sql<{ id: number; purchase_req_item: number; image: string }>`
      select id, purchase_req_item, image from purchase_req_item_image where purchase_req_item = any(${ids}::bigint[]) order by position, id`.execute(deps.db)).rows
    return {
      ...row,
      purchase_request_items: lines.map((l) => ({ ...l, purchase_request_item_images: pictures.filter((p) => Number(p.purchase_req_item) === Number(l.id)).map((p) => ({ id: p.id, image: p.image })) })),
    }
  }

  app.get<Ids>(`${requestBase}/purchase_request_with_items_images/:id`, { config: actionConfig(request, 'DETAILS', true) }, async (req) =>
    requestWithPictures(ctxOf(request, req), rowIdOf(request, req.params.id)),
  )

  app.get<Ids>(`${requestBase}/get_invoice_by_purchase_request_id/:id`, { config: actionConfig(request, 'DETAILS', true) }, async (req) => {
    const row = await requestWithPictures(ctxOf(request, req), rowIdOf(request, req.params.id))
    return { ...row, vendor: await partyOf(rowIdValueOf(row.vendor)) }
  })

  // `/purchase_req_item/api/v1/purchase_req_item/delete/{id}`: a line taken off its offer (while it may change).
  app.delete<Ids>(`${requestItem.api.base}/delete/:id`, { config: actionConfig(request, 'UPDATE') }, async (req) => {
    const itemId = rowIdOf(requestItem, req.params.id)
    await changeLinesOf(req, request, 'purchase_request_items', requestItem, itemId, (lines) => lines.filter((l) => l.id !== itemId))
    return { detail: messageFor(req.headers['accept-language'], deleteMessage(requestItem, itemId, 'deleted')) }
  })

  // Any signed-in user: the vendor's own offers, newest first (a vendor's id is their user id), as the storefront lists them.
  app.get(`${requestBase}/get_all_by_vendor/`, async (req) => {
    const caller = req.principal
    if (!caller) throw new UnauthorizedError({ key: 'detail.no_credentials' })
    const { rows } = await readList(asSystem(ctxOf(request, req), request), { filters: [{ field: 'vendor', op: 'equals', value: caller.id }], ordering: '-id' })
    return { [request.listKey]: rows }
  })

  registerVendorOffers(app, deps, { request, picture, vendor })
}
