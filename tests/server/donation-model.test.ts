import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { registry } from '../../schema'
import { money } from '../../schema/kit'
import type { Db } from '../../server/db/types'
import { giveLedgersToPaymentMethods } from '../../server/domain/membership/payment-methods'
import { messageFor } from '../../server/i18n'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { ledgerUnder, seededLedger } from './helpers/ledgers'

/**
 * One donation model a desk can trust (issue 20). A donation names its donor — a member, a
 * person by name and e-mail, or nobody (anonymous) — optionally its cause, and its payment
 * method: its receipt debits the payment method's cash or bank ledger and credits the donor's
 * ledger, never the signed-in clerk's (golden postings: every ledger row asserted); naming a
 * cause raises it in the same transaction, and a change, a move to another cause or a delete
 * gives back what it took — through the donation routes and the cause donation routes alike,
 * a cause donation being a donation seen from its cause.
 */
const DONATION = registry.donation.api.base
const CAUSE_DONATION = registry.cause_donation.api.base
const CAUSE = registry.cause.api.base
const PAYMENT_METHOD = registry.payment_method.api.base

const today = () => new Date().toISOString().slice(0, 10)

type Posted = { ledger: number; debit_amount: string; credit_amount: string; log_type: string; log_date: string; reverses: number | null }

/** Every general-ledger row of a receipt, in the order written (`reverses` -1 for a reversing row). */
async function rowsOf(db: Db, invoice: string): Promise<Posted[]> {
  const r = await sql<Posted>`select ledger, debit_amount, credit_amount, log_type, log_date, reverses from account_log where reference_no = ${invoice} order by id`.execute(db)
  return r.rows.map((row) => ({ ...row, ledger: Number(row.ledger), reverses: row.reverses === null ? null : -1 }))
}
const row = (ledger: number, debit: string, credit: string, reverses: number | null = null): Posted => ({ ledger, debit_amount: debit, credit_amount: credit, log_type: 'receipt_voucher', log_date: today(), reverses })

const ledgerOf = async (db: Db, type: string, referenceId: number): Promise<number[]> =>
  (await sql<{ id: number }>`select id from ledger_account where ledger_type = ${type} and reference_id = ${String(referenceId)} order by id`.execute(db)).rows.map((r) => Number(r.id))

const groupOf = async (db: Db, ledger: number): Promise<string> =>
  (await sql<{ name: string }>`select g.name from ledger_account l join "group" g on g.id = l.head_group where l.id = ${ledger}`.execute(db)).rows[0]!.name

async function made(t: TestApp, url: string, payload: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await t.call({ method: 'POST', url, payload })
  expect(res.status, res.raw).toBe(201)
  return res.body
}

const methodNamed = async (t: TestApp, name: string): Promise<{ id: number; ledger: number }> => {
  const found = (await t.call({ method: 'GET', url: `${PAYMENT_METHOD}/search/?name=${name}` })).body.paymentmethods.find((m: { name: string }) => m.name === name)
  return { id: found.id, ledger: found.ledger?.id ?? found.ledger }
}

const raisedOf = async (t: TestApp, cause: number): Promise<string> => (await t.call({ method: 'GET', url: `${CAUSE}/${cause}` })).body.raised_amount

/** Every cause's raised amount is the sum of the donations that name it. */
async function expectRaisedConsistent(db: Db): Promise<void> {
  const off = await sql<{ id: number }>`
    select c.id from cause c where c.raised_amount <> coalesce((select sum(d.amount) from donation d where d.cause = c.id), 0)`.execute(db)
  expect(off.rows).toEqual([])
}

let members = 0
async function member(t: TestApp, first: string, last: string): Promise<{ id: number; username: string; email: string }> {
  const username = `donor${++members}${Date.now().toString(36)}`
  return made(t, `${registry.member.api.base}/create/`, { first_name: first, last_name: last, username, email: `${username}@example.com`, password: 'secret123' }) as never
}

