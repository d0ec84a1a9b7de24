import { defineEntity, f } from '../../kit'

/** The departments tickets go to (api-contract §4.11 TicketDepartment; decisions "Tickets"). */
export const TICKET_DEPARTMENTS = ['support', 'sales', 'accounts'] as const
/** How urgent a ticket is (TicketPriority), with the hours within which it is due by default. */
export const TICKET_PRIORITIES = ['high', 'medium', 'low'] as const
export const PRIORITY_HOURS: Readonly<Record<(typeof TICKET_PRIORITIES)[number], number>> = { high: 4, medium: 24, low: 72 }
/** A ticket's stages (TicketStatus): open on create, processing once answered, closed; a customer's reply reopens it. */
export const TICKET_STATUSES = ['open', 'processing', 'closed'] as const

/**
 * The ticket departments (`ticket_departments`): `{id, name}` in lower snake case, seeded at
 * every start (server/domain/tickets). The three the menu's lists and the contract's
 * `ticket_of_<x>_department/` routes follow cannot be renamed or deleted; admins may add
 * others. Staff answer the tickets of the department their employee record names.
 */
export const ticketDepartment = defineEntity({
  name: 'ticket_department',
  module: 'tickets',
  listKey: 'ticket_departments',
  ordering: 'id',
  route: { area: 'ticketDepartment-management', list: 'ticketDepartments' },
  fields: { name: f.text({ max: 100, required: true, search: true, unique: true, code: true, normalize: 'lower_snake' }) },
  builtIn: { field: 'name', values: TICKET_DEPARTMENTS, message: 'detail.built_in_ticket_lookup' },
  // Whoever opens a ticket picks one: the USER role included (names only).
  public: ['LIST'],
  nav: { group: 'support-ticket', icon: 'label', order: 20 },
})

/**
 * The ticket priorities (`ticket_priorities`), each with the hours a ticket of it is due
 * within (`response_hours`, osTicket's SLA grace period): a ticket's `due_at` is its creation
 * plus these; past it and not closed, the ticket is overdue.
 */
export const ticketPriority = defineEntity({
  name: 'ticket_priority',
  module: 'tickets',
  listKey: 'ticket_priorities',
  ordering: 'id',
  route: { area: 'ticketPriority-management', list: 'ticketPriorities' },
  fields: {
    name: f.text({ max: 100, required: true, search: true, unique: true, code: true, normalize: 'lower_snake' }),
    response_hours: f.integer({ required: true, min: 1, max: 8760 }),
  },
  builtIn: { field: 'name', values: TICKET_PRIORITIES, message: 'detail.built_in_ticket_lookup' },
  public: ['LIST'],
  nav: { group: 'support-ticket', icon: 'label', order: 21 },
})

/**
 * The ticket statuses (`ticket_statuses`): every ticket's `ticket_status` follows its
 * workflow's state (the registry's `workflow.lookup`), so the three cannot be renamed or deleted.
 */
export const ticketStatus = defineEntity({
  name: 'ticket_status',
  module: 'tickets',
  listKey: 'ticket_statuses',
  ordering: 'id',
  route: { area: 'ticketStatus-management', list: 'ticketStatuses' },
  fields: { name: f.text({ max: 100, required: true, search: true, unique: true, code: true, normalize: 'lower_snake' }) },
  builtIn: { field: 'name', values: TICKET_STATUSES, message: 'detail.built_in_ticket_lookup' },
  nav: { group: 'support-ticket', icon: 'label', order: 22 },
})
