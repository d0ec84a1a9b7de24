import { thumbnailOf } from '../../../schema/kit'
import { TICKET_AUTHORS } from '../../../schema/entities/tickets/ticket'

/**
 * A ticket's thread as the screen reads it (`get_all_by_ticket_id/{ticket}`, oldest first):
 * each line's author, what a system line records, its attachment. Pure, so the screen only
 * draws what these say.
 */
export type ThreadLine = {
  id: number
  kind: (typeof TICKET_AUTHORS)[number]
  /** Who wrote it, by name: the staff member (`admin`) or the customer. */
  author: string | null
  /** Sanitised HTML (the server's). */
  message: string
  file: string | null
  isInternal: boolean
  /** A move of its status: from, to (workflow states). */
  status: { before: string; after: string } | null
  /** A change of its assignee: the names, null for nobody. */
  assignee: { before: string | null; after: string | null } | null
  createdAt: string | null
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A reference's name: nested `{id, name}` (a list's row) or the row's `_labels` (a record's); null when there is none. */
export function nameOf(row: Readonly<Record<string, unknown>>, field: string): string | null {
  const value = row[field]
  if (value === null || value === undefined) return null
  if (isRecord(value) && (typeof value.name === 'string' || typeof value.name === 'number')) return String(value.name)
  const label = isRecord(row._labels) ? row._labels[field] : undefined
  if (typeof label === 'string' || typeof label === 'number') return String(label)
  const id = isRecord(value) ? value.id : value
  return typeof id === 'number' || typeof id === 'string' ? `#${id}` : null
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null)
const isKind = (v: unknown): v is ThreadLine['kind'] => (TICKET_AUTHORS as readonly unknown[]).includes(v)

export function threadLineOf(row: Readonly<Record<string, unknown>>): ThreadLine | null {
  if (typeof row.id !== 'number') return null
  const kind = isKind(row.kind) ? row.kind : 'customer'
  const [statusBefore, statusAfter] = [text(row.status_before), text(row.status_after)]
  const isAssigneeChange = kind === 'system' && ('assignee_after' in row || 'assignee_before' in row) && (row.assignee_after ?? null) !== (row.assignee_before ?? null)
  return {
    id: row.id,
    kind,
    author: kind === 'customer' ? nameOf(row, 'customer') : (nameOf(row, 'admin') ?? nameOf(row, 'customer')),
    message: typeof row.message === 'string' ? row.message : '',
    file: text(row.file),
    isInternal: row.is_internal === true,
    status: statusBefore && statusAfter && statusBefore !== statusAfter ? { before: statusBefore, after: statusAfter } : null,
    assignee: isAssigneeChange ? { before: nameOf(row, 'assignee_before'), after: nameOf(row, 'assignee_after') } : null,
    createdAt: text(row.created_at),
  }
}

/** The thread's lines in the order they were written (the server's is oldest first; kept so by id should it not be). */
export function threadOf(body: unknown): ThreadLine[] {
  const rows = isRecord(body) && Array.isArray(body.ticket_details) ? body.ticket_details : []
  return rows
    .filter(isRecord)
    .map(threadLineOf)
    .filter((line): line is ThreadLine => line !== null)
    .sort((a, b) => a.id - b.id)
}

/** Whether the blank-looking HTML of the editor says nothing (the registry's rule: a message is required). */
export const isBlankMessage = (html: string): boolean => html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim() === ''

const IMAGE = /\.(png|jpe?g|gif|webp)$/i

/** An attachment as the thread shows it: a picture by its thumbnail (an upload of /media has one), anything else by its name. */
export function attachmentOf(url: string): { href: string; name: string; thumbnail: string | null } {
  const path = url.split(/[?#]/)[0]!
  const last = path.split('/').pop() ?? path
  let name = last
  try {
    name = decodeURIComponent(last)
  } catch {
    // A name that is not valid percent-encoding is shown as it is.
  }
  return { href: url, name, thumbnail: IMAGE.test(path) ? (path.startsWith('/media/') ? thumbnailOf(path) : url) : null }
}
