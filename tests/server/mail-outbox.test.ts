import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { loadConfig } from '../../server/config'
import { FORGOT_PASSWORD_PATH } from '../../server/domain/identity/password-reset'
import { start } from '../../server/start'
import { ATTACHMENT_TABLE, attachmentsOf, MAX_ATTACHMENT_BYTES, OUTBOX_TABLE, queueMail } from '../../server/mail/outbox'
import { startMailSender, type MailSender } from '../../server/mail/sender'
import { fileTransport, mailTransport, smtpTransport, type MailTransport, type OutgoingMail } from '../../server/mail/transport'
import { JWT_SECRET, describeEachDatabase, type TestApp } from './helpers/app'
import { signToken } from '../../server/auth/tokens'

/**
 * Mail through the outbox (issue 9): queued in the caller's transaction, delivered after it
 * commits — to SMTP when `SMTP_URL` is set, else as `.eml` files under `DATA_DIR/mail/` —
 * marked sent, or retried with back-off and marked failed with the error; never lost by a
 * sender that dies mid-send. Admins read the outbox and may send a message again.
 */
const OUTBOX = '/outbox_message/api/v1/outbox_message'
const FROM = 'Back-office <no-reply@example.com>'

type OutboxRow = { id: string; status: string; attempts: number; last_error: string | null; sent_at: string | null; next_attempt_at: string | null }

async function outboxRow(t: TestApp, id: number): Promise<OutboxRow> {
  const r = await sql<OutboxRow>`select id, status, attempts, last_error, sent_at, next_attempt_at from ${sql.id(OUTBOX_TABLE)} where id = ${id}`.execute(t.db)
  return r.rows[0]!
}

const queue = (t: TestApp, mail: Partial<Parameters<typeof queueMail>[1]> = {}) =>
  t.db.transaction().execute((trx) => queueMail(trx, { to: 'someone@example.com', subject: 'Hello', text: 'Plain words.', ...mail }))

/** A transport that fails until told otherwise, and remembers what it was given. */
function flakyTransport() {
  const sent: OutgoingMail[] = []
  let isDown = true
  const transport: MailTransport = {
    kind: 'smtp',
    async send(mail) {
      if (isDown) throw new Error('connect ECONNREFUSED 127.0.0.1:25')
      sent.push(mail)
    },
    close() {},
  }
  return { transport, sent, up: () => (isDown = false) }
}

/** A transport whose sends wait until released: a server that dies (or hangs) mid-send. */
function stuckTransport() {
  let release: () => void = () => {}
  const released = new Promise<void>((r) => (release = r))
  const transport: MailTransport = { kind: 'smtp', send: () => released, close() {} }
  return { transport, release: () => release() }
}

/** The few SMTP replies nodemailer needs, keeping every message it is given. */
function fakeSmtpServer(): Promise<{ server: Server; port: number; messages: string[] }> {
  const messages: string[] = []
  const server = createServer((socket) => {
    let isData = false
    let buffer = ''
    socket.write('220 test ESMTP\r\n')
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8')
      for (;;) {
        if (isData) {
          const end = buffer.indexOf('\r\n.\r\n')
          if (end < 0) return
          messages.push(buffer.slice(0, end))
          buffer = buffer.slice(end + 5)
          isData = false
          socket.write('250 queued\r\n')
          continue
        }
        const eol = buffer.indexOf('\r\n')
        if (eol < 0) return
        const line = buffer.slice(0, eol).toUpperCase()
        buffer = buffer.slice(eol + 2)
        if (line.startsWith('EHLO')) socket.write('250-test\r\n250 8BITMIME\r\n')
        else if (line.startsWith('DATA')) {
          isData = true
          socket.write('354 go ahead\r\n')
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n')
        else socket.write('250 ok\r\n')
      }
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port, messages })))
}

