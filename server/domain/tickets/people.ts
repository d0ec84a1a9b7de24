import { sql } from 'kysely'
import type { Executor } from '../../db/types'
import { joinTableName } from '../../db/registry-schema'
import { languageOf, type Language } from '../../i18n'

/** Who a ticket concerns, as its mails and notifications need them. */

const rolePermissions = joinTableName('role', 'permissions')

/** Whether the user is staff who answer tickets: an active employee who is an admin or whose role lists them. */
export async function isTicketStaff(db: Executor, userId: number): Promise<boolean> {
  const found = await sql<{ ok: boolean }>`
    select (u.is_admin or exists (select 1 from ${sql.id(rolePermissions)} rp join permission p on p.id = rp.target_id where rp.owner_id = u.role and p.name = 'TICKET_LIST')) as ok
    from "user" u join employee e on e.id = u.id where u.id = ${userId} and u.is_active`.execute(db)
  return found.rows[0]?.ok === true
}

/**
 * The staff who answer a department's tickets: active holders of TICKET_LIST whose employee
 * record names that department or none (the row scope of schema/entities/tickets/ticket.ts),
 * and the admins — at most 200.
 */
export async function departmentStaff(db: Executor, department: number): Promise<number[]> {
  const found = await sql<{ id: number }>`
    select u.id from "user" u left join employee e on e.id = u.id
    where u.is_active and (u.is_admin or (
      exists (select 1 from ${sql.id(rolePermissions)} rp join permission p on p.id = rp.target_id where rp.owner_id = u.role and p.name = 'TICKET_LIST')
      and (e.ticket_department is null or e.ticket_department = ${department})))
    order by u.id limit 200`.execute(db)
  return found.rows.map((r) => Number(r.id))
}

export type Person = { email: string; name: string; language: Language }

/** A user's address, name and the language they chose (their settings), else the caller's. */
export async function personOf(db: Executor, userId: number, fallback: string | undefined): Promise<Person | undefined> {
  const found = await sql<{ email: string; first_name: string | null; last_name: string | null; language: string | null }>`
    select email, first_name, last_name, settings->>'language' as language from "user" where id = ${userId}`.execute(db)
  const u = found.rows[0]
  if (!u) return undefined
  const name = [u.first_name, u.last_name].filter((n) => !!n && n.trim() !== '').join(' ') || u.email
  return { email: u.email, name, language: languageOf(u.language ?? fallback) }
}

/** The text of a message written as sanitised HTML, for a plain-text mail. */
export const plainText = (html: unknown): string =>
  typeof html === 'string'
    ? html
        .replace(/<br\s*\/?>/gi, '\n')
        .replace(/<\/(p|div|li|h[1-6])>/gi, '\n')
        .replace(/<[^>]*>/g, '')
        .replace(/&nbsp;/g, ' ')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&')
        .replace(/\n{3,}/g, '\n\n')
        .trim()
    : ''

/** Whether a message has words: its HTML's text is not blank. */
export const hasText = (html: unknown): boolean => plainText(html) !== ''
