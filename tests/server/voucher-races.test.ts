import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { registry } from '../../schema'
import type { Db } from '../../server/db/types'
import type { DomainModule } from '../../server/engine/modules'
import { messageFor } from '../../server/i18n'
import { describeEachDatabase, type Reply } from './helpers/app'
import { ledgerUnder } from './helpers/ledgers'

/**
 * Parallel writes of one voucher (issue 19). On PostgreSQL the first to lock its rows wins; one
 * that read the voucher before that write committed is refused with 409 "changed meanwhile" in
 * its caller's language — not a 404 about a line the winner replaced, nor a 500 — and writes
 * nothing. A cancel that finds the voucher already cancelled is a 404. On the embedded database
 * (one connection) the writes run one after another and each succeeds. Either way the voucher
 * and the general ledger agree at the end.
 */
const JOURNAL = registry.journal.api.base
const DAY = '2026-09-10'

/** The winner holds the voucher's rows a moment, as a slow write would: the others read it meanwhile. */
const slowVouchers: DomainModule = {
  name: 'test-slow-vouchers',
  hooks: { journal: { afterDocumentWrite: async ({ trx }) => void (await sql`select pg_sleep(0.4)`.execute(trx)) } },
}

describeEachDatabase(
  'parallel writes of one voucher',
  (t, kind) => {
    let db: Db
    let rent: number
    let power: number
    let vendor: number
    beforeAll(async () => {
      db = t.current.db
      rent = await ledgerUnder(db, 'Race Rent', 'Indirect Expenses')
      power = await ledgerUnder(db, 'Race Power', 'Indirect Expenses')
      vendor = await ledgerUnder(db, 'Race Vendor', 'Sundry Creditors')
    })

    const create = async (amount: string) => {
      const res = await t.current.call({ method: 'POST', url: `${JOURNAL}/create/`, payload: { journal_date: DAY, items: [{ ledger: rent, debit_amount: amount }, { ledger: vendor, credit_amount: amount }] } })
      expect(res.status, res.raw).toBe(201)
      return { invoice: res.body.journals[0].invoice_no as string, lineId: res.body.journals[0].id as number }
    }
    const changedMeanwhile = (invoice: string, lang: 'en' | 'tr' | 'ar') => ({ detail: messageFor(lang, { key: 'detail.changed_meanwhile', params: { entity: registry.journal.labelKey, key: invoice } }) })
    /** The voucher's lines and what stands for it in the general ledger, as [ledger, debit, credit]. */
    const state = async (invoice: string) => ({
      lines: (await sql<{ ledger: number; d: string; c: string }>`select ledger, debit_amount::text as d, credit_amount::text as c from journal where invoice_no = ${invoice} order by id`.execute(db)).rows.map((r) => [r.ledger, r.d, r.c]),
      standing: (
        await sql<{ ledger: number; d: string; c: string }>`
          select ledger, debit_amount::text as d, credit_amount::text as c from account_log a
          where reference_no = ${invoice} and reverses is null and not exists (select 1 from account_log r where r.reverses = a.id) order by id`.execute(db)
      ).rows.map((r) => [r.ledger, r.d, r.c]),
    })

    it('tells the callers whose update lost the race that the voucher changed meanwhile (409, in their language), and keeps the winner\'s voucher and postings', async () => {
      const { invoice, lineId } = await create('100.00')
      const langs = ['en', 'tr', 'ar'] as const
      const bodies = langs.map((_, i) => ({ invoice_no: invoice, journal_date: DAY, details: `Attempt ${i}`, items: [{ ledger: i === 1 ? power : rent, debit_amount: `${200 + i}.00` }, { ledger: vendor, credit_amount: `${200 + i}.00` }] }))
      const answers: Reply[] = await Promise.all(
        bodies.map((payload, i) =>
          // One of them names the voucher by a line's id, as the form does; the others by its number, as the contract does.
          t.current.call({ method: 'PUT', url: i === 2 ? `${JOURNAL}/update/${lineId}` : `${JOURNAL}/update/`, payload, headers: { 'accept-language': langs[i]! } }),
        ),
      )
      const statuses = answers.map((a) => a.status)
      answers.forEach((a, i) => {
        expect([200, 409], a.raw).toContain(a.status)
        if (a.status === 409) expect(a.body).toEqual(changedMeanwhile(invoice, langs[i]!))
      })
      if (kind === 'postgres') {
        // The first to lock wins; the others read the voucher before it committed.
        expect(statuses.filter((s) => s === 200)).toHaveLength(1)
      } else {
        // One after another: by its number each finds the voucher as the last left it; the line
        // named by id is gone once an update before it replaced the lines — changed meanwhile too.
        expect(statuses.slice(0, 2)).toEqual([200, 200])
      }
      // The voucher is the last successful body, whole, and the ledger holds exactly its lines.
      const final = await state(invoice)
      const winners = bodies.filter((_, i) => answers[i]!.status === 200)
      expect(winners.map((b) => b.items.map((l) => [l.ledger, l.debit_amount ?? '0.00', l.credit_amount ?? '0.00']))).toContainEqual(final.lines)
      expect(final.standing).toEqual(final.lines)
      const details = (await sql<{ details: string }>`select distinct details from journal where invoice_no = ${invoice}`.execute(db)).rows.map((r) => r.details)
      expect(details).toHaveLength(1)
    })

    it('cancels a voucher once when cancelled in parallel: the others are told it is gone (404), never a 500, and it is reversed once', async () => {
      const { lineId, invoice } = await create('55.00')
      const answers = await Promise.all([0, 1, 2].map(() => t.current.call({ method: 'DELETE', url: `${JOURNAL}/delete/${lineId}` })))
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404])
      for (const a of answers) expect(a.body).toEqual({ detail: expect.any(String) })
      expect(await state(invoice)).toEqual({ lines: [], standing: [] })
      const reversals = await sql<{ n: number }>`select count(*)::int as n from account_log where reference_no = ${invoice} and reverses is not null`.execute(db)
      expect(reversals.rows[0]!.n).toBe(2)
    })
  },
  { modules: [slowVouchers] },
)
