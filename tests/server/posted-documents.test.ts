import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkRegistry, entities, registry } from '../../schema'
import { defineEntity, f, money } from '../../schema/kit'
import { utcDay } from '../../schema/kit/dates'
import { buildApp, defaultModules } from '../../server/app'
import { seededLedger } from '../../server/domain/accounting/ledgers'
import type { DomainModule } from '../../server/engine/modules'
import { catalogues } from '../../server/i18n'
import { addThrowawayLabels, stockTransfer, throwawayEntities, throwawayReports } from '../support/throwaway-registry'
import { JWT_SECRET, describeEachDatabase } from './helpers/app'
import { freshDatabase } from './helpers/databases'
import { createRow } from './helpers/samples'
import { stockTransferModule, throwawayStub } from './helpers/throwaway-module'

/**
 * Numbering and posted documents declared in the registry (issue 18 §2), for entities defined
 * at run time: a stock transfer numbered `ST<year>00<n>` as it is drafted, which posts a
 * journal when confirmed and reverses it when cancelled; and a fee that posts a receipt as it
 * is written, reposts it (same number) when what it posts changes, leaves it when nothing it
 * posts changed, and reverses it when deleted or when it no longer posts.
 */
const TRANSFERS = stockTransfer.api.base
const year = utcDay().slice(0, 4)
const today = utcDay().replaceAll('-', '')

const fee = defineEntity({
  name: 'gadget_fee',
  module: 'test',
  listKey: 'gadget_fees',
  labelField: 'payer',
  route: { area: 'gadgetFee-management', list: 'gadgetFees' },
  fields: {
    payer: f.text({ max: 50, required: true, search: true, label: 'field.name' }),
    amount: f.money({ default: '0.00', min: '0', label: 'field.amount' }),
    note: f.text({ max: 100, label: 'field.details' }),
    receipt_no: f.text({ max: 50, readOnly: true, code: true, label: 'field.invoice_no' }),
  },
  posts: { as: 'receipt_voucher', number: 'receipt_no', when: (row) => money.toMinor(row.amount as string) > 0n },
})

const feeModule: DomainModule = {
  name: 'test-fee',
  postings: {
    gadget_fee: async ({ trx, record }) => ({
      date: utcDay(record.created_at as Date),
      lines: [
        { ledger: await seededLedger(trx, 'Cash'), debit: String(record.amount) },
        { ledger: await seededLedger(trx, 'Company Sales'), credit: String(record.amount) },
      ],
    }),
  },
}

/**
 * An invoice of gadgets that posts a journal when confirmed and stays editable once confirmed:
 * a change of what it posts reposts it under the same number (what stood reversed).
 */
const invoiceLine = defineEntity({
  name: 'gadget_invoice_line',
  module: 'test',
  lineOf: 'gadget_invoice',
  labelField: 'gadget',
  fields: {
    gadget: f.ref('city', { required: true, label: 'field.district' }),
    quantity: f.integer({ required: true, min: 1, label: 'field.quantity' }),
    unit_price: f.money({ required: true, min: '0', label: 'field.amount' }),
  },
})
const invoice = defineEntity({
  name: 'gadget_invoice',
  module: 'test',
  listKey: 'gadget_invoices',
  labelField: 'note',
  route: { area: 'gadgetInvoice-management', list: 'gadgetInvoices' },
  fields: {
    note: f.text({ max: 100, required: true, search: true, label: 'field.details' }),
    status: f.choice(['draft', 'confirmed', 'cancelled'], { label: 'field.type' }),
    journal_no: f.text({ max: 50, readOnly: true, code: true, label: 'field.reference_no' }),
    items: f.lines(invoiceLine, { min: 1, label: 'field.items' }),
  },
  posts: { as: 'journal', number: 'journal_no', on: 'confirm', reverseOn: ['cancel'] },
  workflow: {
    field: 'status',
    initial: 'draft',
    editableIn: ['draft', 'confirmed'],
    transitions: { confirm: { from: ['draft'], to: 'confirmed' }, cancel: { from: ['draft', 'confirmed'], to: 'cancelled' } },
  },
})
const invoiceTotal = (record: Record<string, unknown>) => money.sum((record.items as Array<Record<string, unknown>>).map((l) => money.multiply(String(l.unit_price), Number(l.quantity))))
const invoiceModule: DomainModule = {
  name: 'test-invoice',
  postings: {
    gadget_invoice: async ({ trx, record }) =>
      money.toMinor(invoiceTotal(record)) === 0n
        ? null
        : {
            date: utcDay(),
            details: `Gadget invoice ${String(record.id)}`,
            lines: [
              { ledger: await seededLedger(trx, 'Company Purchase'), debit: invoiceTotal(record) },
              // A note of `lopsided` makes it post what does not balance: the general ledger refuses it.
              { ledger: await seededLedger(trx, 'Company Sales'), credit: record.note === 'lopsided' ? money.sum([invoiceTotal(record), '1.00']) : invoiceTotal(record) },
            ],
          },
  },
}

