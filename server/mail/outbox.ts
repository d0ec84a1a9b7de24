import { sql } from 'kysely'
import type { Executor, Trx } from '../db/types'

/**
 * The outbox: mail the application sends, written in the transaction of the write that asks
 * for it (so a message exists exactly when that write commits) and delivered after by the
 * sender (./sender.ts). Its table is the registry's `outbox_message` entity (module workspace).
 */
export const OUTBOX_TABLE = 'outbox_message'

/**
 * A message's files (an order's invoice as a PDF), kept beside it in a system table of their
 * own (migration 9: `message` is the outbox id, `content` the bytes as bytea) and written in
 * the same transaction, so they exist exactly when the message does. The sender hands them to
 * the transport in their order; files whose message an admin deleted are swept by the sender.
 */
export const ATTACHMENT_TABLE = 'outbox_attachment'

export type MailAttachment = { filename: string; contentType: string; content: Uint8Array }

export type Mail = { to: string; subject: string; text: string; html?: string; attachments?: readonly MailAttachment[] }

/** The most one message's files may weigh together (most mail servers take 10–25 MB). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
const MAX_FILENAME = 255
const MAX_CONTENT_TYPE = 100
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i

/** A file's name as a mail carries it: no path, no control characters, at most 255 characters. */
const filenameOf = (name: string): string => {
  const base = name.replace(/[\u0000-\u001f\u007f/\\]+/g, '_').trim()
  if (base === '' || base === '.' || base === '..') throw new Error('an attachment needs a file name')
  return base.slice(0, MAX_FILENAME)
}

function checkedAttachments(attachments: readonly MailAttachment[]): MailAttachment[] {
  let total = 0
  return attachments.map((a) => {
    if (!CONTENT_TYPE.test(a.contentType) || a.contentType.length > MAX_CONTENT_TYPE) throw new Error(`not a content type: ${a.contentType}`)
    total += a.content.byteLength
    if (total > MAX_ATTACHMENT_BYTES) throw new Error(`a message's attachments may weigh at most ${MAX_ATTACHMENT_BYTES} bytes`)
    return { filename: filenameOf(a.filename), contentType: a.contentType.toLowerCase(), content: a.content }
  })
}

const listeners = new Set<() => void>()

/** Called after every queueMail of this process (the senders look at the outbox soon). */
export function onMailQueued(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/**
 * Queues a message inside the caller's transaction and answers its outbox id. Its attachments
 * go in the same transaction: pass a transaction (not the pool) when there are any, so that
 * the sender never finds the message without them.
 */
export async function queueMail(db: Executor | Trx, mail: Mail): Promise<number> {
  const attachments = checkedAttachments(mail.attachments ?? [])
  const row = await db
    .insertInto(OUTBOX_TABLE)
    .values({ recipient: mail.to, subject: mail.subject, body_text: mail.text, body_html: mail.html ?? null, status: 'queued', attempts: 0 })
    .returning('id')
    .executeTakeFirstOrThrow()
  if (attachments.length > 0) {
    await db
      .insertInto(ATTACHMENT_TABLE)
      .values(attachments.map((a, position) => ({ message: row.id, position, filename: a.filename, content_type: a.contentType, content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength) })))
      .execute()
  }
  for (const listener of listeners) listener()
  return Number(row.id)
}

/** A message's files in their order, as stored (the sender's, and a test's). */
export async function attachmentsOf(db: Executor | Trx, messageId: number): Promise<Array<Omit<MailAttachment, 'content'> & { content: Buffer }>> {
  const rows = await db
    .selectFrom(ATTACHMENT_TABLE)
    .select(['filename', 'content_type', 'content'])
    .where('message', '=', messageId)
    .orderBy('position')
    .orderBy('id')
    .execute()
  // node-postgres answers bytea as a Buffer, PGlite as a Uint8Array.
  return rows.map((r) => ({ filename: String(r.filename), contentType: String(r.content_type), content: Buffer.from(r.content as Uint8Array) }))
}

/** Puts a message back in the queue with a fresh count of attempts (an admin's "Send again"). */
export async function requeueMail(db: Executor | Trx, id: number): Promise<void> {
  await db
    .updateTable(OUTBOX_TABLE)
    .set({ status: 'queued', attempts: 0, next_attempt_at: null, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute()
  for (const listener of listeners) listener()
}
