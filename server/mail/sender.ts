import { sql } from 'kysely'
import { entities } from '../../schema'
import type { Db } from '../db/types'
import type { HookRegistry } from '../engine/hooks'
import type { Registry } from '../engine/list-query'
import { notify } from '../engine/notify'
import { ATTACHMENT_TABLE, attachmentsOf, onMailQueued, OUTBOX_TABLE } from './outbox'
import type { MailTransport, OutgoingMail } from './transport'

/**
 * Delivers the outbox: every few seconds, and soon after a message is queued, it takes the
 * messages that are due one at a time and hands them to the transport.
 *
 * A message is claimed by moving its `next_attempt_at` a lease ahead (with `skip locked`, so
 * several servers on one database never take the same one), then sent outside any
 * transaction, then marked sent — or, on an error, `retrying` with the error and a later
 * attempt (doubling back-off), and `failed` after the last attempt — those who read the
 * outbox are then notified in the same transaction (issue 23), to send it again. A server
 * that dies between claim and mark leaves the message queued: the lease runs out and it is
 * sent again (at least once, never lost). A message's files (./outbox.ts) are read when it is delivered
 * and go with it; those of messages that are gone (an admin deleted them) are swept now and
 * then.
 */
export type SenderOptions = {
  db: Db
  transport: MailTransport
  /** How often the outbox is looked at without being asked. */
  pollMs?: number
  /** How long a claimed message is left to its sender before another may take it. */
  leaseSeconds?: number
  /** Attempts before a message is marked failed (an admin may send it again). */
  maxAttempts?: number
  /** Seconds before the next attempt after `attempts` failed ones. */
  backoffSeconds?: (attempts: number) => number
  /** The app's registry and hooks, for the notification of a message that failed; default: the registry's own. */
  registry?: Registry
  hooks?: HookRegistry
  /** Told what became of each attempt (the app's `mail_send_attempts_total`). */
  onAttempt?: (result: MailAttempt) => void
}

/** What became of one attempt to send a mail: sent, to be tried again, or failed for good. */
export type MailAttempt = 'sent' | 'retrying' | 'failed'

export type MailSender = {
  /** Looks at the outbox soon (after a message is queued). */
  kick: () => void
  /** Sends every message now due; answers how many were tried. */
  runOnce: () => Promise<number>
  stop: () => Promise<void>
}

export const DEFAULT_MAX_ATTEMPTS = 8
/** 30 s, 1 min, 2 min… up to an hour. */
export const defaultBackoff = (attempts: number): number => Math.min(30 * 2 ** Math.max(0, attempts - 1), 3600)

const KICK_DELAY_MS = 100
const MAX_ERROR = 2000
/** How often the files of deleted messages are swept (and once when the sender starts). */
const SWEEP_MS = 60 * 60 * 1000

type Claimed = { id: number | string; recipient: string; subject: string; body_text: string | null; body_html: string | null; attempts: number }

export function startMailSender(options: SenderOptions): MailSender {
  const { db, transport } = options
  const lease = options.leaseSeconds ?? 300
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS
  const backoff = options.backoffSeconds ?? defaultBackoff
  const registry = options.registry ?? entities
  const outbox = registry.find((e) => e.name === OUTBOX_TABLE)
  const table = sql.id(OUTBOX_TABLE)
  let sweptAt = Number.NEGATIVE_INFINITY
  let current: Promise<number> | null = null
  let isAgain = false
  let isStopped = false
  let kickTimer: NodeJS.Timeout | null = null

  const claim = async (): Promise<Claimed | undefined> => {
    const r = await sql<Claimed>`
      update ${table} set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${lease}), updated_at = now()
      where id = (
        select id from ${table}
        where status in ('queued', 'retrying') and (next_attempt_at is null or next_attempt_at <= now())
        order by id limit 1 for update skip locked)
      returning id, recipient, subject, body_text, body_html, attempts`.execute(db)
    return r.rows[0]
  }

  const deliver = async (m: Claimed): Promise<void> => {
    try {
      const attachments = await attachmentsOf(db, Number(m.id))
      const mail: OutgoingMail = { id: Number(m.id), to: m.recipient, subject: m.subject, text: m.body_text ?? '', html: m.body_html, ...(attachments.length > 0 ? { attachments } : {}) }
      await transport.send(mail)
    } catch (e) {
      const error = (e instanceof Error ? e.message : String(e)).slice(0, MAX_ERROR)
      const isLast = m.attempts >= maxAttempts
      await db.transaction().execute(async (trx) => {
        await sql`
          update ${table} set status = ${isLast ? 'failed' : 'retrying'}, last_error = ${error}, updated_at = now(),
            next_attempt_at = ${isLast ? null : sql`now() + make_interval(secs => ${backoff(m.attempts)})`}
          where id = ${m.id}`.execute(trx)
        if (!isLast || !outbox) return
        const message = { key: 'notification.mail_failed', params: { subject: m.subject } }
        await notify(trx, registry, options.hooks, { to: { permission: outbox.permissions.LIST }, kind: 'mail_failed', message, entity: outbox.name, recordId: Number(m.id) })
      })
      options.onAttempt?.(isLast ? 'failed' : 'retrying')
      return
    }
    await sql`update ${table} set status = 'sent', sent_at = now(), next_attempt_at = null, last_error = null, updated_at = now() where id = ${m.id}`.execute(db)
    options.onAttempt?.('sent')
  }

  /** The files of messages no longer in the outbox (committed deletes only: a queueing transaction writes both or neither). */
  const sweep = async (): Promise<void> => {
    if (Date.now() - sweptAt < SWEEP_MS) return
    sweptAt = Date.now()
    try {
      await sql`delete from ${sql.id(ATTACHMENT_TABLE)} a where not exists (select 1 from ${table} m where m.id = a.message)`.execute(db)
    } catch (e) {
      console.error(`mail: sweeping attachments: ${e instanceof Error ? e.message : String(e)}`)
    }
  }

  const drain = async (): Promise<number> => {
    let tried = 0
    for (let m = await claim(); m && !isStopped; m = await claim()) {
      await deliver(m)
      tried++
    }
    if (!isStopped) await sweep()
    return tried
  }

  const runOnce = (): Promise<number> => {
    if (current) {
      // A message queued while this round runs may already be past its claim: look again after it.
      isAgain = true
      return current
    }
    current = drain()
      .catch((e: unknown) => {
        // The database may be briefly away; the next round tries again.
        console.error(`mail: ${e instanceof Error ? e.message : String(e)}`)
        return 0
      })
      .finally(() => {
        current = null
        if (isAgain && !isStopped) {
          isAgain = false
          void runOnce()
        }
      })
    return current
  }

  const poll = setInterval(() => void runOnce(), options.pollMs ?? 5000)
  poll.unref()

  const sender: MailSender = {
    kick() {
      if (isStopped || kickTimer) return
      // The queueing transaction commits after queueMail returns: look a moment later.
      kickTimer = setTimeout(() => {
        kickTimer = null
        void runOnce()
      }, KICK_DELAY_MS)
      kickTimer.unref()
    },
    runOnce,
    async stop() {
      isStopped = true
      unsubscribe()
      clearInterval(poll)
      if (kickTimer) clearTimeout(kickTimer)
      await current
      transport.close()
    },
  }
  const unsubscribe = onMailQueued(sender.kick)
  return sender
}
