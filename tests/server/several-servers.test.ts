import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, type Connection } from '../../server/db/connect'
import { migrations } from '../../server/db/migrations'
import { SEEDED_PAYMENT_METHODS } from '../../server/domain/membership/payment-method-seed'
import { countries } from '../../server/demo/data/countries'
import { DEMO_ADMIN } from '../../server/demo/seed'
import { startServer, type RunningServer } from '../support/server-process'
import type { Reply } from './helpers/app'
import { dropDatabaseWhenFree, isAvailable, postgresInfo } from './helpers/databases'
import { multipart } from './helpers/multipart'
import { pngPart } from './helpers/images'
import { startS3Server, type S3TestServer } from './helpers/s3-server'

/**
 * Several servers on one PostgreSQL (issue 26; README, "Running on several servers"), as the
 * recipe runs them: one database, one S3-compatible bucket, one JWT secret, each server its
 * own DATA_DIR. Five start at once on an EMPTY database: migrations, the registry sync, the
 * permissions and roles, the modules' seeds and the first admin (with the demo data) run under
 * one advisory lock — one server does them, the other four wait, find them done and serve
 * (before the lock, one of five died on `user_username_key`, two creating the first admin).
 * Then three of them, driven round-robin, give the answers one server gives: a token of one
 * works on the others, failed sign-ins count on every server, a posting is one posting, a
 * race of confirmations never oversells, a file uploaded to one is served by the others, and
 * a password change ends the old sessions on every server at once. PostgreSQL only: PGlite's
 * data directory belongs to one process (server/db/data-dir.ts).
 */
const SERVERS = 5
const DATABASE = `several_servers_${process.pid}`
const JWT_SECRET = 'several-servers-share-one-secret-of-48-characters'

function urlOf(database: string): string {
  const info = postgresInfo()!
  return `postgres://${info.user}@${info.host}:${info.port}/${database}`
}

/** What a server says its start-up's work under the lock took (server/db/startup-lock.ts). */
function lockedSeconds(output: string): number {
  const m = /start-up: database work done under the lock in ([\d.]+) s/.exec(output)
  if (!m) throw new Error(`no start-up time in:\n${output}`)
  return Number(m[1])
}

