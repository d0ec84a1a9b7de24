import { defineWidget } from '../kit/widget'

/**
 * The support desk on the dashboard (domain-anchors checklist 57: overdue tickets surface on
 * the dashboard): the tickets still to answer, those overdue, and the overdue ones listed —
 * each read through the engine in the caller's scope (server/domain/tickets/widgets.ts), so
 * staff see their department's.
 */
const ticketRow = { ticket_no: 'text', subject: 'text', status: 'status', due_at: 'date' } as const

export const supportWidgets = [
  defineWidget({ name: 'open_tickets', dashboard: 'project', kind: 'figure', reads: 'ticket', link: { entity: 'ticket', view: 'open' }, format: 'integer', order: 45 }),
  defineWidget({ name: 'overdue_tickets', dashboard: 'project', kind: 'figure', reads: 'ticket', link: { entity: 'ticket', view: 'overdue' }, format: 'integer', order: 46 }),
  defineWidget({ name: 'overdue_ticket_list', dashboard: 'project', kind: 'list', reads: 'ticket', answerKey: 'tickets', link: { entity: 'ticket', view: 'overdue' }, columns: ticketRow, order: 140 }),
]
