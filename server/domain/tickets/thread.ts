import { sql } from 'kysely'
import { renderMessage } from '../../../schema/kit'
import type { Entity, Fields } from '../../../schema/kit'
import type { Row, Trx } from '../../db/types'
import type { EngineCtx } from '../../engine/access'
import { ValidationError } from '../../engine/errors'
import type { EntityHooks, HookContext } from '../../engine/hooks'
import { notify } from '../../engine/notify'
import { createRow, runAction, updateRow, type ActionHandler } from '../../engine/service'
import { translator } from '../../i18n'
import { queueMail } from '../../mail/outbox'
import { departmentStaff, hasText, isTicketStaff, personOf, plainText } from './people'

/**
 * A ticket's thread (ticket_detail; domain-anchors §4, checklist 55–56): who wrote a line is
 * the server's to say — the ticket's requester writes as the customer, anyone else as staff
 * (`admin`, the contract's stamp); a customer's line is never internal. A staff reply that
 * the customer sees is the ticket's first response once, moves an open ticket to processing,
 * goes to the customer by mail and to their Inbox; a customer's reply reopens a closed
 * ticket and tells whoever is assigned (else the department). Every move of the status and
 * every change of assignee writes a system line with what it was before and after.
 */

type TicketFacts = { id: number; user: number; status: string; assignee: number | null; ticket_department: number; ticket_no: string; subject: string | null }

/** The ticket a line is written to, locked as a change of it: its lines are written one at a time. */
async function ticketOf(trx: Trx, id: number): Promise<TicketFacts | undefined> {
  const found = await sql<TicketFacts>`select id, "user", status, assignee, ticket_department, ticket_no, subject from ticket where id = ${id} for no key update`.execute(trx)
  const t = found.rows[0]
  return t && { ...t, id: Number(t.id), user: Number(t.user), assignee: t.assignee === null ? null : Number(t.assignee), ticket_department: Number(t.ticket_department) }
}

const entityOf = (ctx: { registry: readonly Entity<string, Fields>[] }, name: string) => ctx.registry.find((e) => e.name === name)!

const now = () => new Date().toISOString()

/** The staff reply, by mail to the requester, in the language they chose. */
async function mailReply(ctx: HookContext, ticket: TicketFacts, row: Row): Promise<void> {
  const requester = await personOf(ctx.trx, ticket.user, ctx.language)
  if (!requester) return
  const author = ctx.actor ? await personOf(ctx.trx, ctx.actor.id, ctx.language) : undefined
  const t = translator(requester.language)
  const params = { ticket_no: ticket.ticket_no, subject: ticket.subject ?? '', name: requester.name, author: author?.name ?? '', message: plainText(row.message) }
  await queueMail(ctx.trx, {
    to: requester.email,
    subject: renderMessage(t, { key: 'mail.ticket_reply_subject', params }),
    text: renderMessage(t, { key: 'mail.ticket_reply_text', params }).trimEnd(),
  })
}

async function moveTicket(engine: (e: Entity<string, Fields>) => EngineCtx, ticketEntity: Entity<string, Fields>, id: number, transition: 'process' | 'reopen'): Promise<void> {
  await runAction(engine(ticketEntity), id, transition, {}, transition === 'reopen' ? reopenHandler : undefined)
}

/** A reference as read: a raw id (a record) or `{id, name}` (a list row). */
const idOf = (value: unknown): number | null =>
  typeof value === 'number' ? value : value && typeof value === 'object' && 'id' in value ? Number((value as { id: unknown }).id) : null

