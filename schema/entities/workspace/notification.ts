import { defineEntity, f } from '../../kit'

/**
 * A notification (issue 23, the Inbox): something a person should know about a record — an
 * order confirmed, a product running low, a mail that could not be sent — written for them
 * by the server in the transaction of the write that causes it (server/engine/notify.ts), so
 * it exists exactly when that write commits. Nobody creates or changes one through the API:
 * its recipient lists, reads, marks read and deletes their own, and nobody else's — an admin
 * included. The text is the browser's: `message` is an i18n key of the shell's catalogue
 * (`notification.*`), said with `params`; `entity` and `record_id` name the record it opens.
 */
export const NOTIFICATION_KINDS = ['ticket_assigned', 'ticket_answered', 'ticket_opened', 'purchase_request', 'low_stock', 'order_confirmed', 'mail_failed'] as const

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]

export const notification = defineEntity({
  name: 'notification',
  module: 'workspace',
  listKey: 'notifications',
  labelField: 'message',
  route: { area: 'notification-management', list: 'notifications' },
  ordering: '-id',
  fields: {
    // Deleting a user takes their notifications with them: nobody else reads them.
    user: f.ref('user', { required: true, onDelete: 'cascade' }),
    kind: f.choice(NOTIFICATION_KINDS, { required: true }),
    message: f.text({ max: 100, required: true, code: true, search: true }),
    params: f.json(),
    entity: f.text({ max: 100, code: true }),
    record_id: f.integer(),
    // Reading one's notifications is not business activity: the audit log leaves it out.
    is_read: f.boolean({ default: false, readOnly: true, audited: false }),
    read_at: f.datetime({ readOnly: true, audited: false }),
  },
  listColumns: ['kind', 'message', 'entity', 'record_id', 'is_read', 'read_at'],
  filters: ['kind', 'is_read'],
  // Only the server writes them (notify); the recipient marks them read.
  routes: { create: false, update: false },
  // Everyone — an admin too — reaches only their own notifications.
  scope: (caller) => ({ user: caller.id }),
  // A signed-in user without the permissions still has their inbox.
  own: { field: 'user', actions: ['LIST', 'DETAILS', 'DELETE', 'mark_read'] },
  actions: { mark_read: { isAvailable: (row) => row.is_read !== true } },
  // The Inbox (/apps/mail) is the shell's page, not a list of the sidebar.
  nav: false,
})
