import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { registry, reportRegistry } from '../../schema'
import { money, type Message } from '../../schema/kit'
import { connect } from '../../server/db/connect'
import type { Db } from '../../server/db/types'
import { nextInvoiceNo } from '../../server/domain/accounting/numbering'
import { cashBankLedgers, postEntries, reverseEntries, standingEntries, type LedgerRow, type Posting } from '../../server/domain/accounting/posting'
import { ConflictError, ValidationError } from '../../server/engine/errors'
import { catalogues, messageFor } from '../../server/i18n'
import { describeEachDatabase } from './helpers/app'
import { postgresInfo } from './helpers/databases'
import { ledgerUnder, seededLedger } from './helpers/ledgers'

/**
 * The general ledger (issue 10): postings written row for row, refused with nothing
 * written, append-only in the database itself, reversed so that a cancelled voucher nets to
 * zero, numbered without gaps, and read back by the ledger report and the trial balance.
 */
const accountLog = registry.account_log
const { ledger_report: ledgerReport, trial_balance: trialBalance } = reportRegistry

type Ledgers = Record<'cash' | 'bank' | 'cityBank' | 'rent' | 'power' | 'sales' | 'purchase' | 'customer' | 'vendor' | 'stationery', number>



/** Every row of a reference as the golden tests compare them (no ids or timestamps). */
async function rowsOf(db: Db, reference: string) {
  const r = await sql<Omit<LedgerRow, 'id'> & { id: number }>`
    select id, ledger, sub_ledger, branch, reference_no, log_type, debit_amount, credit_amount, log_date, details, reverses
    from account_log where reference_no = ${reference} order by id`.execute(db)
  return r.rows
}

const countRows = async (db: Db) => Number((await sql<{ n: number }>`select count(*)::int as n from account_log`.execute(db)).rows[0]!.n)

const failureOf = async (work: Promise<unknown>): Promise<unknown> => work.then(() => undefined, (e: unknown) => e)