describeEachDatabase('one donation model', (t) => {
  it("posts a member's donation as exactly Dr the payment method's ledger, Cr the member's own ledger, naming the member", async () => {
    const db = t.current.db
    const karim = await member(t.current, 'Karim', 'Uddin')
    const cash = await methodNamed(t.current, 'cash')
    expect(cash.ledger).toBe(await seededLedger(db, 'Cash'))
    const gift = await made(t.current, `${DONATION}/create/`, { donor: karim.id, amount: '150.00', payment_method: cash.id })
    // The member's names and e-mail fill the blank ones: the list says who gave.
    expect(gift).toMatchObject({ donor: karim.id, is_anonymous: false, first_name: 'Karim', last_name: 'Uddin', email: karim.email, cause: null })
    const [memberLedger] = await ledgerOf(db, 'member_ledger', karim.id)
    expect(await rowsOf(db, gift.invoice_no)).toEqual([row(cash.ledger, '150.00', '0.00'), row(memberLedger!, '0.00', '150.00')])
    // Not the clerk's ledger, and no user ledger made for the member beside their own.
    expect(await ledgerOf(db, 'user_ledger', t.current.adminId)).toEqual([])
    expect(await ledgerOf(db, 'user_ledger', karim.id)).toEqual([])
  })

  it("posts an anonymous bkash donation as exactly Dr bkash's own ledger, Cr the anonymous donors' ledger, made once", async () => {
    const db = t.current.db
    const bkash = await methodNamed(t.current, 'bkash')
    // Seeded with a ledger of its own under Bank Accounts: money that can be received into.
    expect(await groupOf(db, bkash.ledger)).toBe('Bank Accounts')
    expect((await sql<{ name: string }>`select name from ledger_account where id = ${bkash.ledger}`.execute(db)).rows[0]!.name).toBe('Bkash Account')
    const first = await made(t.current, `${DONATION}/create/`, { is_anonymous: true, amount: '40.00', payment_method: bkash.id })
    const second = await made(t.current, `${DONATION}/create/`, { is_anonymous: true, amount: '2.50', payment_method: bkash.id })
    expect(first).toMatchObject({ is_anonymous: true, donor: null, first_name: null, email: null })
    const anonymous = await ledgerOf(db, 'anonymous_donors', 0)
    expect(anonymous).toHaveLength(1)
    expect(await groupOf(db, anonymous[0]!)).toBe('Sundry Creditors')
    expect(await rowsOf(db, first.invoice_no)).toEqual([row(bkash.ledger, '40.00', '0.00'), row(anonymous[0]!, '0.00', '40.00')])
    expect(await rowsOf(db, second.invoice_no)).toEqual([row(bkash.ledger, '2.50', '0.00'), row(anonymous[0]!, '0.00', '2.50')])
    expect(await ledgerOf(db, 'user_ledger', t.current.adminId)).toEqual([])
  })

  it("moves the receipt with its donation: another member, another payment method, anonymous — reversed and posted again, every row asserted", async () => {
    const db = t.current.db
    const [rina, sadia] = [await member(t.current, 'Rina', 'Akter'), await member(t.current, 'Sadia', 'Islam')]
    const [cash, rocket] = [await methodNamed(t.current, 'cash'), await methodNamed(t.current, 'rocket')]
    const gift = await made(t.current, `${DONATION}/create/`, { donor: rina.id, amount: '80.00', payment_method: cash.id })
    // The form sends the record back with the names it showed: they follow the new member.
    const moved = await t.current.call({ method: 'PUT', url: `${DONATION}/update/${gift.id}`, payload: { ...gift, donor: sadia.id, payment_method: rocket.id } })
    expect(moved.status, moved.raw).toBe(200)
    expect(moved.body).toMatchObject({ donor: sadia.id, first_name: 'Sadia', last_name: 'Islam', email: sadia.email, invoice_no: gift.invoice_no })
    const anonymous = await t.current.call({ method: 'PATCH', url: `${DONATION}/update/${gift.id}`, payload: { donor: null, is_anonymous: true, first_name: null, last_name: null, email: null } })
    expect(anonymous.status, anonymous.raw).toBe(200)
    const [rinaLedger, sadiaLedger, anonymousLedger] = [(await ledgerOf(db, 'member_ledger', rina.id))[0]!, (await ledgerOf(db, 'member_ledger', sadia.id))[0]!, (await ledgerOf(db, 'anonymous_donors', 0))[0]!]
    expect(await rowsOf(db, gift.invoice_no)).toEqual([
      row(cash.ledger, '80.00', '0.00'),
      row(rinaLedger, '0.00', '80.00'),
      row(cash.ledger, '0.00', '80.00', -1),
      row(rinaLedger, '80.00', '0.00', -1),
      row(rocket.ledger, '80.00', '0.00'),
      row(sadiaLedger, '0.00', '80.00'),
      row(rocket.ledger, '0.00', '80.00', -1),
      row(sadiaLedger, '80.00', '0.00', -1),
      row(rocket.ledger, '80.00', '0.00'),
      row(anonymousLedger, '0.00', '80.00'),
    ])
  })

  it('raises the cause a donation names, and follows every change, move and delete in the same transaction', async () => {
    const db = t.current.db
    const [flood, school] = [await made(t.current, `${CAUSE}/create/`, { name: 'Flood Shelter', goal_amount: '5000.00' }), await made(t.current, `${CAUSE}/create/`, { name: 'School Books', goal_amount: '800.00' })]
    const gift = await made(t.current, `${DONATION}/create/`, { cause: flood.id, amount: '100.00', first_name: 'Nadia', last_name: 'Rahman', email: 'nadia.model@example.com' })
    expect(gift.ref_invoice_no).toBe(flood.sales_invoice_no)
    expect(await raisedOf(t.current, flood.id)).toBe('100.00')
    // The same donation, seen from its cause, under the same id.
    const seen = await t.current.call({ method: 'GET', url: `${CAUSE_DONATION}/${gift.id}` })
    expect(seen.status, seen.raw).toBe(200)
    expect(seen.body).toMatchObject({ id: gift.id, cause: flood.id, amount: '100.00', first_name: 'Nadia', invoice_no: gift.invoice_no })

    const steps: Array<{ what: string; payload: Record<string, unknown>; flood: string; school: string; isCauseDonation: boolean }> = [
      { what: 'a new amount', payload: { amount: '120.50' }, flood: '120.50', school: '0.00', isCauseDonation: true },
      { what: 'another cause', payload: { cause: school.id }, flood: '0.00', school: '120.50', isCauseDonation: true },
      { what: 'another cause and amount at once', payload: { cause: flood.id, amount: '99.99' }, flood: '99.99', school: '0.00', isCauseDonation: true },
      { what: 'no cause', payload: { cause: null }, flood: '0.00', school: '0.00', isCauseDonation: false },
      { what: 'a cause again', payload: { cause: school.id }, flood: '0.00', school: '99.99', isCauseDonation: true },
    ]
    for (const step of steps) {
      const res = await t.current.call({ method: 'PATCH', url: `${DONATION}/update/${gift.id}`, payload: step.payload })
      expect(res.status, `${step.what}: ${res.raw}`).toBe(200)
      expect([await raisedOf(t.current, flood.id), await raisedOf(t.current, school.id)], step.what).toEqual([step.flood, step.school])
      expect((await t.current.call({ method: 'GET', url: `${CAUSE_DONATION}/${gift.id}` })).status, step.what).toBe(step.isCauseDonation ? 200 : 404)
      await expectRaisedConsistent(db)
    }
    expect((await t.current.call({ method: 'DELETE', url: `${DONATION}/delete/${gift.id}` })).status).toBe(200)
    expect([await raisedOf(t.current, flood.id), await raisedOf(t.current, school.id)]).toEqual(['0.00', '0.00'])
    expect((await sql`select 1 from cause_donation where id = ${gift.id}`.execute(db)).rows).toEqual([])
    await expectRaisedConsistent(db)
  })

  it('keeps the raised amount when the write is refused: a payment method without a ledger writes nothing, the cause untouched', async () => {
    const db = t.current.db
    const cause = await made(t.current, `${CAUSE}/create/`, { name: 'Winter Blankets', goal_amount: '300.00' })
    const wallet = await made(t.current, `${PAYMENT_METHOD}/create/`, { name: 'Upay', type: 'mobile' })
    // Cleared behind the server's back (an earlier database): the donation cannot say where its money went.
    await sql`update payment_method set ledger = null where id = ${wallet.id}`.execute(db)
    const before = Number((await sql<{ n: number }>`select count(*)::int as n from donation`.execute(db)).rows[0]!.n)
    for (const lang of ['en', 'tr'] as const) {
      const res = await t.current.call({ method: 'POST', url: `${DONATION}/create/`, payload: { cause: cause.id, amount: '50.00', is_anonymous: true, payment_method: wallet.id }, headers: { 'accept-language': lang } })
      expect(res.status, res.raw).toBe(400)
      expect(res.body).toEqual({ detail: messageFor(lang, { key: 'detail.payment_method_ledger_missing', params: { name: 'upay' } }) })
    }
    expect(await raisedOf(t.current, cause.id)).toBe('0.00')
    expect(Number((await sql<{ n: number }>`select count(*)::int as n from donation`.execute(db)).rows[0]!.n)).toBe(before)
    // A change refused the same way gives nothing back either.
    const gift = await made(t.current, `${DONATION}/create/`, { cause: cause.id, amount: '30.00', is_anonymous: true })
    const refused = await t.current.call({ method: 'PATCH', url: `${DONATION}/update/${gift.id}`, payload: { amount: '45.00', payment_method: wallet.id } })
    expect(refused.status, refused.raw).toBe(400)
    expect(await raisedOf(t.current, cause.id)).toBe('30.00')
    await expectRaisedConsistent(db)
  })

  it('loses nothing when donations move between two causes in opposite directions at once', async () => {
    const db = t.current.db
    const [a, b] = [await made(t.current, `${CAUSE}/create/`, { name: 'Clinic A', goal_amount: '0' }), await made(t.current, `${CAUSE}/create/`, { name: 'Clinic B', goal_amount: '0' })]
    const gifts = await Promise.all(
      Array.from({ length: 16 }, (_, i) => made(t.current, `${CAUSE_DONATION}/create/`, { cause: i % 2 === 0 ? a.id : b.id, amount: `${i + 1}.25` })),
    )
    const moves = await Promise.all(gifts.map((g) => t.current.call({ method: 'PATCH', url: `${CAUSE_DONATION}/update/${g.id}`, payload: { cause: g.cause === a.id ? b.id : a.id } })))
    for (const res of moves) expect(res.status, res.raw).toBe(200)
    const sumOf = (cause: number) => money.sum(gifts.filter((g) => g.cause !== cause).map((g) => g.amount as string))
    expect([await raisedOf(t.current, a.id), await raisedOf(t.current, b.id)]).toEqual([sumOf(a.id), sumOf(b.id)])
    await expectRaisedConsistent(db)
  })

  it("takes the contract's cause donation {cause, amount} as an anonymous gift, and one naming a member as the member's", async () => {
    const db = t.current.db
    const cause = await made(t.current, `${CAUSE}/create/`, { name: 'Orphanage Roof', goal_amount: '1000.00' })
    const karim = await member(t.current, 'Karim', 'Mia')
    const anonymous = await made(t.current, `${CAUSE_DONATION}/create/`, { cause: cause.id, amount: '25.00' })
    expect(anonymous).toMatchObject({ is_anonymous: true, donor: null, cause: cause.id, ref_invoice_no: cause.sales_invoice_no })
    const named = await made(t.current, `${CAUSE_DONATION}/create/`, { cause: cause.id, amount: '75.00', donor: karim.id })
    expect(named).toMatchObject({ is_anonymous: false, donor: karim.id, first_name: 'Karim' })
    const cash = await seededLedger(db, 'Cash')
    expect(await rowsOf(db, anonymous.invoice_no)).toEqual([row(cash, '25.00', '0.00'), row((await ledgerOf(db, 'anonymous_donors', 0))[0]!, '0.00', '25.00')])
    expect(await rowsOf(db, named.invoice_no)).toEqual([row(cash, '75.00', '0.00'), row((await ledgerOf(db, 'member_ledger', karim.id))[0]!, '0.00', '75.00')])
    expect(await raisedOf(t.current, cause.id)).toBe('100.00')
    // Both are donations: the donations list shows them, raising the same cause.
    const listed = await t.current.call({ method: 'GET', url: `${DONATION}/search/?cause=${cause.id}` })
    expect(listed.body.donations.map((d: { id: number }) => d.id).sort()).toEqual([anonymous.id, named.id].sort())
    const seen = await t.current.call({ method: 'GET', url: `${CAUSE_DONATION}/search/?cause=${cause.id}` })
    expect(seen.body.cause_donations.map((d: { id: number }) => d.id).sort()).toEqual([anonymous.id, named.id].sort())
    // A cause donation must name its cause.
    const causeless = await t.current.call({ method: 'POST', url: `${CAUSE_DONATION}/create/`, payload: { amount: '5.00' } })
    expect(causeless.status).toBe(400)
    expect(Object.keys(causeless.body)).toEqual(['cause'])
  })

  it('asks a donation to name its donor once: a member, a person, or anonymous — nothing both ways', async () => {
    const karim = await member(t.current, 'Karim', 'Hossain')
    const cases: Array<{ what: string; payload: Record<string, unknown>; errors: string[] }> = [
      { what: 'nobody named', payload: { amount: '5.00' }, errors: ['email', 'first_name', 'last_name'] },
      { what: 'a member and anonymous', payload: { amount: '5.00', donor: karim.id, is_anonymous: true }, errors: ['is_anonymous'] },
      { what: 'anonymous with a name', payload: { amount: '5.00', is_anonymous: true, first_name: 'Secret', last_name: 'Giver', email: 'secret@example.com' }, errors: ['is_anonymous'] },
    ]
    for (const c of cases) {
      const res = await t.current.call({ method: 'POST', url: `${DONATION}/create/`, payload: c.payload })
      expect(res.status, c.what).toBe(400)
      expect(Object.keys(res.body).sort(), c.what).toEqual(c.errors)
    }
    const nobody = await t.current.call({ method: 'POST', url: `${DONATION}/create/`, payload: { amount: '5.00' } })
    expect(nobody.body.email).toEqual(['Email is required'])
    const both = await t.current.call({ method: 'POST', url: `${DONATION}/create/`, payload: { amount: '5.00', donor: karim.id, is_anonymous: true } })
    expect(both.body.is_anonymous).toEqual([messageFor('en', { key: 'validation.anonymous_with_donor' })])
  })

  it('gives every payment method the cash or bank ledger it is received into, and refuses one that holds no money', async () => {
    const db = t.current.db
    const card = await made(t.current, `${PAYMENT_METHOD}/create/`, { name: 'Bank Card' })
    expect(card.name).toBe('bank_card')
    expect(await groupOf(db, card.ledger)).toBe('Bank Accounts')
    expect((await sql<{ name: string }>`select name from ledger_account where id = ${card.ledger}`.execute(db)).rows[0]!.name).toBe('Bank Card Account')
    const bank = await seededLedger(db, 'Bank')
    const chosen = await made(t.current, `${PAYMENT_METHOD}/create/`, { name: 'Cheque', ledger: bank })
    expect(chosen.ledger).toBe(bank)
    const rent = await ledgerUnder(db, 'Rent Model', 'Indirect Expenses')
    const refused = await t.current.call({ method: 'POST', url: `${PAYMENT_METHOD}/create/`, payload: { name: 'Voucher Book', ledger: rent } })
    expect(refused.status, refused.raw).toBe(400)
    expect(refused.body).toEqual({ ledger: [messageFor('en', { key: 'validation.cash_bank_ledger' })] })
    // A method whose ledger was cleared gets one again at the next write, or at the next start (a database from before methods named one).
    await sql`update payment_method set ledger = null where id = ${card.id}`.execute(db)
    const again = await t.current.call({ method: 'PATCH', url: `${PAYMENT_METHOD}/update/${card.id}`, payload: { type: 'card' } })
    expect(again.body.ledger).toBe(card.ledger)
    const [cash, bkash] = [await methodNamed(t.current, 'cash'), await methodNamed(t.current, 'bkash')]
    await sql`update payment_method set ledger = null where id = any(${[cash.id, bkash.id, card.id]}::bigint[])`.execute(db)
    await giveLedgersToPaymentMethods({ db, registry: t.current.app.engine.registry, hooks: t.current.app.engine.hooks })
    expect([(await methodNamed(t.current, 'cash')).ledger, (await methodNamed(t.current, 'bkash')).ledger, (await methodNamed(t.current, 'bank_card')).ledger]).toEqual([cash.ledger, bkash.ledger, card.ledger])
  })
})
