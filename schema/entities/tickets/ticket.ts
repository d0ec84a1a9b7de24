import { defineEntity, f } from '../../kit'
import { TICKET_STATUSES } from './ticket-lookups'

/** Who wrote a line of a ticket's thread (FreeScout's thread types, Zammad's senders). */
export const TICKET_AUTHORS = ['customer', 'staff', 'system'] as const

/** Whether a message has words (its HTML's text is not blank). */
const hasText = (html: unknown) => typeof html === 'string' && html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim() !== ''

/** A department's list: its department goes without saying. */
const DEPARTMENT_COLUMNS = ['ticket_no', 'subject', 'user', 'ticket_priority', 'status', 'assignee', 'due_at', 'is_overdue', 'last_reply_at'] as const

/**
 * A support ticket (api-contract §4.11, §5.4; domain-anchors §4; decisions "Tickets"): a
 * customer's question to a department, with its thread (`ticket_detail`). Anyone signed in
 * may open one — the first message is written with it — and follows theirs alone (`own`);
 * staff see their department's (their employee record's `ticket_department`), admins all.
 * open → processing (answered) → closed; a closed one reopens (`reopen`, or a customer's
 * reply). Each move and each change of assignee leaves a line in the thread. Due
 * `response_hours` of its priority after it is opened; the first staff reply is kept as
 * `first_response_at` (server/domain/tickets).
 */
