import type { Filter } from '../../engine/list-query'
import type { WidgetRun } from '../../engine/widgets'
import { countList, readList } from '../../engine/service'

/**
 * The support desk's dashboard widgets (schema/dashboards/support.ts): read through the
 * engine as the caller — their permission, their row scope (a department's staff see its
 * tickets), the same filters as the views the figures open.
 */
const STILL_OPEN: Filter = { field: 'status', op: 'in', values: ['open', 'processing'] }
const OVERDUE: Filter = { field: 'is_overdue', op: 'past_due', value: true }

const ticketCtx = ({ db, registry, actor }: Parameters<WidgetRun>[0]) => ({ db, registry, entity: registry.find((e) => e.name === 'ticket')!, actor, access: 'check' as const })

export const ticketWidgets: Readonly<Record<string, WidgetRun>> = {
  open_tickets: async (args) => ({ count: await countList(ticketCtx(args), [STILL_OPEN]), amount: null }),
  overdue_tickets: async (args) => ({ count: await countList(ticketCtx(args), [OVERDUE]), amount: null }),
  overdue_ticket_list: async (args) => {
    const { rows } = await readList(ticketCtx(args), { filters: [OVERDUE], ordering: 'due_at', page: { page: 1, size: 10 } })
    return { rows: rows.map((r) => ({ id: r.id, ticket_no: r.ticket_no, subject: r.subject, status: r.status, due_at: r.due_at })) }
  },
}
