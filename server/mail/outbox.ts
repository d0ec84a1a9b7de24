import { sql } from 'kysely'
import type { Executor, Trx } from '../db/types'

/**
 * The outbox: mail the application sends, written in the transaction of the write that asks
 * for it (so a message exists exactly when that write commits) and delivered after by the
 * sender (./sender.ts). Its table is the registry's `outbox_message` entity (module workspace).
 */
export const OUTBOX_TABLE = 'outbox_message'

export type Mail = { to: string; subject: string; text: string; html?: string }

const listeners = new Set<() => void>()

/** Called after every queueMail of this process (the senders look at the outbox soon). */
export function onMailQueued(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Queues a message inside the caller's transaction and answers its outbox id. */
export async function queueMail(db: Executor | Trx, mail: Mail): Promise<number> {
  const row = await db
    .insertInto(OUTBOX_TABLE)
    .values({ recipient: mail.to, subject: mail.subject, body_text: mail.text, body_html: mail.html ?? null, status: 'queued', attempts: 0 })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const listener of listeners) listener()
  return Number(row.id)
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
