import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { TICKET_DEPARTMENTS } from '../../../schema/entities/tickets/ticket-lookups'
import type { ModuleDeps } from '../../engine/modules'
import { filtersOf, orderingOf, pageOf } from '../../engine/request'
import { actionConfig, requestContext } from '../../engine/routes'
import { createRow, readList } from '../../engine/service'

/**
 * The contract's department lists (api-contract §4.11): `ticket_of_account_department/`,
 * `ticket_of_sales_department/`, `ticket_of_support_department/` — the tickets of the
 * department of that name (any case), as `all/` answers them (paged, filtered, in the
 * caller's scope); the department is made when missing, as the original did.
 */
const ROUTES: ReadonlyArray<readonly [path: string, department: (typeof TICKET_DEPARTMENTS)[number]]> = [
  ['ticket_of_account_department', 'accounts'],
  ['ticket_of_sales_department', 'sales'],
  ['ticket_of_support_department', 'support'],
]

export function registerTicketRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const ticket = deps.registry.find((e) => e.name === 'ticket')
  const department = deps.registry.find((e) => e.name === 'ticket_department')
  if (!ticket || !department) return
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }
  for (const base of ticket.api.bases) {
    for (const [path, name] of ROUTES) {
      app.get(`${base}/${path}/`, { config: actionConfig(ticket, 'LIST') }, async (request) => {
        const exists = await sql<{ id: number }>`select id from ticket_department where lower(name) = ${name}`.execute(deps.db)
        if (exists.rows.length === 0) await createRow({ db: deps.db, registry: deps.registry, entity: department, actor: request.principal ?? null, access: 'system', hooks: deps.hooks }, { name })
        const query = request.query as Record<string, unknown>
        const result = await readList(requestContext(engine, ticket, request), {
          filters: [{ field: 'ticket_department', op: 'label', value: name }, ...filtersOf(ticket, query, { unknown: 'ignore' })],
          ordering: orderingOf(ticket, query),
          page: pageOf(query),
        })
        return { [ticket.listKey]: result.rows, page: result.page, size: result.size, total_pages: result.totalPages, total_elements: result.total }
      })
    }
  }
}