describeEachDatabase('mail outbox', (t) => {
  let mailDir: string
  const senders: MailSender[] = []
  const sender = (options: Omit<Parameters<typeof startMailSender>[0], 'db'>) => {
    const s = startMailSender({ db: t.current.db, pollMs: 60_000, ...options })
    senders.push(s)
    return s
  }
  beforeAll(() => {
    mailDir = mkdtempSync(join(tmpdir(), 'mail-'))
  })
  // Each test's senders only: a sender left running would take the next test's messages.
  afterEach(async () => {
    for (const s of senders.splice(0)) await s.stop()
  })
  afterAll(() => {
    rmSync(mailDir, { recursive: true, force: true })
  })

  it("queues a message in the caller's transaction: kept when it commits, gone when it rolls back", async () => {
    const id = await queue(t.current, { subject: 'Committed' })
    expect(id).toBeGreaterThan(0)
    expect(await outboxRow(t.current, id)).toMatchObject({ status: 'queued', attempts: 0, sent_at: null })

    let rolledBackId = 0
    await expect(
      t.current.db.transaction().execute(async (trx) => {
        rolledBackId = await queueMail(trx, { to: 'x@example.com', subject: 'Rolled back', text: '…' })
        throw new Error('the write failed')
      }),
    ).rejects.toThrow('the write failed')
    expect(rolledBackId).toBeGreaterThan(0)
    expect(await outboxRow(t.current, rolledBackId)).toBeUndefined()
  })

  it('writes each message without SMTP as an RFC 822 .eml file named by its outbox id, and marks it sent', async () => {
    const files = sender({ transport: fileTransport(mailDir, FROM) })
    await files.runOnce()
    const id = await queue(t.current, { to: 'reader@example.com', subject: 'Your password reset', text: 'Open the link.', html: '<p>Open the <a href="x">link</a>.</p>' })
    expect(await files.runOnce()).toBe(1)
    const eml = readFileSync(join(mailDir, `${id}.eml`), 'utf8')
    expect(eml).toMatch(/^From: "Back-office" <no-reply@example\.com>\r$/m)
    expect(eml).toMatch(/^To: reader@example\.com\r$/m)
    expect(eml).toMatch(/^Subject: Your password reset\r$/m)
    expect(eml).toMatch(/^Message-ID: <.+>\r$/m)
    expect(eml).toContain('Content-Type: multipart/alternative')
    expect(eml).toContain('Open the link.')
    expect(readdirSync(mailDir).filter((f) => f.endsWith('.tmp'))).toEqual([])
    const row = await outboxRow(t.current, id)
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null, next_attempt_at: null })
    expect(row.sent_at).not.toBeNull()
    expect(await files.runOnce()).toBe(0)
  })

  it("keeps a message's attachments in its transaction: both when it commits, neither when it rolls back", async () => {
    const pdf = Buffer.from('%PDF-1.3\n% a tiny file\n%%EOF\n', 'latin1')
    const notes = new Uint8Array([0, 1, 2, 255, 254])
    const id = await queue(t.current, { subject: 'With files', attachments: [{ filename: 'invoice-OR1.pdf', contentType: 'application/pdf', content: pdf }, { filename: '../notes.bin', contentType: 'application/octet-stream', content: notes }] })
    const files = await attachmentsOf(t.current.db, id)
    expect(files.map((f) => [f.filename, f.contentType, [...f.content]])).toEqual([
      ['invoice-OR1.pdf', 'application/pdf', [...pdf]],
      // No path survives in a file's name.
      ['.._notes.bin', 'application/octet-stream', [0, 1, 2, 255, 254]],
    ])

    const filesBefore = Number((await sql<{ n: string }>`select count(*)::text as n from ${sql.id(ATTACHMENT_TABLE)}`.execute(t.current.db)).rows[0]!.n)
    let rolledBackId = 0
    await expect(
      t.current.db.transaction().execute(async (trx) => {
        rolledBackId = await queueMail(trx, { to: 'x@example.com', subject: 'Rolled back', text: '…', attachments: [{ filename: 'a.pdf', contentType: 'application/pdf', content: pdf }] })
        throw new Error('the write failed')
      }),
    ).rejects.toThrow('the write failed')
    expect(await outboxRow(t.current, rolledBackId)).toBeUndefined()
    expect(await attachmentsOf(t.current.db, rolledBackId)).toEqual([])
    expect(Number((await sql<{ n: string }>`select count(*)::text as n from ${sql.id(ATTACHMENT_TABLE)}`.execute(t.current.db)).rows[0]!.n)).toBe(filesBefore)

    // A file of no named type, or too heavy, is refused before anything is written.
    await expect(queue(t.current, { attachments: [{ filename: 'x', contentType: 'pdf', content: pdf }] })).rejects.toThrow(/content type/)
    await expect(queue(t.current, { attachments: [{ filename: 'x.bin', contentType: 'application/octet-stream', content: new Uint8Array(MAX_ATTACHMENT_BYTES + 1) }] })).rejects.toThrow(/at most/)
  })

  it('sends the attachments with the message, as base64 MIME parts of their type, to files and by SMTP', async () => {
    const pdf = Buffer.from('%PDF-1.3\n% not much of an invoice\n%%EOF\n', 'latin1')
    const files = sender({ transport: fileTransport(mailDir, FROM) })
    await files.runOnce()
    const id = await queue(t.current, { to: 'buyer@example.com', subject: 'Your invoice', text: 'Attached.', attachments: [{ filename: 'invoice-OR2026112700 1.pdf', contentType: 'application/pdf', content: pdf }] })
    expect(await files.runOnce()).toBe(1)
    const eml = readFileSync(join(mailDir, `${id}.eml`), 'utf8')
    expect(eml).toContain('Content-Type: multipart/mixed')
    const part = /Content-Type: application\/pdf; name="invoice-OR2026112700 1\.pdf"\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment;\s+filename="invoice-OR2026112700 1\.pdf"\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/.exec(eml)
    expect(part, eml).not.toBeNull()
    expect(Buffer.from(part![1]!.replace(/\s+/g, ''), 'base64').equals(pdf)).toBe(true)
    expect((await outboxRow(t.current, id)).status).toBe('sent')
    await senders.pop()!.stop()

    const smtp = await fakeSmtpServer()
    try {
      const s = sender({ transport: smtpTransport(`smtp://127.0.0.1:${smtp.port}`, FROM) })
      await s.runOnce()
      const byMail = await queue(t.current, { subject: 'Invoice by SMTP', attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', content: pdf }] })
      expect(await s.runOnce()).toBe(1)
      expect((await outboxRow(t.current, byMail)).status).toBe('sent')
      expect(smtp.messages).toHaveLength(1)
      expect(smtp.messages[0]).toMatch(/^Content-Type: application\/pdf; name=invoice\.pdf\r$/m)
      expect(smtp.messages[0]).toContain(pdf.toString('base64'))
    } finally {
      await senders.pop()!.stop()
      smtp.server.close()
    }
  })

  it("sweeps the files of a message an admin deleted (a sender's first round, then hourly)", async () => {
    const id = await queue(t.current, { subject: 'Deleted', attachments: [{ filename: 'a.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-') }] })
    const kept = await queue(t.current, { subject: 'Kept', attachments: [{ filename: 'b.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-') }] })
    const deleted = await t.current.call({ method: 'DELETE', url: `${OUTBOX}/delete/${id}` })
    expect(deleted.status, deleted.raw).toBeLessThan(300)
    expect(await attachmentsOf(t.current.db, id)).toHaveLength(1)
    const s = sender({ transport: fileTransport(mailDir, FROM) })
    await s.runOnce()
    expect(await attachmentsOf(t.current.db, id)).toEqual([])
    expect(await attachmentsOf(t.current.db, kept)).toHaveLength(1)
  })

  it('sends soon after a message is queued, without waiting for its poll', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mail-kick-'))
    try {
      sender({ transport: fileTransport(dir, FROM) })
      const id = await queue(t.current, { subject: 'Kicked' })
      await expect.poll(async () => (await outboxRow(t.current, id)).status, { timeout: 10_000 }).toBe('sent')
      expect(readdirSync(dir)).toContain(`${id}.eml`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('records a failed attempt with its error and tries again later, marks the message failed after the last attempt, and an admin may send it again', async () => {
    const flaky = flakyTransport()
    const s = sender({ transport: flaky.transport, maxAttempts: 2 })
    await s.runOnce()
    const id = await queue(t.current, { subject: 'Flaky' })
    expect(await s.runOnce()).toBe(1)
    let row = await outboxRow(t.current, id)
    expect(row).toMatchObject({ status: 'retrying', attempts: 1, last_error: 'connect ECONNREFUSED 127.0.0.1:25', sent_at: null })
    const isLater = await sql<{ later: boolean }>`select next_attempt_at > now() as later from ${sql.id(OUTBOX_TABLE)} where id = ${id}`.execute(t.current.db)
    expect(isLater.rows[0]!.later).toBe(true)
    // Not due yet: nothing is tried.
    expect(await s.runOnce()).toBe(0)

    await sql`update ${sql.id(OUTBOX_TABLE)} set next_attempt_at = now() - interval '1 second' where id = ${id}`.execute(t.current.db)
    expect(await s.runOnce()).toBe(1)
    row = await outboxRow(t.current, id)
    expect(row).toMatchObject({ status: 'failed', attempts: 2, next_attempt_at: null })
    expect(await s.runOnce()).toBe(0)

    const again = await t.current.call({ method: 'POST', url: `${OUTBOX}/send_again/${id}` })
    expect(again.status, again.raw).toBe(200)
    expect(again.body).toMatchObject({ id, status: 'queued', attempts: 0 })
    flaky.up()
    await expect.poll(async () => (await outboxRow(t.current, id)).status, { timeout: 10_000 }).toBe('sent')
    expect(flaky.sent.map((m) => m.subject)).toEqual(['Flaky'])

    const refused = await t.current.call({ method: 'POST', url: `${OUTBOX}/send_again/${id}` })
    expect(refused.status).toBe(409)
  })

  it('never loses a message whose sender dies mid-send: it stays queued, untouched by others while its lease holds, and is sent once it runs out', async () => {
    const stuck = stuckTransport()
    const dead = sender({ transport: stuck.transport, leaseSeconds: 0 })
    const other = sender({ transport: fileTransport(mailDir, FROM) })
    await other.runOnce()
    const id = await queue(t.current, { subject: 'Survives' })
    const hanging = dead.runOnce()
    await expect.poll(async () => (await outboxRow(t.current, id)).attempts, { timeout: 10_000 }).toBe(1)
    expect((await outboxRow(t.current, id)).status).toBe('queued')
    // The lease (0 s here) has run out: another server takes the message and sends it.
    expect(await other.runOnce()).toBe(1)
    expect((await outboxRow(t.current, id)).status).toBe('sent')
    expect(readFileSync(join(mailDir, `${id}.eml`), 'utf8')).toContain('Subject: Survives')
    stuck.release()
    await hanging
  })

  it('leaves a message another sender holds alone while its lease holds', async () => {
    const stuck = stuckTransport()
    const holder = sender({ transport: stuck.transport, leaseSeconds: 300 })
    const other = sender({ transport: fileTransport(mailDir, FROM) })
    await other.runOnce()
    const id = await queue(t.current, { subject: 'Held' })
    const hanging = holder.runOnce()
    await expect.poll(async () => (await outboxRow(t.current, id)).attempts, { timeout: 10_000 }).toBe(1)
    expect(await other.runOnce()).toBe(0)
    stuck.release()
    await hanging
    expect((await outboxRow(t.current, id)).status).toBe('sent')
  })

  it('sends through SMTP when SMTP_URL is set, and records the error when the server cannot be reached', async () => {
    const smtp = await fakeSmtpServer()
    try {
      const s = sender({ transport: mailTransport({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: FROM, mailDir }) })
      await s.runOnce()
      const id = await queue(t.current, { to: 'smtp@example.com', subject: 'By SMTP' })
      expect(await s.runOnce()).toBe(1)
      expect((await outboxRow(t.current, id)).status).toBe('sent')
      expect(smtp.messages).toHaveLength(1)
      expect(smtp.messages[0]).toMatch(/^Subject: By SMTP\r$/m)
      expect(smtp.messages[0]).toMatch(/^To: smtp@example\.com\r$/m)
      expect(readdirSync(mailDir)).not.toContain(`${id}.eml`)
    } finally {
      await senders.pop()!.stop()
      smtp.server.close()
    }
    // A port nobody listens on (the fake server's, now closed).
    const unreachable = sender({ transport: smtpTransport(`smtp://127.0.0.1:${smtp.port}`, FROM) })
    await unreachable.runOnce()
    const id = await queue(t.current, { subject: 'Nobody home' })
    expect(await unreachable.runOnce()).toBe(1)
    const row = await outboxRow(t.current, id)
    expect(row).toMatchObject({ status: 'retrying', attempts: 1 })
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i)
  })

  it('is read by admins only, and nobody writes a message through the API', async () => {
    await queue(t.current, { subject: 'For admins' })
    const list = await t.current.call({ method: 'GET', url: `${OUTBOX}/all/?ordering=-id` })
    expect(list.status, list.raw).toBe(200)
    expect(list.body.outbox_messages[0]).toMatchObject({ subject: 'For admins', recipient: 'someone@example.com', status: 'queued' })

    const staffRole = (await sql<{ id: number }>`select id from role where name = 'STAFF'`.execute(t.current.db)).rows[0]!.id
    const staffId = await t.current.createUser({ email: `outbox-staff-${t.current.kind}@example.com` })
    await sql`update "user" set role = ${staffRole} where id = ${staffId}`.execute(t.current.db)
    const asStaff = { authorization: `Bearer ${await signToken(JWT_SECRET, staffId)}` }
    expect((await t.current.call({ method: 'GET', url: `${OUTBOX}/all/`, headers: asStaff })).status).toBe(403)

    expect((await t.current.call({ method: 'POST', url: `${OUTBOX}/create/`, payload: { recipient: 'x@example.com', subject: 'Forged' } })).status).toBe(404)
    expect((await t.current.call({ method: 'PUT', url: `${OUTBOX}/update/${list.body.outbox_messages[0].id}`, payload: { status: 'sent' } })).status).toBe(404)
  })
})

