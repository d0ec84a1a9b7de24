import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { registry } from '../../schema'
import type { Entity, Fields } from '../../schema/kit'
import { stockTransfer } from '../support/throwaway-registry'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { createRow } from './helpers/samples'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'
import { ledgerUnder } from './helpers/ledgers'

/**
 * A document another record posted — a donation's or a subscription's receipt, a cause's
 * sales entry and a cause donation's receipt, a stock transfer's journal (issue 19) — changes
 * only through that record: the voucher routes (update by invoice or by line, delete of one,
 * delete of several) answer 409 naming the record and write nothing, `delete_impact/` says so
 * first, and the record itself still changes what it posted.
 */
useThrowawayLabels()

type Owned = { what: string; entity: Entity<string, Fields>; invoice: string; owner: string; ownerId: number }

describeEachDatabase(
  'documents posted by another record',
  (t) => {
    const call = (o: Parameters<TestApp['call']>[0]) => t.current.call(o)
    const rowsOf = async (table: string, invoice: string) =>
      (await sql<{ id: number; debit_amount: string; credit_amount: string; details: string | null }>`select id, debit_amount, credit_amount, details from ${sql.id(table)} where invoice_no = ${invoice} order by id`.execute(t.current.db)).rows
    const logsOf = async (invoice: string) => Number((await sql<{ n: number }>`select count(*)::int as n from account_log where reference_no = ${invoice}`.execute(t.current.db)).rows[0]!.n)
    const made = async (url: string, payload: Record<string, unknown>) => {
      const res = await call({ method: 'POST', url, payload })
      expect(res.status, res.raw).toBe(201)
      return res.body
    }

    let owned: Owned[]
    beforeAll(async () => {
      const donation = await made(`${registry.donation.api.base}/create/`, { amount: '25.00', first_name: 'Rahima', last_name: 'Khatun', email: 'rahima@example.com' })
      const member = await made(`${registry.member.api.base}/create/`, { first_name: 'Karim', last_name: 'Uddin', username: 'ownedmember', email: 'ownedmember@example.com', password: 'secret123' })
      const subscription = (await made(`${registry.monthly_subscription.api.base}/create/`, { members: [member.id], amount: '10.00' })).monthly_subscriptions[0]
      const cause = await made(`${registry.cause.api.base}/create/`, { name: 'Clean Water', goal_amount: '500.00' })
      const causeDonation = await made(`${registry.cause_donation.api.base}/create/`, { cause: cause.id, amount: '5.00' })
      const country = await createRow(t.current, registry.country, { name: 'Ownland' })
      const place = await createRow(t.current, registry.city, { name: 'Owned Depot', country: country.id })
      const transfer = await made(`${stockTransfer.api.base}/create/`, { note: 'To the depot', value: '12.00', items: [{ gadget: place.id, quantity: 1 }] })
      const confirmed = await call({ method: 'POST', url: `${stockTransfer.api.base}/confirm/${transfer.id}` })
      expect(confirmed.body.journal_no).toMatch(/^JO/)
      owned = [
        { what: "a donation's receipt", entity: registry.receipt_voucher, invoice: donation.invoice_no, owner: 'Donation', ownerId: donation.id },
        { what: "a subscription's receipt", entity: registry.receipt_voucher, invoice: subscription.invoice_no, owner: 'Subscription', ownerId: subscription.id },
        { what: "a cause's sales entry", entity: registry.sales, invoice: cause.sales_invoice_no, owner: 'Cause', ownerId: cause.id },
        // A cause donation is a donation with a cause (issue 20): its receipt is the donation's, under the same id.
        { what: "a cause donation's receipt", entity: registry.receipt_voucher, invoice: causeDonation.invoice_no, owner: 'Donation', ownerId: causeDonation.id },
        { what: "a stock transfer's journal", entity: registry.journal, invoice: confirmed.body.journal_no, owner: 'Stock transfer', ownerId: transfer.id },
      ]
    })

    it('refuses every update and cancel of it through the voucher routes with a 409 naming the record, and writes nothing', async () => {
      const label = (entity: Entity<string, Fields>) => ({ receipt_voucher: 'Receipt Voucher', sales: 'Receivable Bill', journal: 'Journal Voucher' })[entity.name]
      for (const o of owned) {
        const base = o.entity.api.base
        const rows = await rowsOf(o.entity.name, o.invoice)
        expect(rows.length, o.what).toBeGreaterThanOrEqual(2)
        const logs = await logsOf(o.invoice)
        const detail = `This ${label(o.entity)} belongs to ${o.owner} #${o.ownerId}; change it there.`
        const items = rows.map((r) => ({ id: r.id, debit_amount: r.debit_amount === '0.00' ? '0' : '1.00', credit_amount: r.credit_amount === '0.00' ? '0' : '1.00' }))
        const attempts = [
          { method: 'PUT' as const, url: `${base}/update/`, payload: { invoice_no: o.invoice, details: 'Changed behind its back' } },
          { method: 'PATCH' as const, url: `${base}/update/${rows[0]!.id}`, payload: { items } },
          { method: 'DELETE' as const, url: `${base}/delete/${rows[1]!.id}` },
          { method: 'DELETE' as const, url: `${base}/delete_multiple/`, payload: { ids: [rows[0]!.id] } },
        ]
        for (const attempt of attempts) {
          const res = await call(attempt)
          expect([res.status, res.body], `${o.what}: ${attempt.method} ${attempt.url}`).toEqual([409, { detail }])
        }
        expect(await rowsOf(o.entity.name, o.invoice), o.what).toEqual(rows)
        expect(await logsOf(o.invoice), o.what).toBe(logs)

        // The delete's confirmation says the same before anything is done.
        const impact = await call({ method: 'GET', url: `${base}/delete_impact/${rows[0]!.id}` })
        expect(impact.body, o.what).toMatchObject({ can_delete: false, references: [{ count: 1, effect: 'refuse' }], detail })
      }
    })

    it('says it in the caller’s language', async () => {
      const o = owned[0]!
      const rows = await rowsOf(o.entity.name, o.invoice)
      const tr = await call({ method: 'DELETE', url: `${o.entity.api.base}/delete/${rows[0]!.id}`, headers: { 'accept-language': 'tr' } })
      expect(tr.body).toEqual({ detail: `Bu Tahsilat Fişi, ${o.ownerId} numaralı Bağış kaydına ait; değişikliği orada yapın.` })
      const ar = await call({ method: 'PUT', url: `${o.entity.api.base}/update/`, payload: { invoice_no: o.invoice, details: 'x' }, headers: { 'accept-language': 'ar' } })
      expect(ar.body).toEqual({ detail: `هذا سند قبض يعود إلى تبرع رقم ${o.ownerId}؛ عدّله من هناك.` })
    })

    it('refuses a cancel of several that takes one such document in, whole: the free voucher stays', async () => {
      const [rent, vendor] = [await ledgerUnder(t.current.db, 'Owned Rent', 'Indirect Expenses'), await ledgerUnder(t.current.db, 'Owned Vendor', 'Sundry Creditors')]
      const free = await call({ method: 'POST', url: `${registry.journal.api.base}/create/`, payload: { journal_date: '2026-04-15', items: [{ ledger: rent, debit_amount: '3' }, { ledger: vendor, credit_amount: '3' }] } })
      expect(free.status, free.raw).toBe(201)
      const freeRow = free.body.journals[0].id as number
      const journal = owned.find((o) => o.entity === registry.journal)!
      const ownedRow = (await rowsOf('journal', journal.invoice))[0]!.id
      const res = await call({ method: 'DELETE', url: `${registry.journal.api.base}/delete_multiple/`, payload: { ids: [freeRow, ownedRow] } })
      expect(res.status).toBe(409)
      expect(await rowsOf('journal', free.body.journals[0].invoice_no)).toHaveLength(2)
      // The free one alone goes.
      expect((await call({ method: 'DELETE', url: `${registry.journal.api.base}/delete_multiple/`, payload: { ids: [freeRow] } })).status).toBe(200)
    })

    it('still changes through its record: a donation’s new amount reposts its receipt, its delete cancels it', async () => {
      const o = owned[0]!
      const changed = await call({ method: 'PATCH', url: `${registry.donation.api.base}/update/${o.ownerId}`, payload: { amount: '30.00' } })
      expect(changed.status, changed.raw).toBe(200)
      expect((await rowsOf('receipt_voucher', o.invoice)).map((r) => [r.debit_amount, r.credit_amount])).toEqual([
        ['30.00', '0.00'],
        ['0.00', '30.00'],
      ])
      expect((await call({ method: 'DELETE', url: `${registry.donation.api.base}/delete/${o.ownerId}` })).status).toBe(200)
      expect(await rowsOf('receipt_voucher', o.invoice)).toEqual([])
    })
  },
  throwawayApp,
)
