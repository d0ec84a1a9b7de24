import { sql } from 'kysely'
import { renderMessage } from '../../../schema/kit'
import { PRIORITY_HOURS } from '../../../schema/entities/tickets/ticket-lookups'
import type { Row, Trx } from '../../db/types'
import type { EntityHooks, HookContext } from '../../engine/hooks'
import { notify } from '../../engine/notify'
import { createRow } from '../../engine/service'
import type { Values } from '../../engine/validate'
import { translator } from '../../i18n'
import { queueMail } from '../../mail/outbox'
import { departmentStaff, personOf, plainText } from './people'

/**
 * A ticket's rules as it is opened (schema/entities/tickets/ticket.ts): medium when no
 * priority is given (both are given by id or by name: the registry's `byName`); due the priority's hours
 * after it is opened; its first message written as the first line of its thread; the
 * requester told by mail that it was received, and the department's staff in their Inbox.
 */

async function hoursOf(trx: Trx, priority: unknown): Promise<number> {
  if (priority === null || priority === undefined) return PRIORITY_HOURS.medium
  const found = await sql<{ hours: number }>`select response_hours as hours from ticket_priority where id = ${Number(priority)}`.execute(trx)
  return Number(found.rows[0]?.hours ?? PRIORITY_HOURS.medium)
}

/** The requester told the ticket was received: to the address the create named (the storefront's), else theirs. */
async function acknowledge(ctx: HookContext, row: Row, opening: Values): Promise<void> {
  const requester = await personOf(ctx.trx, Number(row.user), ctx.language)
  const to = typeof opening.email === 'string' && opening.email.trim() !== '' ? opening.email.trim() : requester?.email
  if (!to || !requester) return
  const t = translator(requester.language)
  const name = typeof opening.name === 'string' && opening.name.trim() !== '' ? opening.name.trim() : requester.name
  const params = { ticket_no: String(row.ticket_no ?? ''), subject: String(row.subject ?? ''), name, message: plainText(opening.message) }
  await queueMail(ctx.trx, {
    to,
    subject: renderMessage(t, { key: 'mail.ticket_received_subject', params }),
    text: renderMessage(t, { key: 'mail.ticket_received_text', params }).trimEnd(),
  })
}

export const ticketHooks: EntityHooks = {
  async beforeValidate({ trx, action, input }) {
    if (action !== 'create') return
    // A customer is named by the engine (`own`); staff name the customer they open it for.
    if (input.ticket_priority === undefined || input.ticket_priority === null || input.ticket_priority === '') {
      const medium = await sql<{ id: number }>`select id from ticket_priority where name = 'medium' order by id limit 1`.execute(trx)
      if (medium.rows[0]) input.ticket_priority = Number(medium.rows[0].id)
    }
  },
  async beforeWrite({ trx, action, values }) {
    if (action !== 'create' || !values) return
    const now = Date.now()
    values.due_at = new Date(now + (await hoursOf(trx, values.ticket_priority)) * 3_600_000).toISOString()
    values.last_reply_at = new Date(now).toISOString()
  },
  async afterWrite(ctx) {
    const { trx, action, rowId, after, engine, registry, values } = ctx
    if (action !== 'create' || !after || !engine) return
    const detail = registry.find((e) => e.name === 'ticket_detail')!
    // The requester's words, whoever typed them in (staff open tickets for customers on the phone).
    const first: Values = { ticket: rowId, kind: 'customer', customer: Number(after.user), message: values.message, file: values.file ?? null }
    await createRow(engine(detail), first)
    await acknowledge(ctx, after, values)
    const ticketCtx = engine(ctx.entity)
    await notify(trx, registry, ticketCtx.hooks, {
      to: await departmentStaff(trx, Number(after.ticket_department)),
      kind: 'ticket_opened',
      message: { key: 'notification.ticket_opened', params: { ticket_no: String(after.ticket_no ?? ''), subject: String(after.subject ?? '') } },
      entity: 'ticket',
      recordId: rowId,
      except: ctx.actor?.id ?? null,
    })
  },
}
