import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { registry, reportRegistry } from '../../schema'
import { money } from '../../schema/kit'
import type { Db } from '../../server/db/types'
import { messageFor } from '../../server/i18n'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { seededLedger } from './helpers/ledgers'
import { requestOf } from './helpers/samples'

/**
 * Causes and donations (issue 12, api-contract §4.5, §5.1): a cause's ledger and its sales
 * entry of the goal, donations and cause donations posted as receipts — every row of the
 * general ledger they write asserted (the golden postings), raised amounts that lose nothing
 * to parallel donations, and a failure anywhere that writes nothing at all. The contract's
 * cause donation, `{cause, amount}`, names no donor: it is anonymous (issue 20; the donor
 * model itself: donation-model.test.ts).
 */
const CAUSE = registry.cause.api.base
const DONATION = registry.donation.api.base
const CAUSE_DONATION = registry.cause_donation.api.base
const { trial_balance: trialBalance } = reportRegistry

const today = () => new Date().toISOString().slice(0, 10)

/** How many receipt numbers today's counter has given (invoice numbering: a rolled-back write gives its number back). */
const receiptCounter = async (db: Db): Promise<number> =>
  Number((await sql<{ n: number }>`select last_no as n from invoice_counter where prefix = 'RV' and day = ${today()}::date`.execute(db)).rows[0]?.n ?? 0)

type LogRow = { ledger: number; sub_ledger: number | null; reference_no: string; log_type: string; debit_amount: string; credit_amount: string; log_date: string; reverses: number | null }

/** Every general-ledger row of these references, in the order they were written (no ids or times). */
async function rowsOf(db: Db, references: readonly string[]): Promise<LogRow[]> {
  const r = await sql<LogRow>`
    select ledger, sub_ledger, reference_no, log_type, debit_amount, credit_amount, log_date, reverses
    from account_log where reference_no = any(${[...references]}::text[]) order by id`.execute(db)
  return r.rows.map((row) => ({ ...row, reverses: row.reverses === null ? null : -1 }))
}

const ledgerOf = async (db: Db, type: string, referenceId: number): Promise<number[]> =>
  (await sql<{ id: number }>`select id from ledger_account where ledger_type = ${type} and reference_id = ${String(referenceId)} order by id`.execute(db)).rows.map((r) => r.id)

const count = async (db: Db, table: string): Promise<number> => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.id(table)}`.execute(db)).rows[0]!.n)

/** What a refused write must leave as it was. */
const tables = ['donation', 'cause_donation', 'cause', '"user"', 'ledger_account', 'account_log', 'receipt_voucher', 'sales', 'audit_log'] as const
const snapshot = async (db: Db) => Object.fromEntries(await Promise.all(tables.map(async (table) => [table, Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.raw(table)}`.execute(db)).rows[0]!.n)] as const)))

async function createCause(t: TestApp, name: string, goal: string): Promise<{ id: number; sales_invoice_no: string | null; raised_amount: string }> {
  const res = await t.call({ method: 'POST', url: `${CAUSE}/create/`, payload: { name, goal_amount: goal } })
  expect(res.status, res.raw).toBe(201)
  return res.body
}

async function giveToCause(t: TestApp, cause: number, amount: string) {
  const res = await t.call({ method: 'POST', url: `${CAUSE_DONATION}/create/`, payload: { cause, amount } })
  expect(res.status, res.raw).toBe(201)
  return res.body as { id: number; invoice_no: string; ref_invoice_no: string }
}

/** Renames the seeded Cash ledger for the duration of `work`, so that postings find none. */
async function withoutCash<T>(db: Db, work: () => Promise<T>): Promise<T> {
  await sql`update ledger_account set name = 'Cash (away)' where name = 'Cash' and is_deletable = false`.execute(db)
  try {
    return await work()
  } finally {
    await sql`update ledger_account set name = 'Cash' where name = 'Cash (away)' and is_deletable = false`.execute(db)
  }
}