export const ticket = defineEntity({
  name: 'ticket',
  module: 'tickets',
  listKey: 'tickets',
  labelField: 'ticket_no',
  title: ['ticket_no', 'subject'],
  ordering: '-id',
  route: {
    area: 'ticket-management',
    list: 'tickets',
    form: 'ticket-details',
  },
  fields: {
    ticket_no: f.text({ max: 30, readOnly: true, search: true, code: true }),
    subject: f.text({ max: 500, search: true }),
    user: f.ref('user', { required: true, search: true, label: 'field.requester' }),
    // By id, or by name as the contract's clients send them (`support`, `high`).
    ticket_department: f.ref('ticket_department', { required: true, byName: true, label: 'field.department' }),
    ticket_priority: f.ref('ticket_priority', { byName: true, label: 'field.priority' }),
    status: f.choice(TICKET_STATUSES, { default: 'open' }),
    ticket_status: f.ref('ticket_status', { readOnly: true, hideInList: true }),
    ticket_type: f.text({ max: 200, hideInList: true, label: 'field.ticket_type' }),
    // A member of staff (an employee) who answers it: staff pick among employees, whom they may list.
    assignee: f.ref('employee', { readOnly: true }),
    // The first message and its attachment, written as the thread's first line; the requester's name and address for the acknowledgement.
    message: f.html({ transient: true, label: 'field.message' }),
    file: f.file({ transient: true, label: 'field.attachment', accept: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain'] }),
    name: f.text({ max: 200, transient: true }),
    email: f.email({ transient: true }),
    due_at: f.datetime({ readOnly: true, label: 'field.due_at' }),
    is_overdue: f.pastDue({ due: 'due_at', unless: { field: 'status', values: ['closed'] }, label: 'field.overdue' }),
    first_response_at: f.datetime({ readOnly: true, hideInList: true }),
    last_reply_at: f.datetime({ readOnly: true }),
    closed_at: f.datetime({ readOnly: true, hideInList: true }),
    reopened_count: f.integer({ readOnly: true, default: 0, hideInList: true }),
  },
  search: ['ticket_no', 'subject', 'user'],
  listColumns: ['ticket_no', 'subject', 'user', 'ticket_department', 'ticket_priority', 'status', 'assignee', 'due_at', 'is_overdue', 'last_reply_at'],
  filters: ['status', 'ticket_priority', 'assignee', 'is_overdue', 'ticket_department', 'user'],
  // It is opened with its first message (the thread's first line); an update changes the ticket alone.
  rules: [{ field: 'message', message: 'validation.message_required', fields: ['message'], check: (t, context) => context.mode !== 'create' || hasText(t.message) }],
  numbering: { field: 'ticket_no', prefix: 'TK', reset: 'year' },
  workflow: {
    field: 'status',
    initial: 'open',
    editableIn: ['open', 'processing'],
    lookup: { field: 'ticket_status' },
    transitions: {
      process: { from: ['open'], to: 'processing' },
      close: { from: ['open', 'processing'], to: 'closed', stamp: 'closed_at', confirm: true },
      reopen: { from: ['closed'], to: 'open' },
    },
    tones: { open: 'blue', processing: 'amber', closed: 'green' },
  },
  actions: {
    // Given to a member of staff (or taken back: no assignee); the thread says so.
    assign: { input: { assignee: f.ref('employee', { label: 'field.assignee' }) } },
  },
  // A customer opens theirs and reads them; everything else is staff's.
  own: { field: 'user', actions: ['LIST', 'DETAILS', 'CREATE'] },
  // Staff whose employee record names a ticket department answer that department's; the rest (and admins) all.
  scope: (caller) => {
    const department = caller.attributes?.ticket_department
    return !caller.isAdmin && caller.permissions.has('TICKET_LIST') && typeof department === 'number' ? { ticket_department: department } : null
  },
  // Each department's list opens its tickets at the spec's thread address of that department.
  // The spec's three department lists, each opening its threads at the spec's address; and the tickets still to answer.
  views: {
    support: { route: { area: 'support-management', list: 'supports', form: 'support-managements/ticket-details' }, filter: { ticket_department: 'support' }, columns: DEPARTMENT_COLUMNS, nav: { group: 'support-ticket', icon: 'support_agent', order: 1 } },
    sales: { route: { area: 'sale-management', list: 'sales', form: 'sale-managements/ticket-details' }, filter: { ticket_department: 'sales' }, columns: DEPARTMENT_COLUMNS, nav: { group: 'support-ticket', icon: 'point_of_sale', order: 2 } },
    accounts: { route: { area: 'acccount-management', list: 'accounts', form: 'account-managements/ticket-details' }, filter: { ticket_department: 'accounts' }, columns: DEPARTMENT_COLUMNS, nav: { group: 'support-ticket', icon: 'account_balance', order: 3 } },
    open: { route: { area: 'ticket-management', list: 'tickets/open' }, filter: { status: ['open', 'processing'] }, nav: false },
    overdue: { route: { area: 'ticket-management', list: 'tickets/overdue' }, filter: { is_overdue: true }, nav: false },
  },
  history: true,
  extraRoutes: [{ kind: 'listBy', path: 'get_all_by_user_id', field: 'user' }],
  nav: { group: 'support-ticket', icon: 'support', order: 10 },
})

/**
 * A line of a ticket's thread (api-contract §4.11 TicketDetail): a customer's message, a
 * staff reply (stamped with its author as `admin`), an internal note (staff only), or a
 * system line recording a move or a change of assignee with what it was before and after
 * (FreeScout's line items). Append-only: no update or delete route; a ticket's delete takes
 * its thread with it. Whoever may read the ticket may read and add to its thread (`own`
 * through the ticket); a customer never sees internal notes. A message is required of
 * everyone but the system (server/domain/tickets/thread.ts).
 */
export const ticketDetail = defineEntity({
  name: 'ticket_detail',
  module: 'tickets',
  listKey: 'ticket_details',
  labelField: 'ticket',
  // A thread reads from its first line.
  ordering: 'id',
  route: { area: 'ticketDetail-management', list: 'ticketDetails' },
  fields: {
    ticket: f.ref('ticket', { required: true, search: true, onDelete: 'cascade' }),
    kind: f.choice(TICKET_AUTHORS, { readOnly: true, label: 'field.author_type' }),
    admin: f.ref('user', { readOnly: true, label: 'field.staff' }),
    customer: f.ref('user', { readOnly: true, label: 'field.customer' }),
    message: f.html({ label: 'field.message' }),
    file: f.file({ label: 'field.attachment', accept: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain'] }),
    is_internal: f.boolean({ default: false, label: 'field.internal_note' }),
    status_before: f.text({ max: 20, readOnly: true, hideInList: true }),
    status_after: f.text({ max: 20, readOnly: true, hideInList: true }),
    assignee_before: f.ref('employee', { readOnly: true, hideInList: true }),
    assignee_after: f.ref('employee', { readOnly: true, hideInList: true }),
  },
  listColumns: ['ticket', 'kind', 'admin', 'customer', 'message', 'is_internal'],
  filters: ['ticket', 'kind', 'is_internal'],
  routes: { update: false, delete: false, delete_multiple: false },
  own: { via: 'ticket', actions: ['LIST', 'DETAILS', 'CREATE'] },
  // A customer reads the thread without the staff's internal notes.
  scope: (caller) => (caller.isAdmin || caller.permissions.has('TICKET_DETAIL_LIST') ? null : { is_internal: false }),
  extraRoutes: [{ kind: 'listBy', path: 'get_all_by_ticket_id', field: 'ticket' }],
  nav: false,
})