const withFee = [...throwawayEntities, fee, invoice, invoiceLine]
const options = { entities: withFee, reports: throwawayReports, modules: [throwawayStub, stockTransferModule, feeModule, invoiceModule] }

let undoLabels: () => void
const added = { gadget_fee: { one: 'Gadget fee', other: 'Gadget fees' }, gadget_invoice: { one: 'Gadget invoice', other: 'Gadget invoices' }, gadget_invoice_line: { one: 'Gadget invoice line', other: 'Gadget invoice lines' } }
beforeAll(() => {
  undoLabels = addThrowawayLabels(catalogues)
  for (const catalogue of Object.values(catalogues)) Object.assign(catalogue.entity as Record<string, unknown>, added)
})
afterAll(() => {
  undoLabels()
  for (const catalogue of Object.values(catalogues)) for (const name of Object.keys(added)) delete (catalogue.entity as Record<string, unknown>)[name]
})

type LogRow = { ledger: number; debit_amount: string; credit_amount: string; log_type: string; reverses: number | null }

describe('the registry check of numbering and postings', () => {
  const problemsOf = (config: Record<string, unknown>) =>
    checkRegistry([...entities, defineEntity({ name: 'broken_fee', module: 'test', listKey: 'broken_fees', route: { area: 'brokenFee-management', list: 'brokenFees' }, fields: { name: f.text({ required: true, search: true }), no: f.text({ max: 50 }), day: f.text() }, ...config } as never)])
      .filter((p) => p.entity === 'broken_fee' && !p.message.includes('translation'))
      .map((p) => p.message)

  it('refuses a number field the server cannot own, a bad prefix, and a posting with nowhere or no time to go', () => {
    expect(problemsOf({ numbering: { field: 'no', prefix: 'bf', reset: 'day', date: 'day' } })).toEqual([
      'numbering gives a read-only text field (f.text({ readOnly: true }))',
      "numbering prefix 'bf' must be 2 to 10 capital letters",
      "numbering counts by 'day', which is not a date field",
    ])
    expect(problemsOf({ posts: { as: 'ledger', number: 'no', on: 'confirm' } })).toEqual([
      "a posting's number is held by a read-only text field (f.text({ readOnly: true }))",
      "posts as 'ledger' under its own number: give it numbering on 'no'",
      "posts on 'confirm', which is neither 'create' nor a transition of its workflow (none)",
    ])
    expect(problemsOf({ posts: { as: 'city', number: 'no', reverseOn: ['cancel'] } })).toContain("posts as 'city', which is not a voucher entity with its numbering")
  })

  it('refuses to start while no module says what an entity posts', async () => {
    const connection = await freshDatabase('pglite')
    try {
      await expect(buildApp({ db: connection.db, jwtSecret: JWT_SECRET, mediaDir: '/tmp', entities: withFee, reports: throwawayReports, modules: [...defaultModules(), throwawayStub, stockTransferModule] })).rejects.toThrow(
        'gadget_fee: it posts to the general ledger, but no module says what: give `postings: { gadget_fee: … }` in a DomainModule',
      )
    } finally {
      await connection.close()
    }
  })
})

