import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { registry } from '../../schema'
import { MAX_LINES, MAX_REFS } from '../../schema/kit'
import type { Db } from '../../server/db/types'
import { MAX_SUBSCRIPTION_MEMBERS } from '../../server/domain/membership/subscriptions'
import type { DomainModule } from '../../server/engine/modules'
import { setWriteStatementTimeout, WRITE_STATEMENT_TIMEOUT_MS } from '../../server/engine/operations/transaction'
import { messageFor } from '../../server/i18n'
import { describeEachDatabase } from './helpers/app'
import { ledgerUnder } from './helpers/ledgers'
import { multipart } from './helpers/multipart'

/**
 * What one request may hold the database with (issue 19): every list a body carries is bounded
 * — a document's lines as JSON as they are as multipart (one limit), a subscription's members
 * (each once, a few hundred at most), a many-to-many field's ids — and every write transaction
 * on PostgreSQL runs under a statement timeout, whose expiry is a 503 `{detail}`, never a 500.
 */
const JOURNAL = registry.journal.api.base
const SUBSCRIPTION = registry.monthly_subscription.api.base
const DAY = '2026-07-01'

/** What the writes of a country see and suffer (a hook inside the write's transaction). */
const seen: string[] = []
const slowWrites: DomainModule = {
  name: 'test-slow-writes',
  hooks: {
    country: {
      async beforeWrite({ trx, values }) {
        if (values?.name === 'Timed') seen.push((await sql<{ v: string }>`select current_setting('statement_timeout') as v`.execute(trx)).rows[0]!.v)
        // A statement that outlasts the write's timeout (PostgreSQL only: the embedded database cannot interrupt one) …
        if (values?.name === 'Slow') await sql`select pg_sleep(2)`.execute(trx)
        // … and the cancel raised as PostgreSQL raises it then, on both.
        if (values?.name === 'Cancelled') await sql`do $$ begin raise exception 'canceling statement due to statement timeout' using errcode = 'query_canceled'; end $$`.execute(trx)
      },
    },
  },
}

