import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { ORDER_STATUSES } from '../../../schema/entities/orders/order-status'
import type { Entity, Fields } from '../../../schema/kit'
import { todayIso } from '../../../schema/kit/dates'
import { can } from '../../auth/principal'
import { ForbiddenError } from '../../engine/errors'
import { source, whereClause, type Filter } from '../../engine/list-query'
import { viewFilters } from '../../engine/request'
import { requestContext, type EngineDeps } from '../../engine/routes'
import { countList, readList, scopeFilters, type Ctx } from '../../engine/service'
import { countLowStock } from '../inventory'

/**
 * What the quick panel tells a person about today (issue 23): a few figures of the business
 * — each counted through the engine for the caller, so their permission and their row scope
 * decide it as they decide the list it opens — and their latest unread notifications.
 */
export type QuickPanelFigure = { key: string; count: number; href: string }

export type QuickPanelNotification = {
  id: number
  kind: string
  /** An i18n key of the shell's catalogue, said with `params`. */
  message: string
  params: Record<string, unknown> | null
  entity: string | null
  record_id: number | null
  at: string
}

type FigureSpec = {
  key: string
  /** The entity it counts; a figure of an entity the registry does not have (yet) is left out. */
  entity: string
  /** What it counts, as the entity's list filters it: counted by the engine as the list is (`countList`). */
  filters: (day: string, entity: Entity<string, Fields>) => Filter[]
  /** Or a count of its own where no list filter can say what it counts, within the caller's scope of the list (`ctx`). */
  count?: (ctx: Ctx) => Promise<number>
  /** The list it opens, filtered as far as the list's address can say it. */
  href: (entity: Entity<string, Fields>, day: string) => string
}

const NOT_CANCELLED = ORDER_STATUSES.filter((s) => s !== 'cancelled')
const NOTIFICATIONS_SHOWN = 5

const withSearch = (path: string, search: Record<string, string>) => {
  const query = new URLSearchParams(search).toString()
  return query ? `${path}?${query}` : path
}

/**
 * The low-stock flag of the stock list is worked out on read (the product's own alert,
 * server/domain/inventory), not a column a list filter can hold; nor can the products be
 * named by id — every product has its stock row from the start, so a catalogue never stocked
 * is low throughout. Counted as the dashboard's card counts it, among the rows of the
 * caller's row scope of the stock list, as the engine applies it to that list.
 */
function lowStockOf(ctx: Ctx): Promise<number> {
  const scope = scopeFilters(ctx)
  return countLowStock(ctx.db, scope.length > 0 ? sql`and i.id in (select t.id from ${source(ctx.entity)} t ${whereClause(ctx.registry, ctx.entity, 't', scope)})` : sql``)
}

const figures: readonly FigureSpec[] = [
  {
    key: 'open_tickets',
    entity: 'ticket',
    // The tickets still to answer, as their view (`open`) lists them and the dashboard counts them.
    filters: (_day, ticket) => (ticket.views.open ? viewFilters(ticket, 'open') : []),
    href: (ticket) => ticket.views.open?.ui.listPath ?? ticket.ui.listPath,
  },
  {
    key: 'orders_today',
    entity: 'order',
    filters: (day) => [
      { field: 'order_date', op: 'gte', value: day },
      { field: 'order_date', op: 'lte', value: day },
      { field: 'status', op: 'in', values: NOT_CANCELLED },
    ],
    href: (order, day) => withSearch(order.ui.listPath, { order_date_after: day, order_date_before: day }),
  },
  {
    key: 'low_stock_products',
    entity: 'inventory',
    filters: () => [],
    count: lowStockOf,
    // The lowest stock first: the list has no filter of the flag (as the dashboard's card, which opens it whole).
    href: (inventory) => withSearch(inventory.ui.listPath, { ordering: 'quantity' }),
  },
]

const fieldsKnown = (entity: Entity<string, Fields>, filters: readonly Filter[]) => filters.every((f) => !('field' in f) || f.field === 'id' || entity.fields[f.field] !== undefined)

/**
 * Today's figures the caller may see: those of the lists they may open, each counted as that
 * list counts for them. Today is the day a record written now is dated with (an order's
 * `order_date` left blank: the server's day).
 */
export async function todaysFigures(deps: EngineDeps, request: FastifyRequest, day = todayIso()): Promise<QuickPanelFigure[]> {
  const principal = request.principal!
  const shown = figures.flatMap((spec) => {
    const entity = deps.registry.find((e) => e.name === spec.entity && !e.isLine)
    const filters = entity ? spec.filters(day, entity) : []
    return entity && fieldsKnown(entity, filters) && can(principal, entity.permissions.LIST) ? [{ spec, entity, filters }] : []
  })
  return Promise.all(
    shown.map(async ({ spec, entity, filters }) => {
      const ctx = requestContext(deps, entity, request)
      const count = spec.count ? await spec.count(ctx) : await countList(ctx, filters)
      return { key: spec.key, count, href: spec.href(entity, day) }
    }),
  )
}

/**
 * The caller's newest unread notifications, read as their inbox lists them (its scope: their
 * own). The engine decides whether they may (their permission, or `own`): none otherwise.
 */
export async function unreadNotifications(deps: EngineDeps, request: FastifyRequest): Promise<QuickPanelNotification[]> {
  const entity = deps.registry.find((e) => e.name === 'notification')
  if (!entity?.fields.is_read) return []
  try {
    const { rows } = await readList(requestContext(deps, entity, request), {
      filters: [{ field: 'is_read', op: 'equals', value: false }],
      ordering: '-id',
      page: { page: 1, size: NOTIFICATIONS_SHOWN },
    })
    return rows.map((row) => ({
      id: Number(row.id),
      kind: String(row.kind),
      message: String(row.message),
      params: typeof row.params === 'object' && row.params !== null && !Array.isArray(row.params) ? (row.params as Record<string, unknown>) : null,
      entity: typeof row.entity === 'string' ? row.entity : null,
      record_id: row.record_id === null || row.record_id === undefined ? null : Number(row.record_id),
      at: row.created_at instanceof Date ? row.created_at.toISOString() : String(row.created_at),
    }))
  } catch (error) {
    if (error instanceof ForbiddenError) return []
    throw error
  }
}
