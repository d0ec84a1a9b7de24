import { defineEntity, f } from '../../kit'

/**
 * A mail the application sends (a password reset, later an order's or a ticket's mail),
 * queued in the transaction of the write that asks for it and delivered after commit by the
 * server's sender (server/mail/). Only the server writes it (there is no create or update
 * route): admins read the outbox, may send a message again or delete it. A message's files
 * (an order's invoice PDF) are kept beside it in the system table `outbox_attachment`
 * (server/mail/outbox.ts; bytes as bytea, which no registry field holds), written in the
 * same transaction; the sender sweeps those of a deleted message.
 */
export const MAIL_STATUSES = ['queued', 'retrying', 'sent', 'failed'] as const

export const outboxMessage = defineEntity({
  name: 'outbox_message',
  module: 'workspace',
  listKey: 'outbox_messages',
  labelField: 'subject',
  route: { area: 'outbox-management', list: 'outbox' },
  fields: {
    // What queueMail was given; the state below is the sender's (read-only).
    recipient: f.text({ max: 320, required: true, search: true, code: true, personal: true }),
    subject: f.text({ max: 255, required: true, search: true }),
    status: f.choice(MAIL_STATUSES, { readOnly: true, default: 'queued' }),
    attempts: f.integer({ readOnly: true, default: 0 }),
    next_attempt_at: f.datetime({ readOnly: true }),
    sent_at: f.datetime({ readOnly: true }),
    last_error: f.text({ multiline: true, readOnly: true, hideInList: true, personal: true }),
    // A reset mail's body holds its link: whoever reads it takes the account over.
    body_text: f.text({ multiline: true, hideInList: true, personal: true }),
    body_html: f.text({ multiline: true, hideInList: true, personal: true }),
  },
  listColumns: ['recipient', 'subject', 'status', 'attempts', 'sent_at'],
  // Create and update are the server's (queueMail and the sender); a message that failed for good may be sent again.
  routes: { create: false, update: false },
  actions: { send_again: { confirm: true, isAvailable: (row) => row.status === 'failed' || row.status === 'retrying' } },
  // Beside users and roles: the admins' group, as only admins read the outbox.
  nav: { group: 'user-config', icon: 'history', order: 90 },
})