const count = async (db: Db, table: string) => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.id(table)}`.execute(db)).rows[0]!.n)

describeEachDatabase(
  'request bounds',
  (t, kind) => {
    let db: Db
    let rent: number
    let vendor: number
    beforeAll(async () => {
      db = t.current.db
      rent = await ledgerUnder(db, 'Bounded Rent', 'Indirect Expenses')
      vendor = await ledgerUnder(db, 'Bounded Vendor', 'Sundry Creditors')
    })
    afterAll(() => setWriteStatementTimeout(db, WRITE_STATEMENT_TIMEOUT_MS))

    const lines = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? { ledger: rent, debit_amount: '1.00' } : { ledger: vendor, credit_amount: '1.00' }))

    it('refuses a JSON voucher of more lines than a multipart one may have (one limit): 400 on items, nothing written', async () => {
      const before = await count(db, 'journal')
      const json = await t.current.call({ method: 'POST', url: `${JOURNAL}/create/`, payload: { journal_date: DAY, items: lines(MAX_LINES + 2) } })
      expect(json.status, json.raw.slice(0, 200)).toBe(400)
      expect(json.body).toEqual({ items: [messageFor('en', { key: 'validation.lines_max', params: { max: MAX_LINES } })] })
      const made = await t.current.call({ method: 'POST', url: `${JOURNAL}/create/`, payload: { journal_date: DAY, items: lines(2) } })
      expect(made.status, made.raw).toBe(201)
      const invoice = made.body.journals[0].invoice_no
      const tr = await t.current.call({ method: 'PUT', url: `${JOURNAL}/update/`, payload: { invoice_no: invoice, journal_date: DAY, items: lines(MAX_LINES + 2) }, headers: { 'accept-language': 'tr' } })
      expect(tr.status).toBe(400)
      expect(tr.body.items).toEqual([messageFor('tr', { key: 'validation.lines_max', params: { max: MAX_LINES } })])
      // Multipart: the same number of lines, refused as the parts are read.
      const form = multipart({ payment_date: DAY, [`items[${MAX_LINES}][ledger]`]: String(rent) })
      const parts = await t.current.call({ method: 'POST', url: `${registry.payment_voucher.api.base}/create/`, payload: form.payload, headers: form.headers })
      expect(parts.status).toBe(400)
      expect(parts.body).toEqual({ detail: messageFor('en', { key: 'detail.too_many_lines', params: { max: MAX_LINES } }) })
      expect(await count(db, 'journal')).toBe(before + 2)
      expect((await sql`select 1 from journal where invoice_no = ${invoice}`.execute(db)).rows).toHaveLength(2)
    })

    it('refuses a subscription that names a member twice, or more members than the limit: 400 on members, nothing written', async () => {
      const memberNamed = async (name: string) => {
        const res = await t.current.call({ method: 'POST', url: `${registry.member.api.base}/create/`, payload: { first_name: name, last_name: 'Bounded', username: `${name}${kind}`, email: `${name}-${kind}@example.com`, password: 'secret123' } })
        expect(res.status, res.raw).toBe(201)
        return res.body.id as number
      }
      const [member, other] = [await memberNamed('bounded'), await memberNamed('other')]
      const before = [await count(db, 'monthly_subscription'), await count(db, 'account_log')]
      const twice = await t.current.call({ method: 'POST', url: `${SUBSCRIPTION}/create/`, payload: { members: [member, other, String(member)], amount: '10.00' } })
      expect(twice.status, twice.raw).toBe(400)
      expect(twice.body).toEqual({ 'members.2': [messageFor('en', { key: 'validation.duplicate_value', params: { label: 'field.member' } })] })
      const many = Array.from({ length: MAX_SUBSCRIPTION_MEMBERS + 1 }, (_, i) => member + i)
      const tooMany = await t.current.call({ method: 'POST', url: `${SUBSCRIPTION}/create/`, payload: { members: many, amount: '10.00' }, headers: { 'accept-language': 'ar' } })
      expect(tooMany.status, tooMany.raw).toBe(400)
      expect(tooMany.body).toEqual({ members: [messageFor('ar', { key: 'validation.too_many', params: { label: 'field.members', max: MAX_SUBSCRIPTION_MEMBERS } })] })
      expect([await count(db, 'monthly_subscription'), await count(db, 'account_log')]).toEqual(before)
      // Distinct members within the limit are written as before.
      const ok = await t.current.call({ method: 'POST', url: `${SUBSCRIPTION}/create/`, payload: { members: [member, other], amount: '10.00' } })
      expect(ok.status, ok.raw).toBe(201)
    })

    it("refuses more ids than a many-to-many field takes (a role's permissions): 400 on the field, nothing written", async () => {
      const ids = Array.from({ length: MAX_REFS + 1 }, (_, i) => i + 1)
      const before = await count(db, 'role')
      const res = await t.current.call({ method: 'POST', url: `${registry.role.api.base}/create/`, payload: { name: `BOUNDED_${kind}`, permissions: ids } })
      expect(res.status, res.raw.slice(0, 200)).toBe(400)
      expect(res.body).toEqual({ permissions: [messageFor('en', { key: 'validation.too_many', params: { label: registry.role.fieldLabelKey('permissions'), max: MAX_REFS } })] })
      expect(await count(db, 'role')).toBe(before)
    })

    it('runs each write transaction under a statement timeout on PostgreSQL, and only the write (the embedded database cannot interrupt a statement)', async () => {
      seen.length = 0
      const res = await t.current.call({ method: 'POST', url: `${registry.country.api.base}/create/`, payload: { name: 'Timed' } })
      expect(res.status, res.raw).toBe(201)
      expect(seen).toEqual([kind === 'postgres' ? `${WRITE_STATEMENT_TIMEOUT_MS / 1000}s` : '0'])
      expect((await sql<{ v: string }>`select current_setting('statement_timeout') as v`.execute(db)).rows[0]!.v).toBe('0')
    })

    it('answers a write stopped by the statement timeout with 503 {detail} in the request\'s language, nothing written', async () => {
      setWriteStatementTimeout(db, 300)
      try {
        const before = [await count(db, 'country'), await count(db, 'audit_log')]
        for (const [name, lang] of [['Slow', 'en'], ['Cancelled', 'tr']] as const) {
          if (name === 'Slow' && kind === 'pglite') continue
          const started = Date.now()
          const res = await t.current.call({ method: 'POST', url: `${registry.country.api.base}/create/`, payload: { name }, headers: { 'accept-language': lang } })
          expect(res.status, res.raw).toBe(503)
          expect(res.body).toEqual({ detail: messageFor(lang, { key: 'detail.statement_timeout' }) })
          expect(Date.now() - started).toBeLessThan(1_800)
        }
        expect([await count(db, 'country'), await count(db, 'audit_log')]).toEqual(before)
      } finally {
        setWriteStatementTimeout(db, WRITE_STATEMENT_TIMEOUT_MS)
      }
    })
  },
  { modules: [slowWrites] },
)