describeEachDatabase('general ledger', (t, kind) => {
  let db: Db
  let l: Ledgers
  let branch: number
  let subLedger: number

  beforeAll(async () => {
    db = t.current.db
    const bankBranches = await sql<{ id: number }>`insert into "group" (name, head_group) values ('City Bank Branches', (select id from "group" where name = 'Bank Accounts')) returning id`.execute(db)
    expect(bankBranches.rows).toHaveLength(1)
    l = {
      cash: await seededLedger(db, 'Cash'),
      bank: await seededLedger(db, 'Bank'),
      sales: await seededLedger(db, 'Company Sales'),
      purchase: await seededLedger(db, 'Company Purchase'),
      // Under a group below "Bank Accounts": a bank by its group chain, not by its name.
      cityBank: await ledgerUnder(db, 'City Bank Gulshan', 'City Bank Branches'),
      rent: await ledgerUnder(db, 'Office Rent', 'Indirect Expenses'),
      power: await ledgerUnder(db, 'Electricity', 'Indirect Expenses'),
      customer: await ledgerUnder(db, 'Karim Traders', 'Customers'),
      vendor: await ledgerUnder(db, 'Rahim Supplies', 'Sundry Creditors'),
      stationery: await ledgerUnder(db, 'Stationery', 'Indirect Expenses'),
    }
    branch = (await sql<{ id: number }>`insert into branch (name) values ('Ledger Branch') returning id`.execute(db)).rows[0]!.id
    subLedger = (await sql<{ id: number }>`insert into sub_ledger_account (name) values ('office_rent') returning id`.execute(db)).rows[0]!.id
    await post(journal('JO-ST-1', '2026-07-01', l.stationery, l.vendor, '100.00'))
    await post(journal('JO-ST-2', '2026-07-05', l.stationery, l.vendor, '50.25'))
    await post(journal('JO-ST-3', '2026-07-10', l.vendor, l.stationery, '30.00'))
    await post(journal('JO-ST-4', '2026-07-20', l.stationery, l.vendor, '10.00'))
  })

  const post = (posting: Posting) => db.transaction().execute((trx) => postEntries(trx, posting))
  const journal = (referenceNo: string, date: string, debit: number, credit: number, amount: string): Posting => ({
    kind: 'journal',
    date,
    referenceNo,
    lines: [
      { ledger: debit, debit: amount },
      { ledger: credit, credit: amount },
    ],
  })

  it('posts each kind of voucher as one row per line, every row as written (golden postings)', async () => {
    type Golden = { kind: Posting['kind']; prefix: string; lines: Posting['lines']; rows: Array<[ledger: number, debit: string, credit: string]> }
    const goldens: Golden[] = [
      {
        kind: 'payment_voucher',
        prefix: 'PV',
        lines: [{ ledger: l.rent, debit: '700', credit: '0' }, { ledger: l.power, debit: '50.5' }, { ledger: l.cash, credit: '750.50' }],
        rows: [[l.rent, '700.00', '0.00'], [l.power, '50.50', '0.00'], [l.cash, '0.00', '750.50']],
      },
      { kind: 'receipt_voucher', prefix: 'RV', lines: [{ ledger: l.bank, debit: '1200' }, { ledger: l.customer, credit: '1200' }], rows: [[l.bank, '1200.00', '0.00'], [l.customer, '0.00', '1200.00']] },
      { kind: 'sales', prefix: 'SA', lines: [{ ledger: l.customer, debit: '1500.75' }, { ledger: l.sales, credit: '1500.75' }], rows: [[l.customer, '1500.75', '0.00'], [l.sales, '0.00', '1500.75']] },
      { kind: 'purchase', prefix: 'PU', lines: [{ ledger: l.purchase, debit: '800' }, { ledger: l.vendor, credit: '800' }], rows: [[l.purchase, '800.00', '0.00'], [l.vendor, '0.00', '800.00']] },
      { kind: 'contra', prefix: 'CO', lines: [{ ledger: l.cash, debit: '300' }, { ledger: l.cityBank, credit: '300' }], rows: [[l.cash, '300.00', '0.00'], [l.cityBank, '0.00', '300.00']] },
      { kind: 'journal', prefix: 'JO', lines: [{ ledger: l.rent, debit: '250' }, { ledger: l.vendor, credit: '250' }], rows: [[l.rent, '250.00', '0.00'], [l.vendor, '0.00', '250.00']] },
    ]
    for (const g of goldens) {
      const posted = await db.transaction().execute(async (trx) => {
        const referenceNo = await nextInvoiceNo(trx, g.prefix, '2026-03-15')
        return postEntries(trx, { kind: g.kind, date: '2026-03-15', referenceNo, branch, subLedger, details: `${g.kind} of March`, lines: g.lines })
      })
      const reference = `${g.prefix}20260315001`
      const expected = g.rows.map(([ledger, debit, credit]) => ({
        id: expect.any(Number),
        ledger,
        sub_ledger: subLedger,
        branch,
        reference_no: reference,
        log_type: g.kind,
        debit_amount: debit,
        credit_amount: credit,
        log_date: '2026-03-15',
        details: `${g.kind} of March`,
        reverses: null,
      }))
      expect(await rowsOf(db, reference), g.kind).toEqual(expected)
      expect(posted, g.kind).toEqual(await rowsOf(db, reference))
    }
  })

  it('takes a line’s own sub-ledger and branch over the posting’s', async () => {
    const other = (await sql<{ id: number }>`insert into sub_ledger_account (name) values ('power_bill') returning id`.execute(db)).rows[0]!.id
    await post({ kind: 'journal', date: '2026-03-16', referenceNo: 'JO-LINE-TAGS', branch, subLedger, lines: [{ ledger: l.power, debit: '10', subLedger: other }, { ledger: l.vendor, credit: '10', branch: null }] })
    expect((await rowsOf(db, 'JO-LINE-TAGS')).map((r) => [r.ledger, r.sub_ledger, r.branch])).toEqual([
      [l.power, other, branch],
      [l.vendor, subLedger, branch],
    ])
  })

  it('refuses unbalanced, one-sided, two-sided, negative and three-decimal lines, writing nothing and consuming no number', async () => {
    const before = await countRows(db)
    const cases: Array<[string, Posting['lines'], Record<string, unknown>]> = [
      ['unbalanced', [{ ledger: l.rent, debit: '100.00' }, { ledger: l.vendor, credit: '90.25' }], { lines: [{ key: 'validation.unbalanced', params: { debit: '100.00', credit: '90.25', difference: '9.75' } }] }],
      ['one line', [{ ledger: l.rent, debit: '100.00' }], { lines: [{ key: 'validation.lines_min', params: { min: 2 } }] }],
      ['both sides', [{ ledger: l.rent, debit: '5', credit: '5' }, { ledger: l.vendor, credit: '5' }], { 'lines.0.debit': [{ key: 'validation.one_side_only' }] }],
      ['neither side', [{ ledger: l.rent, debit: '0.00', credit: '0' }, { ledger: l.rent, debit: '5' }, { ledger: l.vendor, credit: '5' }], { 'lines.0.debit': [{ key: 'validation.no_amount' }] }],
      ['negative', [{ ledger: l.rent, debit: '-5' }, { ledger: l.vendor, debit: '-5' }], { 'lines.0.debit': [{ key: 'validation.min_value', params: { min: 0 } }], 'lines.1.debit': [{ key: 'validation.min_value', params: { min: 0 } }] }],
      ['three decimals', [{ ledger: l.rent, debit: '10.005' }, { ledger: l.vendor, credit: '10.005' }], { 'lines.0.debit': [{ key: 'validation.decimal', params: { scale: 2, whole: 12 } }], 'lines.1.credit': [{ key: 'validation.decimal', params: { scale: 2, whole: 12 } }] }],
      ['an unknown ledger', [{ ledger: 999999, debit: '5' }, { ledger: l.vendor, credit: '5' }], { 'lines.0.ledger': [{ key: 'validation.ref', params: { label: 'field.ledger' } }] }],
    ]
    for (const [what, lines, fields] of cases) {
      const error = await failureOf(
        db.transaction().execute(async (trx) => {
          const referenceNo = await nextInvoiceNo(trx, 'JO', '2026-03-20')
          return postEntries(trx, { kind: 'journal', date: '2026-03-20', referenceNo, lines })
        }),
      )
      expect(error, what).toBeInstanceOf(ValidationError)
      expect((error as ValidationError).fields, what).toEqual(fields)
    }
    expect(await countRows(db)).toBe(before)
    // Every refusal rolled its number back: the day's first journal is still number 1.
    expect(await db.transaction().execute((trx) => nextInvoiceNo(trx, 'JO', '2026-03-20'))).toBe('JO20260320001')
  })

  it('names the difference of an unbalanced posting in each language', async () => {
    const unbalanced = { ...journal('JO-UNBALANCED', '2026-03-20', l.rent, l.vendor, '100.00'), lines: [{ ledger: l.rent, debit: '100.00' }, { ledger: l.vendor, credit: '90.25' }] }
    const error = (await failureOf(post(unbalanced))) as ValidationError
    const message = error.fields.lines![0]!
    expect(messageFor('en', message)).toBe('Total debit (100.00) and total credit (90.25) must be equal: they differ by 9.75.')
    for (const lang of ['tr', 'ar']) {
      expect(messageFor(lang, message)).toMatch(/9[.,٫]75/)
      expect(messageFor(lang, message)).not.toBe(messageFor('en', message))
    }
    // Amounts as the screens show them: two places, grouped, Latin digits in every language.
    const large = { key: message.key, params: { debit: '4500', credit: '12345.5', difference: '7845.50' } }
    expect(messageFor('en', large)).toBe('Total debit (4,500.00) and total credit (12,345.50) must be equal: they differ by 7,845.50.')
    expect(messageFor('tr', large)).toContain('7.845,50')
    expect(messageFor('ar', large)).toMatch(/7[,٬]845[.٫]50/)
  })

  it('knows cash and bank ledgers by their group chain, and holds each kind of voucher to its cash/bank rule', async () => {
    expect(await cashBankLedgers(db, [l.cash, l.bank, l.cityBank, l.rent, l.customer])).toEqual(new Set([l.cash, l.bank, l.cityBank]))
    const refused = async (posting: Posting) => ((await failureOf(post(posting))) as ValidationError).fields
    const lines = (a: number, b: number) => [
      { ledger: a, debit: '40' },
      { ledger: b, credit: '40' },
    ]
    const at = { date: '2026-03-21' }
    expect(await refused({ ...at, kind: 'payment_voucher', referenceNo: 'PV-NO-CASH', lines: lines(l.rent, l.vendor) })).toEqual({ lines: [{ key: 'validation.payment_cash_credit' }] })
    expect(await refused({ ...at, kind: 'payment_voucher', referenceNo: 'PV-CASH-DEBIT', lines: lines(l.cash, l.cityBank) })).toEqual({ 'lines.0.ledger': [{ key: 'validation.payment_cash_debit' }] })
    expect(await refused({ ...at, kind: 'receipt_voucher', referenceNo: 'RV-NO-CASH', lines: lines(l.customer, l.sales) })).toEqual({ lines: [{ key: 'validation.receipt_cash_debit' }] })
    expect(await refused({ ...at, kind: 'receipt_voucher', referenceNo: 'RV-BANK-CREDIT', lines: lines(l.cash, l.bank) })).toEqual({ 'lines.1.ledger': [{ key: 'validation.receipt_cash_credit' }] })
    expect(await refused({ ...at, kind: 'contra', referenceNo: 'CO-RENT', lines: lines(l.cash, l.rent) })).toEqual({ 'lines.1.ledger': [{ key: 'validation.contra_cash_only' }] })
    expect(await refused({ ...at, kind: 'contra', referenceNo: 'CO-SAME', lines: lines(l.bank, l.bank) })).toEqual({ lines: [{ key: 'validation.contra_two_ledgers' }] })
    expect(await refused({ ...at, kind: 'journal', referenceNo: 'JO-BANK', lines: lines(l.rent, l.cityBank) })).toEqual({ 'lines.1.ledger': [{ key: 'validation.journal_no_cash' }] })
    expect(await rowsOf(db, 'CO-RENT')).toEqual([])
    await post({ ...at, kind: 'contra', referenceNo: 'CO-CITY', lines: lines(l.cityBank, l.cash) })
    await post({ ...at, kind: 'receipt_voucher', referenceNo: 'RV-CITY', lines: lines(l.cityBank, l.customer) })
    expect(await rowsOf(db, 'CO-CITY')).toHaveLength(2)
  })

  it('is append-only in the database itself: a raw UPDATE, DELETE or TRUNCATE of the general ledger fails', async () => {
    await post(journal('JO-APPEND-ONLY', '2026-03-22', l.rent, l.vendor, '12.34'))
    const before = await rowsOf(db, 'JO-APPEND-ONLY')
    const statements = [
      sql`update account_log set details = 'edited' where reference_no = 'JO-APPEND-ONLY'`,
      sql`update account_log set debit_amount = credit_amount, credit_amount = debit_amount where reference_no = 'JO-APPEND-ONLY'`,
      sql`delete from account_log where reference_no = 'JO-APPEND-ONLY'`,
      sql`delete from account_log`,
      sql`truncate account_log`,
    ]
    for (const statement of statements) {
      const error = await failureOf(statement.execute(db))
      expect(error, statement.compile(db).sql).toBeInstanceOf(Error)
      expect((error as Error).message).toMatch(/account_log is append-only: (UPDATE|DELETE|TRUNCATE) refused/)
    }
    expect(await rowsOf(db, 'JO-APPEND-ONLY')).toEqual(before)
    // Each row stands on one side with a positive amount, whoever inserts it.
    for (const [debit, credit] of [['5', '5'], ['0', '0'], ['-5', '0']]) {
      const error = await failureOf(sql`insert into account_log (ledger, reference_no, log_type, debit_amount, credit_amount, log_date) values (${l.rent}, 'RAW', 'journal', ${debit}, ${credit}, '2026-03-22')`.execute(db))
      expect((error as { constraint?: string }).constraint, `${debit}/${credit}`).toBe('account_log_one_side')
    }
  })

  it('answers the contract’s account-log deletes with a refusal in the caller’s language', async () => {
    await post(journal('JO-NO-DELETE', '2026-03-23', l.rent, l.vendor, '5'))
    const [row] = await rowsOf(db, 'JO-NO-DELETE')
    for (const lang of ['en', 'tr', 'ar'] as const) {
      const expected = (catalogues[lang] as { detail: Record<string, string> }).detail.account_log_append_only
      const one = await t.current.call({ method: 'DELETE', url: `${accountLog.api.base}/delete/${row!.id}`, headers: { 'accept-language': lang } })
      expect(one.status, one.raw).toBe(409)
      expect(one.body).toEqual({ detail: expected })
      const many = await t.current.call({ method: 'DELETE', url: `${accountLog.api.base}/delete_multiple/`, payload: { ids: [row!.id] }, headers: { 'accept-language': lang } })
      expect(many.status, many.raw).toBe(409)
      expect(many.body).toEqual({ detail: expected })
    }
    expect(new Set(['en', 'tr', 'ar'].map((lang) => (catalogues[lang as 'en'] as { detail: Record<string, string> }).detail.account_log_append_only)).size).toBe(3)
    expect(await rowsOf(db, 'JO-NO-DELETE')).toHaveLength(2)
    // Nor is there a create or update.
    expect((await t.current.call({ method: 'POST', url: `${accountLog.api.base}/create/`, payload: {} })).status).toBe(404)
    expect((await t.current.call({ method: 'PUT', url: `${accountLog.api.base}/update/${row!.id}`, payload: {} })).status).toBe(404)
  })

  it('lists and finds the general ledger by reference and by the contract’s date range', async () => {
    const reference = 'PV-SEARCHED'
    await post({ kind: 'payment_voucher', date: '2026-03-15', referenceNo: reference, lines: [{ ledger: l.rent, debit: '700' }, { ledger: l.power, debit: '50.50' }, { ledger: l.cash, credit: '750.50' }] })
    const found = await t.current.call({ method: 'GET', url: `${accountLog.api.base}/search/?reference_no=${reference}&date_after=2026-03-15&date_before=2026-03-15&ordering=id` })
    expect(found.status, found.raw).toBe(200)
    expect(found.body).toMatchObject({ page: 1, total_elements: 3 })
    expect(found.body.account_logs.map((r: { debit_amount: string; credit_amount: string }) => [r.debit_amount, r.credit_amount])).toEqual([
      ['700.00', '0.00'],
      ['50.50', '0.00'],
      ['0.00', '750.50'],
    ])
    expect(found.body.account_logs[0].ledger).toEqual({ id: l.rent, name: 'Office Rent' })
    const later = await t.current.call({ method: 'GET', url: `${accountLog.api.base}/search/?reference_no=${reference}&date_after=2026-03-16` })
    expect(later.body.total_elements).toBe(0)
    const bad = await t.current.call({ method: 'GET', url: `${accountLog.api.base}/search/?date_after=2026-02-30` })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ date_after: ['Enter a valid date (YYYY-MM-DD).'] })
    const all = await t.current.call({ method: 'GET', url: `${accountLog.api.base}/all/?size=5` })
    expect(all.status).toBe(200)
    expect(all.body.account_logs).toHaveLength(5)
    const one = await t.current.call({ method: 'GET', url: `${accountLog.api.base}/${found.body.account_logs[0].id}` })
    expect(one.body).toMatchObject({ reference_no: reference, ledger: l.rent, _labels: { ledger: 'Office Rent' } })
  })

  it('reverses what stands for a reference: the opposite rows, dated the cancel date, each naming the row it undoes, netting to zero', async () => {
    const posted = await post({ ...journal('JO-REVERSED', '2026-06-01', l.rent, l.vendor, '100.00'), details: 'June rent accrued' })
    const reversal = await db.transaction().execute((trx) => reverseEntries(trx, 'JO-REVERSED', { date: '2026-06-10' }))
    expect(reversal).toEqual([
      { id: expect.any(Number), ledger: l.rent, sub_ledger: null, branch: null, reference_no: 'JO-REVERSED', log_type: 'journal', debit_amount: '0.00', credit_amount: '100.00', log_date: '2026-06-10', details: 'June rent accrued', reverses: posted[0]!.id },
      { id: expect.any(Number), ledger: l.vendor, sub_ledger: null, branch: null, reference_no: 'JO-REVERSED', log_type: 'journal', debit_amount: '100.00', credit_amount: '0.00', log_date: '2026-06-10', details: 'June rent accrued', reverses: posted[1]!.id },
    ])
    expect(await rowsOf(db, 'JO-REVERSED')).toEqual([...posted, ...reversal])
    const net = await sql<{ ledger: number; net: string }>`select ledger, sum(debit_amount - credit_amount)::text as net from account_log where reference_no = 'JO-REVERSED' group by ledger order by ledger`.execute(db)
    expect(net.rows.map((r) => r.net)).toEqual(['0.00', '0.00'])
    expect(await standingEntries(db, 'JO-REVERSED')).toEqual([])

    // Once reversed, nothing stands: a second cancellation is refused, and so is a reference never posted.
    for (const reference of ['JO-REVERSED', 'JO-NEVER-POSTED']) {
      const error = await failureOf(db.transaction().execute((trx) => reverseEntries(trx, reference)))
      expect(error).toBeInstanceOf(ConflictError)
      expect(messageFor('en', (error as ConflictError).detail as Message)).toContain(reference)
    }
    // The database refuses a second reversal of one row, whoever writes it.
    const again = await failureOf(sql`insert into account_log (ledger, reference_no, log_type, debit_amount, credit_amount, log_date, reverses) values (${l.rent}, 'JO-REVERSED', 'journal', 0, 100, '2026-06-11', ${posted[0]!.id})`.execute(db))
    expect((again as { constraint?: string }).constraint).toBe('account_log_reversed_once')
  })

  it('changes a voucher by reversing what stands and posting the new lines under the same number, in one transaction', async () => {
    await post(journal('JO-CHANGED', '2026-06-02', l.rent, l.vendor, '80.00'))
    await db.transaction().execute(async (trx) => {
      await reverseEntries(trx, 'JO-CHANGED', { date: '2026-06-03' })
      await postEntries(trx, journal('JO-CHANGED', '2026-06-03', l.rent, l.vendor, '95.00'))
    })
    expect((await standingEntries(db, 'JO-CHANGED')).map((r) => [r.ledger, r.debit_amount, r.credit_amount])).toEqual([
      [l.rent, '95.00', '0.00'],
      [l.vendor, '0.00', '95.00'],
    ])
    expect(await rowsOf(db, 'JO-CHANGED')).toHaveLength(6)
    // A change that fails leaves the voucher as it stood.
    await failureOf(
      db.transaction().execute(async (trx) => {
        await reverseEntries(trx, 'JO-CHANGED', { date: '2026-06-04' })
        await postEntries(trx, { ...journal('JO-CHANGED', '2026-06-04', l.rent, l.vendor, '95.00'), lines: [{ ledger: l.rent, debit: '95' }, { ledger: l.vendor, credit: '90' }] })
      }),
    )
    expect(await rowsOf(db, 'JO-CHANGED')).toHaveLength(6)
  })

  it('numbers invoices per prefix and day from 1, as <PREFIX><YYYYMMDD>00<n>, and a rolled-back posting consumes none', async () => {
    const take = (prefix: string, date: string) => db.transaction().execute((trx) => nextInvoiceNo(trx, prefix, date))
    expect(await take('CO', '2026-04-01')).toBe('CO20260401001')
    expect(await take('CO', '2026-04-01')).toBe('CO20260401002')
    expect(await take('CO', '2026-04-02')).toBe('CO20260402001')
    expect(await take('JO', '2026-04-01')).toBe('JO20260401001')
    const failed = await failureOf(
      db.transaction().execute(async (trx) => {
        const referenceNo = await nextInvoiceNo(trx, 'CO', '2026-04-01')
        expect(referenceNo).toBe('CO20260401003')
        await postEntries(trx, { kind: 'contra', date: '2026-04-01', referenceNo, lines: [{ ledger: l.cash, debit: '10' }, { ledger: l.rent, credit: '10' }] })
      }),
    )
    expect(failed).toBeInstanceOf(ValidationError)
    expect(await take('CO', '2026-04-01')).toBe('CO20260401003')
    for (let n = 4; n <= 12; n++) await take('CO', '2026-04-01')
    expect(await take('CO', '2026-04-01')).toBe('CO202604010013')
  })

  it.skipIf(kind !== 'postgres')('gives 20 parallel postings 20 distinct consecutive numbers, the failed ones none (real parallel transactions)', async () => {
    const info = postgresInfo()!
    const database = (await sql<{ name: string }>`select current_database() as name`.execute(db)).rows[0]!.name
    const pool = await connect({ kind: 'postgres', poolConfig: { host: info.host, port: info.port, user: info.user, database, max: 25 } })
    try {
      const attempts = Array.from({ length: 25 }, (_, i) =>
        pool.db.transaction().execute(async (trx) => {
          const referenceNo = await nextInvoiceNo(trx, 'PV', '2026-05-01')
          // Keep the counter row locked a moment, so that the others queue behind it.
          await sql`select pg_sleep(0.01)`.execute(trx)
          await postEntries(trx, { kind: 'payment_voucher', date: '2026-05-01', referenceNo, lines: [{ ledger: l.rent, debit: '1.00' }, { ledger: l.cash, credit: '1.00' }] })
          if (i % 5 === 4) throw new Error(`posting ${i} fails after taking ${referenceNo}`)
          return referenceNo
        }),
      )
      const settled = await Promise.allSettled(attempts)
      const numbers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
      expect(settled.filter((s) => s.status === 'rejected')).toHaveLength(5)
      expect([...numbers].sort((a, b) => a.length - b.length || a.localeCompare(b))).toEqual(Array.from({ length: 20 }, (_, i) => `PV2026050100${i + 1}`))
      const rows = await sql<{ n: number }>`select count(*)::int as n from account_log where reference_no like 'PV2026050100%'`.execute(db)
      expect(rows.rows[0]!.n).toBe(40)
    } finally {
      await pool.close()
    }
  })

  it('refuses to delete a ledger account that has postings, and deletes one that has none', async () => {
    await post(journal('JO-POWER', '2026-03-24', l.power, l.vendor, '1.00'))
    const refused = await t.current.call({ method: 'DELETE', url: `${registry.ledger_account.api.base}/delete/${l.power}` })
    expect(refused.status, refused.raw).toBe(409)
    expect(refused.body.detail).toMatch(/^Ledger Account '.+' cannot be deleted: \d+ General Ledger refer to it\.$|^Ledger Account '.+' cannot be deleted: one of the General Ledger refers to it\.$/)
    const inTurkish = await t.current.call({ method: 'DELETE', url: `${registry.ledger_account.api.base}/delete/${l.power}`, headers: { 'accept-language': 'tr' } })
    expect(inTurkish.body.detail).toContain('Büyük Defter')
    expect((await sql<{ id: number }>`select id from ledger_account where id = ${l.power}`.execute(db)).rows).toHaveLength(1)
    const unused = await ledgerUnder(db, 'Never Posted', 'Indirect Expenses')
    const deleted = await t.current.call({ method: 'DELETE', url: `${registry.ledger_account.api.base}/delete/${unused}` })
    expect(deleted.status, deleted.raw).toBe(200)
  })

  // The reports' ledger, Stationery (beforeAll): 100 before the period, +50.25 and −30 in it, +10 after it.
  const period = 'date_after=2026-07-05&date_before=2026-07-15'

  it('reports a ledger with its opening balance, running balance and closing balance', async () => {
    const res = await t.current.call({ method: 'GET', url: `${ledgerReport.api.base}/?ledger=${l.stationery}&${period}&size=100` })
    expect(res.status, res.raw).toBe(200)
    const row = (line_no: number, log_date: string, reference_no: string | null, log_type: string, debit: string | null, credit: string | null, balance: string) => ({
      line_no,
      log_date,
      reference_no,
      log_type,
      related_ledgers: reference_no ? 'Rahim Supplies' : null,
      details: null,
      debit_amount: debit,
      credit_amount: credit,
      balance,
    })
    expect(res.body.rows).toEqual([
      row(0, '2026-07-05', null, 'opening_balance', null, null, '100.00'),
      row(1, '2026-07-05', 'JO-ST-2', 'journal', '50.25', '0.00', '150.25'),
      row(2, '2026-07-10', 'JO-ST-3', 'journal', '0.00', '30.00', '120.25'),
      row(3, '2026-07-15', null, 'closing_balance', null, null, '120.25'),
    ])
    expect(res.body.totals).toEqual({ debit_amount: '50.25', credit_amount: '30.00' })
    expect(res.body).toMatchObject({ opening_balance: '100.00', closing_balance: '120.25', total_elements: 4 })

    const whole = await t.current.call({ method: 'GET', url: `${ledgerReport.api.base}/?ledger=${l.stationery}&size=100` })
    expect(whole.body.rows.map((r: { balance: string }) => r.balance)).toEqual(['0.00', '100.00', '150.25', '120.25', '130.25', '130.25'])
    expect(whole.body).toMatchObject({ opening_balance: '0.00', closing_balance: '130.25' })

    const csv = await t.current.call({ method: 'GET', url: `${ledgerReport.api.base}/csv?ledger=${l.stationery}&${period}` })
    expect(csv.status).toBe(200)
    expect(csv.raw.replace(/^\ufeff/, '').trim().split('\r\n')).toEqual([
      '"No.","Date","Reference No","Type","Related Ledgers","Details","Debit","Credit","Balance"',
      '0,2026-07-05,,"opening_balance",,,,,100.00',
      '1,2026-07-05,"JO-ST-2","journal","Rahim Supplies",,50.25,0.00,150.25',
      '2,2026-07-10,"JO-ST-3","journal","Rahim Supplies",,0.00,30.00,120.25',
      '3,2026-07-15,,"closing_balance",,,,,120.25',
    ])

    const missing = await t.current.call({ method: 'GET', url: `${ledgerReport.api.base}/?${period}` })
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ ledger: [expect.any(String)] })
  })

  it('answers the contract’s ledger report with the previous balance and the period’s rows', async () => {
    const res = await t.current.call({ method: 'GET', url: `/account_log_report/api/v1/account_log_report/general/?ledger=${l.stationery}&${period}` })
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toMatchObject({ previous_balance: '100.00', page: 1, size: 10, total_pages: 1, total_elements: 2 })
    expect(res.body.account_logs).toEqual([
      expect.objectContaining({ reference_no: 'JO-ST-2', ledger: { id: l.stationery, name: 'Stationery' }, sub_ledger: null, branch: null, debit_amount: '50.25', credit_amount: '0.00', log_date: '2026-07-05', related_ledgers: 'Rahim Supplies', balance: '150.25' }),
      expect.objectContaining({ reference_no: 'JO-ST-3', debit_amount: '0.00', credit_amount: '30.00', log_date: '2026-07-10', balance: '120.25' }),
    ])
    const second = await t.current.call({ method: 'GET', url: `/account_log_report/api/v1/account_log_report/general/?ledger=${l.stationery}&size=1&page=2` })
    expect(second.body).toMatchObject({ previous_balance: '0.00', page: 2, size: 1, total_pages: 4, total_elements: 4 })
    expect(second.body.account_logs.map((r: { reference_no: string; balance: string }) => [r.reference_no, r.balance])).toEqual([['JO-ST-2', '150.25']])
    const bad = await t.current.call({ method: 'GET', url: `/account_log_report/api/v1/account_log_report/general/?ledger=${l.stationery}&date_after=2026-07-15&date_before=2026-07-01` })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ date_before: ['The end of the period comes before its start.'] })
  })

  it('gives every ledger its debit and credit totals in a trial balance whose columns tie', async () => {
    const res = await t.current.call({ method: 'GET', url: `${trialBalance.api.base}/?${period}` })
    expect(res.status, res.raw).toBe(200)
    const stationery = res.body.rows.find((r: { ledger: string }) => r.ledger === 'Stationery')
    expect(stationery).toEqual({
      ledger: 'Stationery',
      group_name: 'Indirect Expenses',
      opening_debit: '100.00',
      opening_credit: '0.00',
      debit_amount: '50.25',
      credit_amount: '30.00',
      closing_debit: '120.25',
      closing_credit: '0.00',
    })
    const totals = res.body.totals
    expect(totals.opening_debit).toBe(totals.opening_credit)
    expect(totals.debit_amount).toBe(totals.credit_amount)
    expect(totals.closing_debit).toBe(totals.closing_credit)
    expect(Number(totals.opening_debit)).toBeGreaterThan(0)
    // Every posting of this file, all time: the columns tie as well, and each ledger's balance is the sum of its rows.
    const all = await t.current.call({ method: 'GET', url: `${trialBalance.api.base}/` })
    expect(all.body.totals.debit_amount).toBe(all.body.totals.credit_amount)
    expect(all.body.totals.closing_debit).toBe(all.body.totals.closing_credit)
    const sums = await sql<{ name: string; net: string }>`select l.name, sum(a.debit_amount - a.credit_amount)::numeric(20,2)::text as net from account_log a join ledger_account l on l.id = a.ledger group by l.id, l.name`.execute(db)
    for (const s of sums.rows) {
      const r = all.body.rows.find((x: { ledger: string }) => x.ledger === s.name)
      expect(money.subtract(r.closing_debit, r.closing_credit), s.name).toBe(s.net)
    }
    // Ledgers without rows only when asked for.
    expect(all.body.rows.some((r: { ledger: string }) => r.ledger === 'Profit & Loss A/C')).toBe(false)
    const withZero = await t.current.call({ method: 'GET', url: `${trialBalance.api.base}/?show_zero=yes` })
    expect(withZero.body.rows.find((r: { ledger: string }) => r.ledger === 'Profit & Loss A/C')).toMatchObject({ debit_amount: '0.00', credit_amount: '0.00', closing_debit: '0.00' })
  })
})
