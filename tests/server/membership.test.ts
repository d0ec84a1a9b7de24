import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { registry } from '../../schema'
import { signToken } from '../../server/auth/tokens'
import type { Db } from '../../server/db/types'
import { describeEachDatabase, JWT_SECRET, type TestApp } from './helpers/app'
import { seededLedger } from './helpers/ledgers'

/**
 * Members and their subscriptions (issue 12, api-contract §4.5): a member's ledger made with
 * them, the member kinds' lists under the key the spec's screens read, and subscriptions for
 * many members written and posted as receipts all together — or, when one is refused, not at all.
 */
const MEMBER = registry.member.api.base
const SUBSCRIPTION = registry.monthly_subscription.api.base
const today = () => new Date().toISOString().slice(0, 10)

/** How many receipt numbers today's counter has given (invoice numbering: a rolled-back write gives its number back). */
const receiptCounter = async (db: Db): Promise<number> =>
  Number((await sql<{ n: number }>`select last_no as n from invoice_counter where prefix = 'RV' and day = ${today()}::date`.execute(db)).rows[0]?.n ?? 0)

let sequence = 0
async function createMember(t: TestApp, first = 'Karim'): Promise<{ id: number; username: string }> {
  const n = ++sequence
  const res = await t.call({
    method: 'POST',
    url: `${MEMBER}/create/`,
    payload: { first_name: first, last_name: 'Uddin', username: `member${n}`, email: `member${n}@example.com`, password: 'secret123', village: 'Baniachong', profession: 'Farmer' },
  })
  expect(res.status, res.raw).toBe(201)
  return res.body
}

const memberLedger = async (db: Db, id: number) =>
  (await sql<{ id: number; name: string; group: string }>`
    select l.id, l.name, g.name as group from ledger_account l join "group" g on g.id = l.head_group
    where l.ledger_type = 'member_ledger' and l.reference_id = ${String(id)}`.execute(db)).rows

