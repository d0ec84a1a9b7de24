import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { entities, registry, reportRegistry } from '../../schema'
import { MONEY_MAX, money } from '../../schema/kit'
import { validatorOf } from '../../schema/kit/validators'
import type { Db } from '../../server/db/types'
import { postEntries } from '../../server/domain/accounting/posting'
import { ValidationError } from '../../server/engine/errors'
import { messageFor } from '../../server/i18n'
import { describeEachDatabase } from './helpers/app'
import { ledgerUnder, seededLedger } from './helpers/ledgers'
import { multipart } from './helpers/multipart'
import type { AnyEntity } from './helpers/samples'

/**
 * Money that each line allows but the sums do not (issue 19): amounts are bounded at a
 * business size on every write path (MONEY_MAX, 12 digits before the point: the field kit's
 * `f.money`, the voucher adapter, the membership routes, the posting service); sums are never
 * cast to a column's width, so a ledger holding rows from before the bound still reports; and a
 * number the database cannot hold is a 400 `{detail}`, never a 500.
 */
const DAY = '2026-05-20'
const ABOVE = money.sum([MONEY_MAX, '0.01'])
// Each fits numeric(20,2); two of them do not.
const LEGACY = '999999999999999999.99'
const { trial_balance: trialBalance, ledger_report: ledgerReport } = reportRegistry
const JOURNAL = registry.journal.api.base
const PAYMENT = registry.payment_voucher.api.base

const amountMessage = (entity: AnyEntity, field: string, lang: 'en' | 'tr' | 'ar' = 'en') =>
  messageFor(lang, { key: 'validation.max_amount', params: { label: entity.fieldLabelKey(field), max: MONEY_MAX, whole: 12 } })