describeEachDatabase(
  'numbered and posted documents',
  (t) => {
    let place: number
    beforeAll(async () => {
      const country = await createRow(t.current, registry.country, { name: `Postland ${Math.random()}` })
      place = Number((await createRow(t.current, registry.city, { name: `Depot ${Math.random()}`, country: country.id })).id)
    })
    const logsOf = async (reference: string) =>
      (await sql<LogRow>`select ledger, debit_amount, credit_amount, log_type, reverses from account_log where reference_no = ${reference} order by id`.execute(t.current.db)).rows
    const draft = (value: string, extra: Record<string, unknown> = {}) =>
      t.current.call({ method: 'POST', url: `${TRANSFERS}/create/`, payload: { note: 'To the depot', value, items: [{ gadget: place, quantity: 1 }], number: 'MINE', ...extra } })

    it('numbers each new record in turn, gapless: a refused create takes no number, a client cannot choose one', async () => {
      const first = await draft('10.00')
      expect(first.status, first.raw).toBe(201)
      const n = Number(/^ST\d{4}00(\d+)$/.exec(first.body.number)![1])
      expect(first.body.number).toBe(`ST${year}00${n}`)
      expect((await draft('10.00', { items: [] })).status).toBe(400)
      const second = await draft('0')
      expect(second.body.number).toBe(`ST${year}00${n + 1}`)
      // Twenty at once: twenty numbers, one each, none lost.
      const many = await Promise.all(Array.from({ length: 20 }, () => draft('1.00')))
      const numbers = many.map((r) => Number(/00(\d+)$/.exec(r.body.number)![1])).sort((a, b) => a - b)
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => n + 2 + i))
    })

    it('posts a journal when confirmed, under a number of its own kept on the record, and reverses it when cancelled', async () => {
      const [purchase, sales] = [await seededLedger(t.current.db, 'Company Purchase'), await seededLedger(t.current.db, 'Company Sales')]
      const made = (await draft('125.50')).body
      expect(made.journal_no).toBeNull()
      const confirmed = await t.current.call({ method: 'POST', url: `${TRANSFERS}/confirm/${made.id}` })
      expect(confirmed.status, confirmed.raw).toBe(200)
      expect(confirmed.body.journal_no).toMatch(new RegExp(`^JO${today}00\\d+$`))
      const journal = confirmed.body.journal_no as string
      expect(await logsOf(journal)).toEqual([
        { ledger: purchase, debit_amount: '125.50', credit_amount: '0.00', log_type: 'journal', reverses: null },
        { ledger: sales, debit_amount: '0.00', credit_amount: '125.50', log_type: 'journal', reverses: null },
      ])
      // Posted as a journal voucher: its lines are in the journal's own table, listed with the journals.
      const voucher = await t.current.call({ method: 'GET', url: `/journal/api/v1/journal/journal_by_invoice_no/${journal}` })
      expect(voucher.status, voucher.raw).toBe(200)
      expect(voucher.body.items).toHaveLength(2)

      const cancelled = await t.current.call({ method: 'POST', url: `${TRANSFERS}/cancel/${made.id}` })
      expect(cancelled.body).toMatchObject({ status: 'cancelled', journal_no: journal })
      const rows = await logsOf(journal)
      expect(rows).toHaveLength(4)
      expect(money.sum(rows.map((r) => r.debit_amount))).toBe(money.sum(rows.map((r) => r.credit_amount)))
      expect(rows.slice(2).every((r) => r.reverses !== null)).toBe(true)
      expect((await sql<{ n: number }>`select count(*)::int as n from journal where invoice_no = ${journal}`.execute(t.current.db)).rows[0]!.n).toBe(0)
    })

    it('posts nothing on confirming a transfer of no value (its `when`)', async () => {
      const made = (await draft('0')).body
      const confirmed = await t.current.call({ method: 'POST', url: `${TRANSFERS}/confirm/${made.id}` })
      expect(confirmed.body).toMatchObject({ status: 'confirmed', journal_no: null })
    })

    it('posts as written, reposts under the same number only when what it posts changes, and reverses on delete or when it no longer posts', async () => {
      const made = await t.current.call({ method: 'POST', url: `${fee.api.base}/create/`, payload: { payer: 'Karim', amount: '40.00', receipt_no: 'MINE' } })
      expect(made.status, made.raw).toBe(201)
      const receipt = made.body.receipt_no as string
      expect(receipt).toMatch(new RegExp(`^RV${today}00\\d+$`))
      expect((await logsOf(receipt)).map((r) => [r.debit_amount, r.credit_amount])).toEqual([['40.00', '0.00'], ['0.00', '40.00']])

      // A note is not posted: nothing moves.
      await t.current.call({ method: 'PATCH', url: `${fee.api.base}/update/${made.body.id}`, payload: { note: 'Paid at the desk' } })
      expect(await logsOf(receipt)).toHaveLength(2)
      const changed = await t.current.call({ method: 'PATCH', url: `${fee.api.base}/update/${made.body.id}`, payload: { amount: '45.00' } })
      expect(changed.body.receipt_no).toBe(receipt)
      expect((await logsOf(receipt)).map((r) => [r.debit_amount, r.credit_amount, r.reverses === null])).toEqual([
        ['40.00', '0.00', true],
        ['0.00', '40.00', true],
        ['0.00', '40.00', false],
        ['40.00', '0.00', false],
        ['45.00', '0.00', true],
        ['0.00', '45.00', true],
      ])
      // No longer posting (no amount): reversed, the number kept; posting again: the same number.
      await t.current.call({ method: 'PATCH', url: `${fee.api.base}/update/${made.body.id}`, payload: { amount: '0' } })
      expect(await logsOf(receipt)).toHaveLength(8)
      const again = await t.current.call({ method: 'PATCH', url: `${fee.api.base}/update/${made.body.id}`, payload: { amount: '5.00' } })
      expect(again.body.receipt_no).toBe(receipt)
      expect(await logsOf(receipt)).toHaveLength(10)
      expect((await t.current.call({ method: 'DELETE', url: `${fee.api.base}/delete/${made.body.id}` })).status).toBe(200)
      const rows = await logsOf(receipt)
      expect(rows).toHaveLength(12)
      expect(money.sum(rows.map((r) => r.debit_amount))).toBe(money.sum(rows.map((r) => r.credit_amount)))

      const free = await t.current.call({ method: 'POST', url: `${fee.api.base}/create/`, payload: { payer: 'Nobody', amount: '0' } })
      expect(free.body.receipt_no).toBeNull()
    })

    describe('a document posted on a transition and changed while still editable', () => {
      const INVOICES = invoice.api.base
      // The journal voucher under the number: one row per line (the vouchers are kept so).
      const journalsOf = async (number: string) => (await sql<{ n: number }>`select count(*)::int as n from journal where invoice_no = ${number}`.execute(t.current.db)).rows[0]!.n
      const make = async (quantity: number) => {
        const made = await t.current.call({ method: 'POST', url: `${INVOICES}/create/`, payload: { note: 'Gadgets sold', items: [{ gadget: place, quantity, unit_price: '10.00' }] } })
        expect(made.status, made.raw).toBe(201)
        return made.body as { id: number; journal_no: string | null; items: Array<{ id: number }> }
      }

      it('reposts under the same number as the lines now are: what stood reversed, the voucher the new amount', async () => {
        const [purchase, sales] = [await seededLedger(t.current.db, 'Company Purchase'), await seededLedger(t.current.db, 'Company Sales')]
        const made = await make(3)
        // A draft changed posts nothing: nothing of it stands.
        const drafted = await t.current.call({ method: 'PATCH', url: `${INVOICES}/update/${made.id}`, payload: { items: [{ id: made.items[0]!.id, gadget: place, quantity: 3, unit_price: '10.00' }], note: 'Gadgets sold, soon' } })
        expect(drafted.status, drafted.raw).toBe(200)
        expect(drafted.body.journal_no).toBeNull()

        const confirmed = await t.current.call({ method: 'POST', url: `${INVOICES}/confirm/${made.id}` })
        expect(confirmed.status, confirmed.raw).toBe(200)
        const journal = confirmed.body.journal_no as string
        expect(journal).toMatch(new RegExp(`^JO${today}00\\d+$`))
        expect(await logsOf(journal)).toEqual([
          { ledger: purchase, debit_amount: '30.00', credit_amount: '0.00', log_type: 'journal', reverses: null },
          { ledger: sales, debit_amount: '0.00', credit_amount: '30.00', log_type: 'journal', reverses: null },
        ])

        // Confirmed, still editable: 3 → 5.
        const changed = await t.current.call({ method: 'PUT', url: `${INVOICES}/update/${made.id}`, payload: { note: 'Gadgets sold, soon', items: [{ id: made.items[0]!.id, gadget: place, quantity: 5, unit_price: '10.00' }] } })
        expect(changed.status, changed.raw).toBe(200)
        expect(changed.body).toMatchObject({ status: 'confirmed', journal_no: journal })
        const rows = await logsOf(journal)
        expect(rows.map((r) => [r.debit_amount, r.credit_amount, r.reverses === null])).toEqual([
          ['30.00', '0.00', true],
          ['0.00', '30.00', true],
          ['0.00', '30.00', false],
          ['30.00', '0.00', false],
          ['50.00', '0.00', true],
          ['0.00', '50.00', true],
        ])
        // The reversal names what it reverses; the new posting is the two lines of 50.00.
        const ids = (await sql<{ id: number }>`select id from account_log where reference_no = ${journal} order by id`.execute(t.current.db)).rows.map((r) => Number(r.id))
        expect(rows.slice(2, 4).map((r) => Number(r.reverses)).sort((a, b) => a - b)).toEqual(ids.slice(0, 2))
        expect(rows.slice(4).map((r) => r.ledger)).toEqual([purchase, sales])
        expect(money.sum(rows.map((r) => r.debit_amount))).toBe(money.sum(rows.map((r) => r.credit_amount)))
        // The voucher standing under the number is the new one, and the only one: its two lines.
        expect(await journalsOf(journal)).toBe(2)
        const voucher = await t.current.call({ method: 'GET', url: `/journal/api/v1/journal/journal_by_invoice_no/${journal}` })
        expect(voucher.status, voucher.raw).toBe(200)
        expect(money.sum(voucher.body.items.map((i: { debit_amount: string }) => i.debit_amount))).toBe('50.00')

        // Nothing it posts changed (its note): nothing reposts.
        expect((await t.current.call({ method: 'PATCH', url: `${INVOICES}/update/${made.id}`, payload: { note: 'Gadgets sold to Karim' } })).status).toBe(200)
        expect(await logsOf(journal)).toHaveLength(6)

        // Cancelled: what stands is reversed, and no voucher stands under the number.
        expect((await t.current.call({ method: 'POST', url: `${INVOICES}/cancel/${made.id}` })).body).toMatchObject({ status: 'cancelled', journal_no: journal })
        const after = await logsOf(journal)
        expect(after).toHaveLength(8)
        expect(money.sum(after.map((r) => r.debit_amount))).toBe(money.sum(after.map((r) => r.credit_amount)))
        expect(await journalsOf(journal)).toBe(0)
      })

      it('posts a document confirmed while it posted nothing once it is priced, and reverses what stands when it posts nothing again', async () => {
        const made = await make(1)
        // Free: the confirmation posts nothing and takes no number.
        expect((await t.current.call({ method: 'PUT', url: `${INVOICES}/update/${made.id}`, payload: { note: 'Free sample', items: [{ id: made.items[0]!.id, gadget: place, quantity: 1, unit_price: '0.00' }] } })).status).toBe(200)
        const confirmed = await t.current.call({ method: 'POST', url: `${INVOICES}/confirm/${made.id}` })
        expect(confirmed.body).toMatchObject({ status: 'confirmed', journal_no: null })
        // Priced while confirmed: it posts now, under a number taken now, shown in the answer.
        const priced = await t.current.call({ method: 'PUT', url: `${INVOICES}/update/${made.id}`, payload: { note: 'Sold after all', items: [{ id: made.items[0]!.id, gadget: place, quantity: 1, unit_price: '20.00' }] } })
        expect(priced.status, priced.raw).toBe(200)
        const journal = priced.body.journal_no as string
        expect(journal).toMatch(new RegExp(`^JO${today}00\\d+$`))
        expect((await logsOf(journal)).map((r) => [r.debit_amount, r.credit_amount])).toEqual([
          ['20.00', '0.00'],
          ['0.00', '20.00'],
        ])
        // Free again: what stood is reversed, the number kept.
        const free = await t.current.call({ method: 'PUT', url: `${INVOICES}/update/${made.id}`, payload: { note: 'Free after all', items: [{ id: made.items[0]!.id, gadget: place, quantity: 1, unit_price: '0.00' }] } })
        expect(free.body.journal_no).toBe(journal)
        expect(await logsOf(journal)).toHaveLength(4)
        expect(await journalsOf(journal)).toBe(0)
      })

      it('refuses a change whose new posting the ledger refuses: nothing written — the lines and what stood under the number as they were', async () => {
        const made = await make(2)
        const journal = (await t.current.call({ method: 'POST', url: `${INVOICES}/confirm/${made.id}` })).body.journal_no as string
        const before = await logsOf(journal)
        expect(before).toHaveLength(2)
        const refused = await t.current.call({ method: 'PUT', url: `${INVOICES}/update/${made.id}`, payload: { note: 'lopsided', items: [{ id: made.items[0]!.id, gadget: place, quantity: 4, unit_price: '10.00' }] } })
        expect(refused.status, refused.raw).toBe(400)
        expect(await logsOf(journal)).toEqual(before)
        expect(await journalsOf(journal)).toBe(2)
        expect((await t.current.call({ method: 'GET', url: `${INVOICES}/${made.id}` })).body).toMatchObject({ note: 'Gadgets sold', items: [{ quantity: 2 }] })
        // The same change, balanced: reposted.
        const taken = await t.current.call({ method: 'PUT', url: `${INVOICES}/update/${made.id}`, payload: { note: 'Gadgets sold', items: [{ id: made.items[0]!.id, gadget: place, quantity: 4, unit_price: '10.00' }] } })
        expect(taken.status, taken.raw).toBe(200)
        expect((await logsOf(journal)).slice(4).map((r) => [r.debit_amount, r.credit_amount])).toEqual([['40.00', '0.00'], ['0.00', '40.00']])
      })
    })
  },
  options,
)