export const detailHooks: EntityHooks = {
  /** The contract's `admin_image` and `customer_image` in its lists: each author's picture beside their line. */
  async afterRead({ db, rows, shape }) {
    if (shape !== 'list') return
    const ids = [...new Set(rows.flatMap((r) => [idOf(r.admin), idOf(r.customer)]).filter((id): id is number => id !== null))]
    const images = ids.length === 0 ? [] : (await sql<{ id: number; image: string | null }>`select id, image from "user" where id = any(${ids}::bigint[])`.execute(db)).rows
    const imageOf = new Map(images.map((u) => [Number(u.id), u.image]))
    for (const row of rows) {
      const admin = idOf(row.admin)
      const customer = idOf(row.customer)
      row.admin_image = admin === null ? null : (imageOf.get(admin) ?? null)
      row.customer_image = customer === null ? null : (imageOf.get(customer) ?? null)
    }
  },
  async beforeWrite({ trx, action, actor, values }) {
    if (action !== 'create' || !values) return
    const ticket = await ticketOf(trx, Number(values.ticket))
    // Lines the server writes say who they are (the first message, a system line).
    if (values.kind === 'system') return
    // A line a person writes says something (the system's lines record a move).
    if (!hasText(values.message)) throw new ValidationError({ message: [{ key: 'validation.message_required' }] })
    if (values.kind !== undefined && values.kind !== null) return
    if (!ticket || !actor) return
    if (actor.id === ticket.user) {
      values.kind = 'customer'
      values.customer = actor.id
      values.is_internal = false
    } else {
      values.kind = 'staff'
      values.admin = actor.id
    }
  },
  async afterWrite(ctx) {
    const { trx, action, after, engine, registry } = ctx
    if (action !== 'create' || !after || !engine || after.kind === 'system') return
    const ticket = await ticketOf(trx, Number(after.ticket))
    if (!ticket) return
    const ticketEntity = entityOf(ctx, 'ticket')
    const lines = await sql<{ n: number }>`select count(*)::int as n from ticket_detail where ticket = ${ticket.id} and kind <> 'system'`.execute(trx)
    // The first message is the ticket's opening: its create tells whom it tells.
    if (Number(lines.rows[0]?.n ?? 0) <= 1) return
    const about = { ticket_no: ticket.ticket_no, subject: ticket.subject ?? '' }
    const hooks = engine(ticketEntity).hooks
    if (after.kind === 'customer') {
      await updateRow(engine(ticketEntity), ticket.id, { last_reply_at: now() })
      if (ticket.status === 'closed') await moveTicket(engine, ticketEntity, ticket.id, 'reopen')
      await notify(trx, registry, hooks, {
        to: ticket.assignee !== null ? [ticket.assignee] : await departmentStaff(trx, ticket.ticket_department),
        kind: 'ticket_answered',
        message: { key: 'notification.ticket_customer_replied', params: about },
        entity: 'ticket',
        recordId: ticket.id,
        except: ctx.actor?.id ?? null,
      })
      return
    }
    if (after.is_internal === true) return
    const first = await sql<{ first: Date | null }>`select first_response_at as first from ticket where id = ${ticket.id}`.execute(trx)
    await updateRow(engine(ticketEntity), ticket.id, { last_reply_at: now(), ...(first.rows[0]?.first ? {} : { first_response_at: now() }) })
    if (ticket.status === 'open') await moveTicket(engine, ticketEntity, ticket.id, 'process')
    await mailReply(ctx, ticket, after)
    await notify(trx, registry, hooks, {
      to: [ticket.user],
      kind: 'ticket_answered',
      message: { key: 'notification.ticket_answered', params: about },
      entity: 'ticket',
      recordId: ticket.id,
      except: ctx.actor?.id ?? null,
    })
  },
}

/** A move of the status, as a line of the thread (FreeScout's line item): from, to, by whom. */
export const ticketTransitionHooks: EntityHooks = {
  async afterTransition({ rowId, before, after, actor, engine, registry }) {
    if (!engine) return
    await createRow(engine(entityOf({ registry }, 'ticket_detail')), {
      ticket: rowId,
      kind: 'system',
      admin: actor?.id ?? null,
      status_before: String(before.status),
      status_after: String(after.status),
    })
  },
}

/** Reopening (by staff, or by a customer's reply) counts, and the ticket is no longer closed. */
export const reopenHandler: ActionHandler = async ({ id, row, engine, registry }) => {
  await updateRow(engine(entityOf({ registry }, 'ticket')), id, { reopened_count: Number(row.reopened_count ?? 0) + 1, closed_at: null })
}

/** Given to a member of staff, or to no one; the thread says so, and the assignee is told. */
export const assignHandler: ActionHandler = async ({ trx, id, row, input, actor, engine, registry }) => {
  const assignee = input.assignee === undefined || input.assignee === null ? null : Number(input.assignee)
  if (assignee !== null && !(await isTicketStaff(trx, assignee))) throw new ValidationError({ assignee: [{ key: 'validation.assignee_not_staff' }] })
  const was = row.assignee === null || row.assignee === undefined ? null : Number(row.assignee)
  if (was === assignee) return
  const ticketEntity = entityOf({ registry }, 'ticket')
  await updateRow(engine(ticketEntity), id, { assignee })
  await createRow(engine(entityOf({ registry }, 'ticket_detail')), { ticket: id, kind: 'system', admin: actor?.id ?? null, assignee_before: was, assignee_after: assignee })
  if (assignee !== null) {
    await notify(trx, registry, engine(ticketEntity).hooks, {
      to: [assignee],
      kind: 'ticket_assigned',
      message: { key: 'notification.ticket_assigned', params: { ticket_no: String(row.ticket_no ?? ''), subject: String(row.subject ?? '') } },
      entity: 'ticket',
      recordId: id,
      except: actor?.id ?? null,
    })
  }
}
