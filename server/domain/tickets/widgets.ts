import type { Filter } from '../../engine/list-query'
import type { WidgetRun } from '../../engine/widgets'
import { countList, readList } from '../../engine/service'
import { viewFilters } from '../../engine/request'

/**
 * The support desk's dashboard widgets (schema/dashboards/support.ts): read through the
 * engine as the caller — their permission, their row scope (a department's staff see its
 * tickets), the same filters as the views the figures open.
 */

/** The filters of the ticket's view of that name: the widget counts what the list it opens shows. */
const viewOf = (args: Parameters<WidgetRun>[0], view: 'open' | 'overdue'): Filter[] => viewFilters(ticketCtx(args).entity, view)

const ticketCtx = ({ db, registry, actor }: Parameters<WidgetRun>[0]) => ({ db, registry, entity: registry.find((e) => e.name === 'ticket')!, actor, access: 'check' as const })

export const ticketWidgets: Readonly<Record<string, WidgetRun>> = {
  open_tickets: async (args) => ({ count: await countList(ticketCtx(args), viewOf(args, 'open')), amount: null }),
  overdue_tickets: async (args) => ({ count: await countList(ticketCtx(args), viewOf(args, 'overdue')), amount: null }),
  overdue_ticket_list: async (args) => {
    const { rows } = await readList(ticketCtx(args), { filters: viewOf(args, 'overdue'), ordering: 'due_at', page: { page: 1, size: 10 } })
    return { rows: rows.map((r) => ({ id: r.id, ticket_no: r.ticket_no, subject: r.subject, status: r.status, due_at: r.due_at })) }
  },
}
