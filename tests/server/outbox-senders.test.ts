import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, type Connection } from '../../server/db/connect'
import { OUTBOX_TABLE, queueMail } from '../../server/mail/outbox'
import { startMailSender, type MailSender } from '../../server/mail/sender'
import type { MailTransport, OutgoingMail } from '../../server/mail/transport'
import { databaseKinds, freshDatabase, isAvailable, postgresInfo } from './helpers/databases'

/**
 * Stateless servers (issue 26): two servers' mail senders work one outbox at the same time —
 * on PostgreSQL each through a pool of its own, so their claims really run in parallel — and
 * every message is sent exactly once (server/mail/sender.ts: a claim leases the message with
 * `for update skip locked`). A sender that dies mid-send is another matter, by design: its
 * lease runs out and the message goes again (at least once, never lost: mail-outbox.test.ts).
 */
const MESSAGES = 150

/** Counts what it is given, taking a few milliseconds per message as a mail server would; `failFirst`: ids refused on their first try. */
function countingTransport(sent: number[], failFirst: ReadonlySet<number> = new Set(), refused: number[] = []): MailTransport {
  return {
    kind: 'smtp',
    async send(mail: OutgoingMail) {
      await new Promise((r) => setTimeout(r, Math.random() * 3))
      if (failFirst.has(mail.id) && !refused.includes(mail.id)) {
        refused.push(mail.id)
        throw new Error('451 try again later')
      }
      sent.push(mail.id)
    },
    close() {},
  }
}

for (const kind of databaseKinds) {
  describe.skipIf(!isAvailable(kind))(`two mail senders on one outbox [${kind}]`, () => {
    let first: Connection
    let second: Connection | undefined
    const senders: MailSender[] = []

    beforeAll(async () => {
      first = await freshDatabase(kind)
      if (kind === 'postgres') {
        const info = postgresInfo()!
        const name = (await sql<{ name: string }>`select current_database() as name`.execute(first.db)).rows[0]!.name
        second = await connect({ kind: 'postgres', poolConfig: { host: info.host, port: info.port, user: info.user, database: name, max: 4 } })
      }
    })

    afterAll(async () => {
      await Promise.all(senders.map((s) => s.stop()))
      await second?.close()
      await first?.close()
    })

    /** Queues `n` messages, each in its own transaction as the app's writes do; answers their ids. */
    const queue = async (n: number, subject: string): Promise<number[]> => {
      const ids: number[] = []
      for (let i = 0; i < n; i++) ids.push(await first.db.transaction().execute((trx) => queueMail(trx, { to: `r${i}@example.com`, subject, text: `Message ${i}.` })))
      return ids
    }

    /** Two senders, one per server, both draining until neither finds anything due. */
    const sendWithTwo = async (transports: readonly [MailTransport, MailTransport]) => {
      const pair = transports.map((transport, i) => startMailSender({ db: i === 0 ? first.db : (second?.db ?? first.db), transport, pollMs: 3_600_000, backoffSeconds: () => 0 }))
      senders.push(...pair)
      for (;;) {
        const tried = await Promise.all(pair.map((s) => s.runOnce()))
        if (tried.every((n) => n === 0)) break
      }
      await Promise.all(pair.map((s) => s.stop()))
    }

    const rowsOf = async (ids: readonly number[]) =>
      (await sql<{ id: number; status: string; attempts: number }>`select id, status, attempts from ${sql.id(OUTBOX_TABLE)} where id = any(${[...ids]}) order by id`.execute(first.db)).rows

    it('sends every message exactly once, the two senders sharing the work', async () => {
      const ids = await queue(MESSAGES, 'Once')
      const byA: number[] = []
      const byB: number[] = []
      await sendWithTwo([countingTransport(byA), countingTransport(byB)])
      const all = [...byA, ...byB].sort((x, y) => x - y)
      expect(all).toEqual(ids)
      expect(new Set(all).size).toBe(MESSAGES)
      // Both took part: the claims really raced.
      expect(byA.length).toBeGreaterThan(0)
      expect(byB.length).toBeGreaterThan(0)
      for (const row of await rowsOf(ids)) expect(row).toMatchObject({ status: 'sent', attempts: 1 })
    })

    it('sends a message refused once exactly once more, whichever sender takes it again', async () => {
      const ids = await queue(60, 'Again')
      const failFirst = new Set(ids.filter((_, i) => i % 3 === 0))
      const refused: number[] = []
      const byA: number[] = []
      const byB: number[] = []
      await sendWithTwo([countingTransport(byA, failFirst, refused), countingTransport(byB, failFirst, refused)])
      expect([...refused].sort((x, y) => x - y)).toEqual([...failFirst].sort((x, y) => x - y))
      expect([...byA, ...byB].sort((x, y) => x - y)).toEqual(ids)
      for (const row of await rowsOf(ids)) expect(row).toMatchObject({ status: 'sent', attempts: failFirst.has(Number(row.id)) ? 2 : 1 })
    })
  })
}