const count = async (db: Db, table: string) => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.id(table)}`.execute(db)).rows[0]!.n)
const WATCHED = ['account_log', 'journal', 'payment_voucher', 'donation', 'cause', 'cause_donation', 'monthly_subscription', 'audit_log'] as const
const snapshot = async (db: Db) => Object.fromEntries(await Promise.all(WATCHED.map(async (table) => [table, await count(db, table)] as const)))

describe('the money bound of the field kit', () => {
  const moneyFields = (entities as readonly AnyEntity[]).flatMap((e) =>
    e.fieldNames.filter((n) => e.fields[n]!.kind === 'decimal' && e.fields[n]!.widget === 'money' && !e.fields[n]!.isVirtual).map((n) => [e, n] as const),
  )

  it('bounds every money field of the registry at 999,999,999,999.99, either sign, and takes the bound itself', () => {
    expect(MONEY_MAX).toBe('999999999999.99')
    expect(moneyFields.length).toBeGreaterThan(10)
    for (const [entity, name] of moneyFields) {
      const validator = validatorOf(entity.fields[name]!)
      expect(validator.safeParse(MONEY_MAX).data, `${entity.name}.${name}`).toBe(MONEY_MAX)
      for (const value of [ABOVE, LEGACY, '1e13']) {
        const parsed = validator.safeParse(value)
        expect(parsed.success, `${entity.name}.${name} ${value}`).toBe(false)
      }
      const parsed = validator.safeParse(ABOVE)
      expect(parsed.error?.issues[0]?.message, `${entity.name}.${name}`).toBe(entity.fields[name]!.messages?.max_amount ?? 'validation.max_amount')
    }
  })
})

describeEachDatabase('money bounds', (t) => {
  let db: Db
  let rent: number
  let vendor: number
  let cash: number

  beforeAll(async () => {
    db = t.current.db
    rent = await ledgerUnder(db, 'Bound Rent', 'Indirect Expenses')
    vendor = await ledgerUnder(db, 'Bound Vendor', 'Sundry Creditors')
    cash = await seededLedger(db, 'Cash')
  })

  const journal = (lines: Array<{ ledger: number; debit_amount?: string; credit_amount?: string }>, lang = 'en') =>
    t.current.call({ method: 'POST', url: `${JOURNAL}/create/`, payload: { journal_date: DAY, details: 'Bounds', items: lines }, headers: { 'accept-language': lang } })

  const payment = (lines: Array<{ ledger: number; debit_amount?: string; credit_amount?: string }>) => {
    const fields: Record<string, string> = { payment_date: DAY, details: 'Bounds' }
    lines.forEach((line, i) => {
      fields[`items[${i}][ledger]`] = String(line.ledger)
      fields[`items[${i}][debit_amount]`] = line.debit_amount ?? '0'
      fields[`items[${i}][credit_amount]`] = line.credit_amount ?? '0'
    })
    const body = multipart(fields)
    return t.current.call({ method: 'POST', url: `${PAYMENT}/create/`, payload: body.payload, headers: body.headers })
  }

  const tbLine = (body: { rows: Array<Record<string, string>> }, name: string) => body.rows.find((r) => r.ledger === name)

  it('gives a working trial balance, ledger report and voucher lists for two lines at the bound on one ledger (200, totals to the cent)', async () => {
    const twice = money.sum([MONEY_MAX, MONEY_MAX])
    const made = await journal([{ ledger: rent, debit_amount: MONEY_MAX }, { ledger: rent, debit_amount: MONEY_MAX }, { ledger: vendor, credit_amount: MONEY_MAX }, { ledger: vendor, credit_amount: MONEY_MAX }])
    expect(made.status, made.raw).toBe(201)
    const paid = await payment([{ ledger: rent, debit_amount: MONEY_MAX }, { ledger: rent, debit_amount: MONEY_MAX }, { ledger: cash, credit_amount: MONEY_MAX }, { ledger: cash, credit_amount: MONEY_MAX }])
    expect(paid.status, paid.raw).toBe(201)

    const tb = await t.current.call({ method: 'GET', url: `${trialBalance.api.base}/?date_after=${DAY}&date_before=${DAY}` })
    expect(tb.status, tb.raw).toBe(200)
    expect(tbLine(tb.body, 'Bound Rent')).toMatchObject({ debit_amount: money.sum([twice, twice]), credit_amount: '0.00', closing_debit: money.sum([twice, twice]) })
    expect(tbLine(tb.body, 'Bound Vendor')).toMatchObject({ credit_amount: twice, closing_credit: twice })
    expect(tb.body.totals.debit_amount).toBe(tb.body.totals.credit_amount)

    const report = await t.current.call({ method: 'GET', url: `${ledgerReport.api.base}/?ledger=${rent}&date_after=${DAY}&date_before=${DAY}` })
    expect(report.status, report.raw).toBe(200)
    expect(report.body.closing_balance).toBe(money.sum([twice, twice]))
    expect(report.body.rows.map((r: { balance: string }) => r.balance)).toEqual(['0.00', MONEY_MAX, twice, money.sum([twice, MONEY_MAX]), money.sum([twice, twice]), money.sum([twice, twice])])

    const journals = await t.current.call({ method: 'GET', url: `${JOURNAL}/all/` })
    expect(journals.status, journals.raw).toBe(200)
    expect(journals.body.journals.find((j: { invoice_no: string }) => j.invoice_no === made.body.journals[0].invoice_no)?.amount).toBe(twice)
    const payments = await t.current.call({ method: 'GET', url: `${PAYMENT}/search/?ledger=${cash}` })
    expect(payments.status, payments.raw).toBe(200)
    expect(payments.body.payment_vouchers[0].amount).toBe(twice)
  })

  it('still reports a ledger holding rows from before the bound, whose sums pass numeric(20,2) (the ledger is append-only: they stay)', async () => {
    const old = await ledgerUnder(db, 'Legacy Giant', 'Indirect Expenses')
    const other = await ledgerUnder(db, 'Legacy Other', 'Sundry Creditors')
    const day = '2026-05-21'
    await sql`
      insert into account_log (ledger, reference_no, log_type, debit_amount, credit_amount, log_date)
      values (${old}, 'LEGACY-1', 'journal', ${LEGACY}, 0, ${day}), (${old}, 'LEGACY-1', 'journal', ${LEGACY}, 0, ${day}),
        (${other}, 'LEGACY-1', 'journal', 0, ${LEGACY}, ${day}), (${other}, 'LEGACY-1', 'journal', 0, ${LEGACY}, ${day})`.execute(db)
    const sum = '1999999999999999999.98'

    const tb = await t.current.call({ method: 'GET', url: `${trialBalance.api.base}/?date_after=${day}&date_before=${day}` })
    expect(tb.status, tb.raw).toBe(200)
    expect(tbLine(tb.body, 'Legacy Giant')).toMatchObject({ opening_debit: '0.00', debit_amount: sum, credit_amount: '0.00', closing_debit: sum, closing_credit: '0.00' })
    expect(tbLine(tb.body, 'Legacy Other')).toMatchObject({ credit_amount: sum, closing_credit: sum })
    expect(tb.body.totals).toMatchObject({ debit_amount: sum, credit_amount: sum })
    // Brought forward into a later period too.
    const later = await t.current.call({ method: 'GET', url: `${trialBalance.api.base}/?date_after=2026-06-01` })
    expect(later.status, later.raw).toBe(200)
    expect(tbLine(later.body, 'Legacy Giant')).toMatchObject({ opening_debit: sum, closing_debit: sum })

    for (const url of [`${ledgerReport.api.base}/?ledger=${old}`, `${ledgerReport.api.base}/?ledger=${old}&date_after=2026-06-01`]) {
      const report = await t.current.call({ method: 'GET', url })
      expect(report.status, report.raw).toBe(200)
      expect(report.body.closing_balance).toBe(sum)
    }
    const statement = await t.current.call({ method: 'GET', url: `${ledgerReport.api.base}/?ledger=${old}&date_after=${day}` })
    expect(statement.body.rows.map((r: { balance: string }) => r.balance)).toEqual(['0.00', LEGACY, sum, sum])
    const contract = await t.current.call({ method: 'GET', url: `/account_log_report/api/v1/account_log_report/general/?ledger=${old}&date_after=2026-06-01` })
    expect(contract.status, contract.raw).toBe(200)
    expect(contract.body.previous_balance).toBe(sum)
  })

  it('refuses an amount above the bound on every write path that takes money: 400 naming the field, in the request\'s language, nothing written', async () => {
    const member = await t.current.createUser({ email: 'bound-member@example.com' })
    const cause = await t.current.call({ method: 'POST', url: `${registry.cause.api.base}/create/`, payload: { name: 'Bound cause', goal_amount: '100.00' } })
    expect(cause.status, cause.raw).toBe(201)
    const voucher = await journal([{ ledger: rent, debit_amount: '10.00' }, { ledger: vendor, credit_amount: '10.00' }])
    expect(voucher.status, voucher.raw).toBe(201)
    const invoice = voucher.body.journals[0].invoice_no as string
    const before = await snapshot(db)

    const payBody = multipart({ payment_date: DAY, 'items[0][ledger]': String(rent), 'items[0][debit_amount]': ABOVE, 'items[1][ledger]': String(cash), 'items[1][credit_amount]': ABOVE })
    const cases: Array<{ what: string; send: () => Promise<{ status: number; body: Record<string, string[]> }>; key: string; entity: AnyEntity; field: string }> = [
      { what: 'a JSON journal line', send: () => journal([{ ledger: rent, debit_amount: ABOVE }, { ledger: vendor, credit_amount: ABOVE }]), key: 'items.0.debit_amount', entity: registry.journal, field: 'debit_amount' },
      { what: 'a multipart payment line', send: () => t.current.call({ method: 'POST', url: `${PAYMENT}/create/`, payload: payBody.payload, headers: payBody.headers }), key: 'items.0.debit_amount', entity: registry.payment_voucher, field: 'debit_amount' },
      {
        what: "a voucher's update by invoice number",
        send: () => t.current.call({ method: 'PUT', url: `${JOURNAL}/update/`, payload: { invoice_no: invoice, journal_date: DAY, items: [{ ledger: rent, debit_amount: ABOVE }, { ledger: vendor, credit_amount: ABOVE }] } }),
        key: 'items.0.debit_amount', entity: registry.journal, field: 'debit_amount',
      },
      { what: 'a donation', send: () => t.current.call({ method: 'POST', url: `${registry.donation.api.base}/create/`, payload: { amount: ABOVE } }), key: 'amount', entity: registry.donation, field: 'amount' },
      { what: 'a cause donation', send: () => t.current.call({ method: 'POST', url: `${registry.cause_donation.api.base}/create/`, payload: { cause: cause.body.id, amount: ABOVE } }), key: 'amount', entity: registry.cause_donation, field: 'amount' },
      { what: "a cause's goal", send: () => t.current.call({ method: 'POST', url: `${registry.cause.api.base}/create/`, payload: { name: 'Too big', goal_amount: ABOVE } }), key: 'goal_amount', entity: registry.cause, field: 'goal_amount' },
      { what: 'a subscription for several members', send: () => t.current.call({ method: 'POST', url: `${registry.monthly_subscription.api.base}/create/`, payload: { members: [member], amount: ABOVE } }), key: 'amount', entity: registry.monthly_subscription, field: 'amount' },
      { what: "a product's price", send: () => t.current.call({ method: 'POST', url: `${registry.product.api.base}/create/`, payload: { name: 'Gold bar', unit_price: LEGACY } }), key: 'unit_price', entity: registry.product, field: 'unit_price' },
    ]
    for (const c of cases) {
      const res = await c.send()
      expect(res.status, `${c.what}: ${JSON.stringify(res.body)}`).toBe(400)
      expect(res.body[c.key], c.what).toEqual([amountMessage(c.entity, c.field)])
    }
    const tr = await journal([{ ledger: rent, debit_amount: ABOVE }, { ledger: vendor, credit_amount: ABOVE }], 'tr')
    expect(tr.body['items.0.debit_amount']).toEqual([amountMessage(registry.journal, 'debit_amount', 'tr')])
    expect(tr.body['items.0.debit_amount'][0]).toContain(MONEY_MAX)
    expect(await snapshot(db)).toEqual(before)
  })

  it('holds a posting that a module makes to the same bound (the posting service)', async () => {
    const refused = await db
      .transaction()
      .execute((trx) => postEntries(trx, { kind: 'journal', date: DAY, referenceNo: 'BOUND-POST', lines: [{ ledger: rent, debit: ABOVE }, { ledger: vendor, credit: ABOVE }] }))
      .then(() => undefined, (e: unknown) => e)
    expect(refused).toBeInstanceOf(ValidationError)
    expect((refused as ValidationError).fields['lines.0.debit']).toEqual([{ key: 'validation.max_amount', params: { max: MONEY_MAX, whole: 12 } }])
    expect((await sql`select 1 from account_log where reference_no = 'BOUND-POST'`.execute(db)).rows).toEqual([])
  })

  it('answers a number the database cannot hold (22003) with 400 {detail} in the request\'s language, writing nothing: a cause donation past a legacy raised amount', async () => {
    const made = await t.current.call({ method: 'POST', url: `${registry.cause.api.base}/create/`, payload: { name: 'Legacy cause', goal_amount: '50.00' } })
    expect(made.status, made.raw).toBe(201)
    // Raised before the bound: one more donation makes it overflow its column.
    await sql`update cause set raised_amount = ${LEGACY} where id = ${made.body.id}`.execute(db)
    const before = await snapshot(db)
    for (const lang of ['en', 'ar'] as const) {
      const res = await t.current.call({ method: 'POST', url: `${registry.cause_donation.api.base}/create/`, payload: { cause: made.body.id, amount: '100.00' }, headers: { 'accept-language': lang } })
      expect(res.status, res.raw).toBe(400)
      expect(res.body).toEqual({ detail: messageFor(lang, { key: 'detail.number_out_of_range' }) })
    }
    expect(await snapshot(db)).toEqual(before)
    expect((await sql<{ v: string }>`select raised_amount::text as v from cause where id = ${made.body.id}`.execute(db)).rows[0]!.v).toBe(LEGACY)
  })
})