it('reads SMTP_URL, MAIL_FROM and UPLOAD_QUOTA_MB from the environment, and refuses an SMTP_URL that is not one', () => {
  expect(loadConfig({}).MAIL_FROM).toMatch(/@/)
  expect(loadConfig({}).SMTP_URL).toBeUndefined()
  expect(loadConfig({}).UPLOAD_QUOTA_MB).toBe(50)
  const set = loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'Shop <shop@example.com>', UPLOAD_QUOTA_MB: '5' })
  expect(set).toMatchObject({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'Shop <shop@example.com>', UPLOAD_QUOTA_MB: 5 })
  expect(() => loadConfig({ SMTP_URL: 'mail.example.com' })).toThrow(/SMTP_URL/)
  expect(() => loadConfig({ UPLOAD_QUOTA_MB: 'lots' })).toThrow(/UPLOAD_QUOTA_MB/)
})

it('starts a sender with the server: without SMTP_URL a password-reset mail lands in DATA_DIR/mail/, and stops with it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mail-start-'))
  const started = await start(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'memory://', PORT: '0', HOST: '127.0.0.1', MAIL_FROM: FROM }))
  try {
    const res = await started.app.inject({ method: 'POST', url: FORGOT_PASSWORD_PATH, payload: { email: 'admin@example.com' } })
    expect(res.statusCode, res.body).toBe(200)
    const mailDir = join(dataDir, 'mail')
    // The demo's own mails (its tickets' acknowledgements and replies) land there too: the reset is the admin's.
    const resets = () => readdirSync(mailDir).filter((f) => f.endsWith('.eml')).map((f) => readFileSync(join(mailDir, f), 'utf8')).filter((m) => /^To: admin@example\.com\r$/m.test(m))
    await expect.poll(() => (existsSync(mailDir) ? resets().length : 0), { timeout: 15_000 }).toBe(1)
    const [eml] = resets()
    expect(eml).toMatch(/^To: admin@example\.com\r$/m)
    expect(eml).toMatch(/^From: "Back-office" <no-reply@example\.com>\r$/m)
  } finally {
    await started.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 60_000)