describe.skipIf(!isAvailable('postgres'))('several servers on one PostgreSQL database and one bucket', () => {
  const servers: RunningServer[] = []
  const failures: string[] = []
  let db: Connection
  let admin: Connection
  let s3: S3TestServer
  let env: Record<string, string>

  beforeAll(async () => {
    const info = postgresInfo()!
    const server = { host: info.host, port: info.port, user: info.user }
    admin = await connect({ kind: 'postgres', poolConfig: { ...server, database: 'postgres', max: 1 } })
    // template0: nothing of the app's, not even its extensions.
    await sql`create database ${sql.id(DATABASE)} template template0`.execute(admin.db)
    s3 = await startS3Server({ bucket: 'media' })
    env = {
      DATABASE_URL: urlOf(DATABASE),
      JWT_SECRET,
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint!,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    }
    // Demo mode (the helper's default): the first admin and all the demo data, the longest write a start does.
    const started = await Promise.allSettled(Array.from({ length: SERVERS }, () => startServer(env)))
    for (const s of started) {
      if (s.status === 'fulfilled') servers.push(s.value)
      else failures.push(String(s.reason))
    }
    db = await connect({ kind: 'postgres', poolConfig: { ...server, database: DATABASE, max: 1 } })
  }, 300_000)

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    await s3?.close()
    await db?.close()
    if (admin) {
      await dropDatabaseWhenFree(admin.db, DATABASE, 100)
      await admin.close()
    }
  }, 120_000)

  it('all five start, answer their health check and sign the first admin in', async () => {
    expect(failures).toEqual([])
    expect(servers).toHaveLength(SERVERS)
    for (const s of servers) {
      const health = await fetch(`${s.url}/api/health`)
      expect(health.status, s.state()).toBe(200)
      expect(await health.json()).toEqual({ status: 'ok' })
      const login = await fetch(`${s.url}/user/api/v1/user/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(DEMO_ADMIN),
      })
      expect(login.status, s.state()).toBe(200)
      const body = (await login.json()) as { access?: string; email?: string; is_admin?: boolean }
      expect(body).toMatchObject({ access: expect.any(String), email: DEMO_ADMIN.email })
      // The token works on the server that gave it: the session and its permissions are there.
      const me = await fetch(`${s.url}/api/auth/access-token`, { headers: { authorization: `Bearer ${body.access}` } })
      expect(me.status, s.state()).toBe(200)
    }
  })

  it('migrated once: every migration is recorded once, the registry synced by one server', async () => {
    const rows = (await sql<{ version: string; name: string }>`select version, name from schema_migrations order by version`.execute(db.db)).rows
    const system = rows.filter((r) => r.version.startsWith('system-'))
    expect(system.map((r) => r.version)).toEqual(migrations.map((m) => `system-${String(m.version).padStart(4, '0')}`))
    const registry = rows.filter((r) => r.version.startsWith('registry-'))
    expect(registry).toHaveLength(1)
    // A second sync of the same registry would have appended its steps to the record's name.
    const steps = registry[0]!.name.split('; ')
    expect(steps.length).toBeGreaterThan(0)
    expect(new Set(steps).size).toBe(steps.length)
    const migratedBy = servers.filter((s) => /migrate: applied \d+ step\(s\)/.test(s.output()))
    expect(migratedBy).toHaveLength(1)
  })

  it('made one first admin and one set of demo data and seeds', async () => {
    const admins = await sql<{ email: string }>`select email from "user" where is_admin`.execute(db.db)
    expect(admins.rows).toEqual([{ email: DEMO_ADMIN.email }])
    const seededBy = servers.filter((s) => /seed: demo data created/.test(s.output()))
    expect(seededBy).toHaveLength(1)
    const count = async (table: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.id(table)}`.execute(db.db)).rows[0]!.n)
    expect(await count('country')).toBe(countries.length)
    expect(await count('payment_method')).toBe(SEEDED_PAYMENT_METHODS.length)
    // The built-in roles and the registry's permissions, once each.
    const roles = await sql<{ name: string; n: string }>`select name, count(*) as n from role group by name having count(*) > 1`.execute(db.db)
    expect(roles.rows).toEqual([])
    const permissions = await sql<{ n: string }>`select count(*) as n from (select 1 from permission group by name having count(*) > 1) d`.execute(db.db)
    expect(Number(permissions.rows[0]!.n)).toBe(0)
  })

  describe('three of them, driven round-robin', () => {
    // The test app's reply, its headers as fetch gives them.
    type Answer = Pick<Reply, 'status' | 'body'> & { headers: Headers }
    let turn = 0
    /** The next server's turn, or the one named. */
    const call = async (path: string, init: { method?: string; token?: string; json?: unknown; body?: Buffer; headers?: Record<string, string>; on?: number } = {}): Promise<Answer> => {
      const server = three[init.on ?? turn++ % 3]!
      const response = await fetch(`${server.url}${path}`, {
        method: init.method ?? (init.json === undefined && init.body === undefined ? 'GET' : 'POST'),
        headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.json === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        body: init.json === undefined ? (init.body ? new Uint8Array(init.body) : undefined) : JSON.stringify(init.json),
      })
      const text = await response.text()
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {
        // a file, not JSON
      }
      return { status: response.status, body, headers: response.headers }
    }
    const ok = (answer: Answer, status = 200) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(status)
      return answer.body
    }
    const signIn = async (email: string, password: string, on?: number) => ok(await call('/user/api/v1/user/login/', { json: { email, password }, on })).access as string
    let token: string
    let three: RunningServer[]

    beforeAll(async () => {
      // The other two have shown what they had to: the journey's load is on three.
      three = servers.slice(0, 3)
      await servers[4]!.stop()
      token = await signIn(DEMO_ADMIN.email, DEMO_ADMIN.password, 0)
    }, 60_000)

    it('a server told to stop (SIGTERM) finishes the request in flight, then exits cleanly', async () => {
      const draining = servers[3]!
      const csv = ['name,country', ...Array.from({ length: 1000 }, (_, i) => `Drain ${i},Bangladesh`)].join('\n')
      const form = multipart({ mode: 'dry_run', mapping: JSON.stringify({ name: 'name', country: 'country' }) }, [{ name: 'file', filename: 'districts.csv', type: 'text/csv', data: Buffer.from(csv) }])
      const answer = await fetch(`${draining.url}/city/api/v1/city/import/`, {
        method: 'POST',
        headers: { ...form.headers, authorization: `Bearer ${token}`, accept: 'application/x-ndjson' },
        body: new Uint8Array(form.payload),
      })
      // Its answer has begun (the import's first progress line): the request is in flight.
      expect(answer.status).toBe(200)
      const stopped = draining.stop()
      const lines = (await answer.text()).trim().split('\n').map((l) => JSON.parse(l) as { result?: { rows: number; valid: number } })
      await stopped
      expect(lines.at(-1)?.result).toMatchObject({ rows: 1000, valid: 1000 })
      expect(draining.output()).toMatch(/SIGTERM: shutting down/)
      expect(draining.state()).toMatch(/^exited \(0\)/)
    })

    it('takes a token made by one server on the others', async () => {
      for (const on of [1, 2]) expect((await call('/country/api/v1/country/all/?size=1', { token, on })).status).toBe(200)
    })

    it('counts failed sign-ins on every server: the sixth, wherever it comes, is refused', async () => {
      const made = ok(await call('/user/api/v1/user/create/', { token, json: { username: 'throttled', email: 'throttled@example.com', first_name: 'Throttled', last_name: 'User', password: 'right-pass-123', confirm_password: 'right-pass-123' } }), 201)
      expect(made.id).toEqual(expect.any(Number))
      for (let i = 0; i < 5; i++) expect((await call('/user/api/v1/user/login/', { json: { email: 'throttled@example.com', password: `wrong-${i}` } })).status).toBe(401)
      for (const on of [0, 1, 2]) {
        const refused = await call('/user/api/v1/user/login/', { json: { email: 'throttled@example.com', password: 'right-pass-123' }, on })
        expect(refused.status).toBe(429)
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
      }
    })

    it('posts a voucher once, seen alike by every server', async () => {
      const ledgers = ok(await call('/ledger_account/api/v1/ledger_account/all/?size=200', { token })).ledger_accounts as Array<{ id: number; name: string; is_cash_bank?: boolean }>
      const payload = {
        journal_date: '2026-04-02',
        details: 'several servers',
        items: [
          { ledger: ledgers.find((l) => l.name === 'Company Sales')!.id, debit_amount: '0', credit_amount: '99.50' },
          { ledger: ledgers.find((l) => l.name === 'Company Purchase')!.id, debit_amount: '99.50', credit_amount: '0' },
        ],
      }
      const invoice = ok(await call('/journal/api/v1/journal/create/', { token, json: payload }), 201).journals[0].invoice_no as string
      for (const on of [0, 1, 2]) expect(ok(await call(`/journal/api/v1/journal/journal_by_invoice_no/${invoice}`, { token, on })).invoice_no).toBe(invoice)
      const posted = await sql<{ n: string }>`select count(*) as n from account_log where reference_no = ${invoice}`.execute(db.db)
      expect(Number(posted.rows[0]!.n)).toBe(2)
    })

    it('never oversells when confirmations of one scarce product race across the servers', async () => {
      const product = ok(await call('/product/api/v1/product/create/', { token, json: { name: 'Several Servers Honey', unit_price: '40.00' } }), 201).id
      const adjustment = ok(await call('/stock_adjustment/api/v1/stock_adjustment/create/', { token, json: { reason: 'Opening', items: [{ product, quantity: 3, unit_cost: '20.00' }] } }), 201)
      ok(await call(`/stock_adjustment/api/v1/stock_adjustment/confirm/${adjustment.id}`, { token, method: 'POST' }))
      const customer = ok(await call('/customer/api/v1/customer/create/', { token, json: { username: 'racer', email: 'racer@shop.example', first_name: 'Race', last_name: 'Buyer', password: 'racer-pass-123', confirm_password: 'racer-pass-123' } }), 201).id
      const orders: number[] = []
      for (let i = 0; i < 9; i++) orders.push(ok(await call('/order/api/v1/order/create/', { token, json: { user: customer, order_items: [{ product, quantity: 1 }] } }), 201).id)
      const answers = await Promise.all(orders.map((id, i) => call(`/order/api/v1/order/confirm/${id}`, { token, method: 'POST', on: i % 3 })))
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 409, 409, 409, 409, 409, 409])
      expect(ok(await call(`/inventory/api/v1/inventory/${product}`, { token })).quantity).toBe(0)
    })

    it('serves a file uploaded to one server from the others, out of the one bucket', async () => {
      const form = multipart({ name: 'Several Servers Brand' }, [pngPart('image')])
      const brand = ok(await call('/brand/api/v1/brand/create/', { token, body: form.payload, headers: form.headers, on: 0 }), 201)
      const path = new URL(String(brand.image), 'http://x').pathname
      const first = await fetch(`${three[1]!.url}${path}`)
      const second = await fetch(`${three[2]!.url}${path}`)
      expect([first.status, second.status]).toEqual([200, 200])
      const bytes = Buffer.from(await first.arrayBuffer())
      expect(Buffer.from(await second.arrayBuffer()).equals(bytes)).toBe(true)
      expect((await s3.keys()).length).toBeGreaterThan(0)
    })

    it('ends the old sessions on every server at once when a password changes on one', async () => {
      const made = ok(await call('/user/api/v1/user/create/', { token, json: { username: 'changer', email: 'changer@example.com', first_name: 'Pass', last_name: 'Changer', password: 'first-pass-123', confirm_password: 'first-pass-123' } }), 201)
      const old = await signIn('changer@example.com', 'first-pass-123', 1)
      // Each server has the session in its cache.
      for (const on of [0, 1, 2]) expect((await call('/api/auth/access-token', { token: old, on })).status).toBe(200)
      ok(await call(`/user/api/v1/user/passwordchange/${made.id}`, { token: old, method: 'PATCH', json: { current_password: 'first-pass-123', password: 'second-pass-123', confirm_password: 'second-pass-123' }, on: 0 }))
      // No wait: the very next request on each server refuses the old token.
      expect([(await call('/api/auth/access-token', { token: old, on: 1 })).status, (await call('/api/auth/access-token', { token: old, on: 2 })).status]).toEqual([401, 401])
      expect(await signIn('changer@example.com', 'second-pass-123', 2)).toEqual(expect.any(String))
    })
  })

  it('a server started later finds everything done: it migrates and seeds nothing, quickly', async () => {
    const first = servers.find((s) => /migrate: applied/.test(s.output()))!
    const before = await sql<{ version: string; applied_at: string }>`select version, applied_at::text from schema_migrations order by version`.execute(db.db)
    const later = await startServer(env)
    try {
      const output = later.output()
      expect(output, later.state()).not.toMatch(/migrate: applied|seed: /)
      const after = await sql<{ version: string; applied_at: string }>`select version, applied_at::text from schema_migrations order by version`.execute(db.db)
      expect(after.rows).toEqual(before.rows)
      // The first server's work under the lock (the whole schema, the seeds, the demo data) against this one's (reads that find it done).
      expect(lockedSeconds(later.output()), later.state()).toBeLessThan(lockedSeconds(first.output()) / 4)
    } finally {
      await later.stop()
    }
  })

  it('every server ran its start-up without an error in its output', () => {
    for (const s of servers) {
      const output = s.output()
      expect(output, s.state()).toMatch(/ready at/)
      expect(output, s.state()).not.toMatch(/error|exception|violat|deadlock|unhandled/i)
    }
  })
})
