import { sql } from 'kysely'
import { PRIORITY_HOURS, TICKET_DEPARTMENTS, TICKET_PRIORITIES, TICKET_STATUSES } from '../../../schema/entities/tickets/ticket-lookups'
import type { DomainModule } from '../../engine/modules'
import { registerTicketRoutes } from './routes'
import { ticketWidgets } from './widgets'
import { ticketHooks } from './ticket-rules'
import { assignHandler, detailHooks, reopenHandler, ticketTransitionHooks } from './thread'

/**
 * Support tickets (issue 23; api-contract §4.11, §5.4; domain-anchors §4; decisions
 * "Tickets"): tickets and their threads are registry entities — their routes, access (a
 * customer's own through `own`, staff's department through the row scope), workflow, history
 * and screens are the engine's. This module holds their rules: who wrote a line, the first
 * response, reopening, due times, the system lines of the thread, the mails and the
 * notifications; the seeded departments, priorities and statuses; the contract's department lists.
 */
export function ticketsModule(): DomainModule {
  return {
    name: 'tickets',
    hooks: { ticket: { ...ticketHooks, ...ticketTransitionHooks }, ticket_detail: detailHooks },
    actions: { ticket: { assign: assignHandler, reopen: reopenHandler } },
    widgets: ticketWidgets,
    routes: registerTicketRoutes,
    async onStart({ db, registry }) {
      if (!registry.some((e) => e.name === 'ticket')) return
      // Whichever is missing is added, in order; what admins changed of the others stays.
      const seed = async (table: string, names: readonly string[]) =>
        sql`insert into ${sql.id(table)} (name)
          select name from unnest(${[...names]}::text[]) with ordinality as seed(name, n)
          where not exists (select 1 from ${sql.id(table)} o where o.name = seed.name) order by n
          on conflict (name) do nothing`.execute(db)
      await seed('ticket_department', TICKET_DEPARTMENTS)
      await seed('ticket_status', TICKET_STATUSES)
      await sql`insert into ticket_priority (name, response_hours)
        select name, hours from unnest(${[...TICKET_PRIORITIES]}::text[], ${TICKET_PRIORITIES.map((p) => PRIORITY_HOURS[p])}::int[]) with ordinality as seed(name, hours, n)
        where not exists (select 1 from ticket_priority o where o.name = seed.name) order by n
        on conflict (name) do nothing`.execute(db)
    },
  }
}