const counts = async (db: Db) => {
  const n = async (table: string) => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.id(table)}`.execute(db)).rows[0]!.n)
  return { subscriptions: await n('monthly_subscription'), logs: await n('account_log'), receipts: await n('receipt_voucher'), audits: await n('audit_log') }
}

describeEachDatabase('membership', (t) => {
  it("makes a member's ledger under Sundry Creditors with the member, named after the username", async () => {
    const member = await createMember(t.current)
    // Ledger names are kept capitalised (the chart's rule).
    expect(await memberLedger(t.current.db, member.id)).toEqual([{ id: expect.any(Number), name: `M${member.username.slice(1)}`, group: 'Sundry Creditors' }])
    // The contract's search fields; a search without matches is an empty page.
    const found = await t.current.call({ method: 'GET', url: `${MEMBER}/search/?username=${member.username}` })
    expect(found.body.members.map((m: { id: number }) => m.id)).toEqual([member.id])
    const none = await t.current.call({ method: 'GET', url: `${MEMBER}/search/?first_name=nobody-is-called-this` })
    expect(none.status).toBe(200)
    expect(none.body).toMatchObject({ members: [], total_elements: 0 })
  })

  it('refuses a member without the Sundry Creditors group, writing nothing', async () => {
    const db = t.current.db
    await sql`update "group" set name = 'Sundry Creditors (away)' where name = 'Sundry Creditors'`.execute(db)
    try {
      const before = Number((await sql<{ n: number }>`select count(*)::int as n from "user"`.execute(db)).rows[0]!.n)
      const res = await t.current.call({ method: 'POST', url: `${MEMBER}/create/`, payload: { first_name: 'No', last_name: 'Group', username: 'nogroup', email: 'nogroup@example.com', password: 'secret123' } })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ detail: "Please insert a 'Sundry Creditors' data in the Group table and then try again" })
      expect(Number((await sql<{ n: number }>`select count(*)::int as n from "user"`.execute(db)).rows[0]!.n)).toBe(before)
    } finally {
      await sql`update "group" set name = 'Sundry Creditors' where name = 'Sundry Creditors (away)'`.execute(db)
    }
  })

  it('lists executive, adviser and general members under their own key and under members, and keeps a member named in one', async () => {
    const member = await createMember(t.current, 'Selina')
    for (const kind of ['executive_member', 'adviser_member', 'general_member'] as const) {
      const entity = registry[kind]
      const made = await t.current.call({ method: 'POST', url: `${entity.api.base}/create/`, payload: { member: member.id, designation: 'Treasurer', note: 'Since 2020' } })
      expect(made.status, made.raw).toBe(201)
      const list = await t.current.call({ method: 'GET', url: `${entity.api.base}/all/?page=1&size=30` })
      expect(list.status).toBe(200)
      expect(list.body.members).toEqual(list.body[entity.listKey])
      expect(list.body).toMatchObject({ page: 1, size: 30, total_elements: 1 })
      expect(list.body.members[0]).toMatchObject({ id: made.body.id, member: { id: member.id, name: member.username }, designation: 'Treasurer' })
      // One of each kind per member.
      const twice = await t.current.call({ method: 'POST', url: `${entity.api.base}/create/`, payload: { member: member.id } })
      expect(twice.status).toBe(400)
      expect(Object.keys(twice.body)).toEqual(['member'])
    }
    const unpaged = await t.current.call({ method: 'GET', url: `${registry.executive_member.api.base}/without_pagination/` })
    expect(unpaged.status).toBe(200)
    expect(unpaged.body.members).toHaveLength(1)
    expect(unpaged.body.executive_members).toEqual(unpaged.body.members)
    const refused = await t.current.call({ method: 'DELETE', url: `${MEMBER}/delete/${member.id}` })
    expect(refused.status).toBe(409)
  })

  it('writes a subscription for each of three members in one create, each posted as a receipt (Dr Cash, Cr the member)', async () => {
    const db = t.current.db
    const members = [await createMember(t.current), await createMember(t.current), await createMember(t.current)]
    const started = Date.now()
    const res = await t.current.call({ method: 'POST', url: `${SUBSCRIPTION}/create/`, payload: { members: members.map((m) => m.id), amount: '150.00', note: 'November' } })
    expect(res.status, res.raw).toBe(201)
    const rows = res.body.monthly_subscriptions as Array<{ id: number; member: number; amount: string; note: string; invoice_no: string; subscription_date: string }>
    expect(rows.map((r) => [r.member, r.amount, r.note])).toEqual(members.map((m) => [m.id, '150.00', 'November']))
    for (const r of rows) expect(Date.parse(r.subscription_date)).toBeGreaterThanOrEqual(started - 1000)
    expect(new Set(rows.map((r) => r.invoice_no)).size).toBe(3)
    const cash = await seededLedger(db, 'Cash')
    for (const [i, r] of rows.entries()) {
      const [ledger] = await memberLedger(db, members[i]!.id)
      const logs = await sql<{ ledger: number; debit_amount: string; credit_amount: string; log_type: string; log_date: string }>`
        select ledger, debit_amount, credit_amount, log_type, log_date from account_log where reference_no = ${r.invoice_no} order by id`.execute(db)
      expect(logs.rows).toEqual([
        { ledger: cash, debit_amount: '150.00', credit_amount: '0.00', log_type: 'receipt_voucher', log_date: today() },
        { ledger: ledger!.id, debit_amount: '0.00', credit_amount: '150.00', log_type: 'receipt_voucher', log_date: today() },
      ])
      const receipt = await t.current.call({ method: 'GET', url: `/receipt_voucher/api/v1/receipt_voucher/receipt_voucher_by_invoice_no/${r.invoice_no}` })
      expect(receipt.body.items).toHaveLength(2)
    }
    // Listed by member, as the contract searches them.
    const byMember = await t.current.call({ method: 'GET', url: `${SUBSCRIPTION}/search/?member=${members[1]!.id}` })
    expect(byMember.body.monthly_subscriptions.map((r: { id: number }) => r.id)).toEqual([rows[1]!.id])
  })

  it('writes none of the subscriptions when one member id is bad, and uses no receipt number', async () => {
    const db = t.current.db
    const good = [await createMember(t.current), await createMember(t.current)]
    const before = await counts(db)
    const counter = await receiptCounter(db)
    for (const members of [[good[0]!.id, good[1]!.id, 999999999], [good[0]!.id, 'abc'], []]) {
      const res = await t.current.call({ method: 'POST', url: `${SUBSCRIPTION}/create/`, payload: { members, amount: '10.00' } })
      expect(res.status, res.raw).toBe(400)
      expect(Object.keys(res.body), JSON.stringify(members)).toEqual([members.length === 0 ? 'members' : `members.${members.length - 1}`])
    }
    // One `member`, as the generic form sends it: its refusal is on `member`.
    const single = await t.current.call({ method: 'POST', url: `${SUBSCRIPTION}/create/`, payload: { member: 999999999, amount: '10.00' } })
    expect(single.status).toBe(400)
    expect(Object.keys(single.body)).toEqual(['member'])
    const badAmount = await t.current.call({ method: 'POST', url: `${SUBSCRIPTION}/create/`, payload: { members: good.map((m) => m.id), amount: '-1' } })
    expect(badAmount.status).toBe(400)
    expect(Object.keys(badAmount.body)).toEqual(['amount'])
    expect(await counts(db)).toEqual(before)
    // The receipt numbers the refused creates took were given back (the numbering stays gapless).
    expect(await receiptCounter(db)).toBe(counter)
    // A valid single `member` answers the row, as the generic create does.
    const one = await t.current.call({ method: 'POST', url: `${SUBSCRIPTION}/create/`, payload: { member: good[0]!.id, amount: '12.50' } })
    expect(one.status, one.raw).toBe(201)
    expect(one.body).toMatchObject({ id: expect.any(Number), member: good[0]!.id, amount: '12.50', invoice_no: expect.stringMatching(/^RV/) })
  })

  it("lists a signed-in member's own subscriptions at get_all_by_member/, and cancels a deleted subscription's receipt", async () => {
    const [mine, other] = [await createMember(t.current), await createMember(t.current)]
    const made = await t.current.call({ method: 'POST', url: `${SUBSCRIPTION}/create/`, payload: { members: [mine.id, other.id], amount: '40.00' } })
    expect(made.status, made.raw).toBe(201)
    const own = await t.current.call({ method: 'GET', url: `${SUBSCRIPTION}/get_all_by_member/`, headers: { authorization: `Bearer ${await signToken(JWT_SECRET, mine.id)}` } })
    expect(own.status, own.raw).toBe(200)
    expect(own.body.monthly_subscriptions.map((r: { member: { id: number } }) => r.member.id)).toEqual([mine.id])
    expect((await t.current.call({ method: 'GET', url: `${SUBSCRIPTION}/get_all_by_member/`, asAnonymous: true })).status).toBe(401)

    const [first] = made.body.monthly_subscriptions as Array<{ id: number; invoice_no: string }>
    expect((await t.current.call({ method: 'DELETE', url: `${SUBSCRIPTION}/delete/${first!.id}` })).status).toBe(200)
    const net = await sql<{ debit: string; credit: string; n: number }>`
      select sum(debit_amount)::text as debit, sum(credit_amount)::text as credit, count(*)::int as n from account_log where reference_no = ${first!.invoice_no}`.execute(t.current.db)
    expect(net.rows[0]).toEqual({ debit: '80.00', credit: '80.00', n: 4 })
    expect((await sql<{ n: number }>`select count(*)::int as n from receipt_voucher where invoice_no = ${first!.invoice_no}`.execute(t.current.db)).rows[0]!.n).toBe(0)
  })
})