describeEachDatabase('causes and donations', (t) => {
  it('posts a cause of 10,000.00 and two cause donations of 2,500.00 and 1,000.50 as exactly these ledger rows, raises 3,500.50 and keeps the trial balance tied', async () => {
    const db = t.current.db
    const cause = await createCause(t.current, 'Flood Relief', '10000.00')
    expect(cause.sales_invoice_no).toMatch(new RegExp(`^SA${today().replaceAll('-', '')}00\\d+$`))
    expect(cause.raised_amount).toBe('0.00')
    const [causeLedger] = await ledgerOf(db, 'cause_ledger', cause.id)
    expect(causeLedger).toEqual(expect.any(Number))
    const causeSubLedger = (await sql<{ id: number }>`select id from sub_ledger_account where name = 'cause'`.execute(db)).rows[0]!.id

    const first = await giveToCause(t.current, cause.id, '2500.00')
    const second = await giveToCause(t.current, cause.id, '1000.50')
    for (const d of [first, second]) {
      expect(d.invoice_no).toMatch(new RegExp(`^RV${today().replaceAll('-', '')}00\\d+$`))
      expect(d.ref_invoice_no).toBe(cause.sales_invoice_no)
    }
    expect(first.invoice_no).not.toBe(second.invoice_no)
    // Credited to the anonymous donors, never to the signed-in user who typed them (issue 20).
    expect(await ledgerOf(db, 'user_ledger', t.current.adminId)).toEqual([])
    const [donorLedger] = await ledgerOf(db, 'anonymous_donors', 0)
    const [cash, sales] = [await seededLedger(db, 'Cash'), await seededLedger(db, 'Company Sales')]

    const row = (ledger: number, debit: string, credit: string, reference: string, kind: string, subLedger: number | null = null): LogRow => ({
      ledger, sub_ledger: subLedger, reference_no: reference, log_type: kind, debit_amount: debit, credit_amount: credit, log_date: today(), reverses: null,
    })
    expect(await rowsOf(db, [cause.sales_invoice_no!, first.invoice_no, second.invoice_no])).toEqual([
      row(causeLedger!, '10000.00', '0.00', cause.sales_invoice_no!, 'sales', causeSubLedger),
      row(sales, '0.00', '10000.00', cause.sales_invoice_no!, 'sales', causeSubLedger),
      row(cash, '2500.00', '0.00', first.invoice_no, 'receipt_voucher'),
      row(donorLedger!, '0.00', '2500.00', first.invoice_no, 'receipt_voucher'),
      row(cash, '1000.50', '0.00', second.invoice_no, 'receipt_voucher'),
      row(donorLedger!, '0.00', '1000.50', second.invoice_no, 'receipt_voucher'),
    ])
    // The vouchers themselves: the sales entry and the receipts, as their screens read them.
    const bill = await t.current.call({ method: 'GET', url: `/sales/api/v1/sales/receipt_voucher_by_invoice_no/${cause.sales_invoice_no}` })
    expect(bill.body.items.map((i: { ledger: { id: number }; debit_amount: string; credit_amount: string }) => [i.ledger.id, i.debit_amount, i.credit_amount])).toEqual([
      [causeLedger, '10000.00', '0.00'],
      [sales, '0.00', '10000.00'],
    ])
    const receipt = await t.current.call({ method: 'GET', url: `/receipt_voucher/api/v1/receipt_voucher/receipt_voucher_by_invoice_no/${second.invoice_no}` })
    expect(receipt.body.items).toHaveLength(2)
    // The receipt names the invoice it settles: the cause's sales entry.
    for (const item of receipt.body.items) expect(item.ref_invoice_no).toBe(cause.sales_invoice_no)

    expect((await t.current.call({ method: 'GET', url: `${CAUSE}/${cause.id}` })).body.raised_amount).toBe('3500.50')

    const balance = await t.current.call({ method: 'GET', url: `${trialBalance.api.base}/` })
    expect(balance.status, balance.raw).toBe(200)
    const { totals } = balance.body
    expect(totals.debit_amount).toBe(totals.credit_amount)
    expect(totals.closing_debit).toBe(totals.closing_credit)
    // The first postings of this database: each ledger's line is these postings' alone.
    const nameOf = async (id: number) => (await sql<{ name: string }>`select name from ledger_account where id = ${id}`.execute(db)).rows[0]!.name
    const lineOf = async (id: number) => balance.body.rows.find((r: { ledger: string }) => r.ledger === lineNames.get(id))
    const lineNames = new Map<number, string>()
    for (const id of [causeLedger!, sales, cash, donorLedger!]) lineNames.set(id, await nameOf(id))
    expect(await lineOf(causeLedger!)).toMatchObject({ debit_amount: '10000.00', credit_amount: '0.00', closing_debit: '10000.00', closing_credit: '0.00' })
    expect(await lineOf(sales)).toMatchObject({ debit_amount: '0.00', credit_amount: '10000.00', closing_debit: '0.00', closing_credit: '10000.00' })
    expect(await lineOf(cash)).toMatchObject({ debit_amount: '3500.50', credit_amount: '0.00', closing_debit: '3500.50' })
    expect(await lineOf(donorLedger!)).toMatchObject({ debit_amount: '0.00', credit_amount: '3500.50', closing_credit: '3500.50' })
    expect(totals).toMatchObject({ debit_amount: '13500.50', credit_amount: '13500.50' })
  })

  it('loses no amount to fifty parallel cause donations: raised_amount is their sum, with one receipt each', async () => {
    const db = t.current.db
    const cause = await createCause(t.current, 'School Roof', '50000.00')
    const amounts = Array.from({ length: 50 }, (_, i) => `${i + 1}.${String(i % 100).padStart(2, '0')}`)
    const answers = await Promise.all(amounts.map((amount) => t.current.call({ method: 'POST', url: `${CAUSE_DONATION}/create/`, payload: { cause: cause.id, amount } })))
    for (const res of answers) expect(res.status, res.raw).toBe(201)
    const invoices = answers.map((res) => res.body.invoice_no as string)
    expect(new Set(invoices).size).toBe(50)
    expect((await t.current.call({ method: 'GET', url: `${CAUSE}/${cause.id}` })).body.raised_amount).toBe(money.sum(amounts))
    const receipts = await sql<{ n: number }>`select count(distinct invoice_no)::int as n from receipt_voucher where invoice_no = any(${invoices}::text[])`.execute(db)
    expect(receipts.rows[0]!.n).toBe(50)
    const rows = await rowsOf(db, invoices)
    expect(rows).toHaveLength(100)
    expect(money.sum(rows.map((r) => r.debit_amount))).toBe(money.sum(amounts))
    expect(money.sum(rows.map((r) => r.credit_amount))).toBe(money.sum(amounts))
    // One ledger for the anonymous donors, however many donations raced to make it.
    expect(await ledgerOf(db, 'anonymous_donors', 0)).toHaveLength(1)
  })

  it("posts a donation as a receipt credited to the donor found or made by e-mail, with one ledger per donor, into its payment method's ledger", async () => {
    const db = t.current.db
    const bkash = (await t.current.call({ method: 'GET', url: '/payment_method/api/v1/payment_method/search/?name=bkash' })).body.paymentmethods[0].id as number
    const payload = { amount: '500.00', first_name: 'Rahima', last_name: 'Khatun', email: 'rahima.donor@example.com', phone_number: '+8801711000111', address: 'Sylhet', payment_method: bkash, message: 'For the school' }
    const first = await t.current.call({ method: 'POST', url: `${DONATION}/create/`, payload })
    expect(first.status, first.raw).toBe(201)
    expect(first.body).toMatchObject({ amount: '500.00', email: 'rahima.donor@example.com', payment_method: bkash, cause: null })
    const donor = (await sql<{ id: number; first_name: string }>`select id, first_name from "user" where email = 'rahima.donor@example.com'`.execute(db)).rows
    expect(donor).toEqual([{ id: expect.any(Number), first_name: 'Rahima' }])
    const ledgers = await ledgerOf(db, 'user_ledger', donor[0]!.id)
    expect(ledgers).toHaveLength(1)
    const group = await sql<{ name: string }>`select g.name from ledger_account l join "group" g on g.id = l.head_group where l.id = ${ledgers[0]!}`.execute(db)
    expect(group.rows[0]!.name).toBe('Sundry Creditors')
    // Paid by bkash: received into bkash's ledger, not Cash (issue 20).
    const wallet = Number((await sql<{ ledger: number }>`select ledger from payment_method where id = ${bkash}`.execute(db)).rows[0]!.ledger)
    expect(wallet).not.toBe(await seededLedger(db, 'Cash'))
    expect((await rowsOf(db, [first.body.invoice_no])).map((r) => [r.ledger, r.debit_amount, r.credit_amount, r.log_type, r.log_date])).toEqual([
      [wallet, '500.00', '0.00', 'receipt_voucher', today()],
      [ledgers[0], '0.00', '500.00', 'receipt_voucher', today()],
    ])
    // The same donor again (the e-mail in other capitals): their user and ledger, no new ones.
    const again = await t.current.call({ method: 'POST', url: `${DONATION}/create/`, payload: { ...payload, amount: '20.00', email: 'Rahima.Donor@example.com' } })
    expect(again.status, again.raw).toBe(201)
    expect((await rowsOf(db, [again.body.invoice_no]))[1]).toMatchObject({ ledger: ledgers[0], credit_amount: '20.00' })
    expect(await ledgerOf(db, 'user_ledger', donor[0]!.id)).toHaveLength(1)
    expect((await sql<{ n: number }>`select count(*)::int as n from "user" where lower(email) = 'rahima.donor@example.com'`.execute(db)).rows[0]!.n).toBe(1)
  })

  it("moves a changed donation's receipt to its new amount and donor, and cancels a removed donation's receipt", async () => {
    const db = t.current.db
    const made = await t.current.call({ method: 'POST', url: `${DONATION}/create/`, payload: { amount: '60.00', first_name: 'Abul', last_name: 'Kalam', email: 'abul.first@example.com' } })
    expect(made.status, made.raw).toBe(201)
    const changed = await t.current.call({ method: 'PATCH', url: `${DONATION}/update/${made.body.id}`, payload: { amount: '65.00', email: 'abul.second@example.com' } })
    expect(changed.status, changed.raw).toBe(200)
    expect(changed.body.invoice_no).toBe(made.body.invoice_no)
    const donorLedger = async (email: string) => {
      const user = (await sql<{ id: number }>`select id from "user" where email = ${email}`.execute(db)).rows[0]!.id
      return (await ledgerOf(db, 'user_ledger', user))[0]
    }
    const [first, second, cash] = [await donorLedger('abul.first@example.com'), await donorLedger('abul.second@example.com'), await seededLedger(db, 'Cash')]
    expect((await rowsOf(db, [made.body.invoice_no])).map((r) => [r.ledger, r.debit_amount, r.credit_amount, r.reverses])).toEqual([
      [cash, '60.00', '0.00', null],
      [first, '0.00', '60.00', null],
      [cash, '0.00', '60.00', -1],
      [first, '60.00', '0.00', -1],
      [cash, '65.00', '0.00', null],
      [second, '0.00', '65.00', null],
    ])
    // A change of what was not posted (the message) leaves the receipt as it is.
    await t.current.call({ method: 'PATCH', url: `${DONATION}/update/${made.body.id}`, payload: { message: 'Thank you' } })
    expect(await rowsOf(db, [made.body.invoice_no])).toHaveLength(6)
    expect((await t.current.call({ method: 'DELETE', url: `${DONATION}/delete/${made.body.id}` })).status).toBe(200)
    const after = await rowsOf(db, [made.body.invoice_no])
    expect(after).toHaveLength(8)
    expect(money.sum(after.map((r) => r.debit_amount))).toBe(money.sum(after.map((r) => r.credit_amount)))
    expect((await sql<{ n: number }>`select count(*)::int as n from receipt_voucher where invoice_no = ${made.body.invoice_no}`.execute(db)).rows[0]!.n).toBe(0)
  })

  it('writes nothing when the posting fails: without a Cash ledger no donation, user, ledger, voucher or ledger row is left, and no number is used', async () => {
    const db = t.current.db
    const cause = await createCause(t.current, 'Clean Water', '100.00')
    const before = await snapshot(db)
    const counter = await receiptCounter(db)
    const refused = await withoutCash(db, async () => {
      const donation = await t.current.call({ method: 'POST', url: `${DONATION}/create/`, payload: { amount: '75.00', first_name: 'New', last_name: 'Donor', email: 'never.saved@example.com' }, headers: { 'accept-language': 'tr' } })
      const causeDonation = await t.current.call({ method: 'POST', url: `${CAUSE_DONATION}/create/`, payload: { cause: cause.id, amount: '75.00' } })
      return { donation, causeDonation }
    })
    expect(refused.donation.status).toBe(400)
    expect(refused.donation.body).toEqual({ detail: messageFor('tr', { key: 'detail.seeded_ledger_missing', params: { name: 'Cash' } }) })
    expect(refused.causeDonation.status).toBe(400)
    expect(refused.causeDonation.body).toEqual({ detail: "The ledger 'Cash' of the chart of accounts is missing: restore it and try again." })
    expect(await snapshot(db)).toEqual(before)
    expect((await t.current.call({ method: 'GET', url: `${CAUSE}/${cause.id}` })).body.raised_amount).toBe('0.00')

    // A bad amount is refused before anything is written.
    for (const amount of ['abc', '-5.00', '0', '1.234']) {
      const res = await t.current.call({ method: 'POST', url: `${CAUSE_DONATION}/create/`, payload: { cause: cause.id, amount } })
      expect(res.status, amount).toBe(400)
      expect(Object.keys(res.body), amount).toEqual(['amount'])
    }
    const unknownCause = await t.current.call({ method: 'POST', url: `${CAUSE_DONATION}/create/`, payload: { cause: 999999999, amount: '5.00' } })
    expect(unknownCause.status).toBe(400)
    expect(Object.keys(unknownCause.body)).toEqual(['cause'])
    expect(await snapshot(db)).toEqual(before)

    // The receipt numbers the refused writes took were given back (the numbering stays gapless).
    expect(await receiptCounter(db)).toBe(counter)
  })

  it('gives back a changed or removed cause donation: raised_amount follows and the receipt is reversed (and posted again when changed)', async () => {
    const db = t.current.db
    const cause = await createCause(t.current, 'Winter Clothes', '2000.00')
    const gift = await giveToCause(t.current, cause.id, '300.00')
    const changed = await t.current.call({ method: 'PATCH', url: `${CAUSE_DONATION}/update/${gift.id}`, payload: { amount: '250.00' } })
    expect(changed.status, changed.raw).toBe(200)
    expect(changed.body.invoice_no).toBe(gift.invoice_no)
    expect((await t.current.call({ method: 'GET', url: `${CAUSE}/${cause.id}` })).body.raised_amount).toBe('250.00')
    const rows = await rowsOf(db, [gift.invoice_no])
    expect(rows.map((r) => [r.debit_amount, r.credit_amount, r.reverses])).toEqual([
      ['300.00', '0.00', null],
      ['0.00', '300.00', null],
      ['0.00', '300.00', -1],
      ['300.00', '0.00', -1],
      ['250.00', '0.00', null],
      ['0.00', '250.00', null],
    ])
    const removed = await t.current.call({ method: 'DELETE', url: `${CAUSE_DONATION}/delete/${gift.id}` })
    expect(removed.status, removed.raw).toBe(200)
    expect((await t.current.call({ method: 'GET', url: `${CAUSE}/${cause.id}` })).body.raised_amount).toBe('0.00')
    const after = await rowsOf(db, [gift.invoice_no])
    expect(money.sum(after.map((r) => r.debit_amount))).toBe(money.sum(after.map((r) => r.credit_amount)))
    expect(after).toHaveLength(8)
    expect(await count(db, 'receipt_voucher')).toBe(Number((await sql<{ n: number }>`select count(*)::int as n from receipt_voucher where invoice_no <> ${gift.invoice_no}`.execute(db)).rows[0]!.n))
    // A cause others gave to is not deleted from under them.
    await giveToCause(t.current, cause.id, '10.00')
    const refused = await t.current.call({ method: 'DELETE', url: `${CAUSE}/delete/${cause.id}` })
    expect(refused.status).toBe(409)
  })

  it("re-posts a cause's sales entry when its goal changes, cancels it when the cause is deleted, and posts none for a goal of zero", async () => {
    const db = t.current.db
    const cause = await createCause(t.current, 'Library', '800.00')
    const raised = await t.current.call({ method: 'PATCH', url: `${CAUSE}/update/${cause.id}`, payload: { goal_amount: '900.00', raised_amount: '5000.00' } })
    expect(raised.status, raised.raw).toBe(200)
    // Raised is the server's: a client's value is ignored.
    expect(raised.body).toMatchObject({ goal_amount: '900.00', raised_amount: '0.00', sales_invoice_no: cause.sales_invoice_no })
    const standing = async () =>
      (await sql<{ debit_amount: string }>`select a.debit_amount from account_log a where a.reference_no = ${cause.sales_invoice_no!} and a.reverses is null and not exists (select 1 from account_log r where r.reverses = a.id) order by a.id`.execute(db)).rows.map((r) => r.debit_amount)
    expect(await standing()).toEqual(['900.00', '0.00'])
    expect((await t.current.call({ method: 'DELETE', url: `${CAUSE}/delete/${cause.id}` })).status).toBe(200)
    expect(await standing()).toEqual([])
    expect(await count(db, 'sales')).toBe(Number((await sql<{ n: number }>`select count(*)::int as n from sales where invoice_no <> ${cause.sales_invoice_no!}`.execute(db)).rows[0]!.n))

    const free = await createCause(t.current, 'Open Day', '0')
    expect(free.sales_invoice_no).toBeNull()
    expect(await ledgerOf(db, 'cause_ledger', free.id)).toHaveLength(1)
  })

  it("reads a cause's contents and images at once and by the contract's paths; an unknown cause is a 404", async () => {
    const cause = await createCause(t.current, 'Health Camp', '100.00')
    const content = await t.current.call({ method: 'POST', url: '/cause_content/api/v1/cause_content/create/', payload: { cause: cause.id, name: 'Where', value: 'Sunamganj' } })
    expect(content.status, content.raw).toBe(201)
    // The picture is uploaded with it (a file field takes nothing else).
    const image = await t.current.call({ method: 'POST', url: '/cause_content_image/api/v1/cause_content_image/create/', ...requestOf(registry.cause_content_image, { cause: cause.id, head: 'The camp', image: 'camp.png' }) })
    expect(image.status, image.raw).toBe(201)
    const page = await t.current.call({ method: 'GET', url: `${CAUSE}/get_all_content_and_image_by_cause_id/${cause.id}` })
    expect(page.status, page.raw).toBe(200)
    expect(page.body.cause_contents.map((c: { id: number }) => c.id)).toEqual([content.body.id])
    expect(page.body.content_images.map((c: { id: number }) => c.id)).toEqual([image.body.id])
    const contents = await t.current.call({ method: 'GET', url: `/cause_content/api/v1/get_all_cause_content_by_cause_id/${cause.id}` })
    expect(contents.body).toEqual({ cause_contents: [expect.objectContaining({ id: content.body.id, name: 'Where', value: 'Sunamganj' })] })
    const images = await t.current.call({ method: 'GET', url: `/cause_content_image/api/v1/get_all_cause_content_image_by_cause_id/${cause.id}` })
    expect(images.body.content_images).toEqual(images.body.cause_content_images)
    expect(images.body.content_images.map((c: { head: string }) => c.head)).toEqual(['The camp'])
    const all = await t.current.call({ method: 'GET', url: '/cause_content_image/api/v1/cause_content_image/all/' })
    expect(all.body.content_images).toEqual(all.body.cause_content_images)
    for (const url of [`${CAUSE}/get_all_content_and_image_by_cause_id/999999999`, '/cause_content/api/v1/get_all_cause_content_by_cause_id/999999999']) {
      expect((await t.current.call({ method: 'GET', url })).status, url).toBe(404)
    }
  })

  it('has the payment methods bkash, rocket and nogod, listed under both of their keys', async () => {
    const res = await t.current.call({ method: 'GET', url: '/payment_method/api/v1/payment_method/all/?size=100' })
    expect(res.status).toBe(200)
    expect(res.body.paymentmethods).toEqual(res.body.payment_methods)
    expect(res.body.paymentmethods.map((m: { name: string }) => m.name)).toEqual(expect.arrayContaining(['bkash', 'rocket', 'nogod']))
    const made = await t.current.call({ method: 'POST', url: '/payment_method/api/v1/payment_method/create/', payload: { name: 'Bank Card' } })
    expect(made.body.name).toBe('bank_card')
  })
})
