import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { reportRegistry } from '../../schema'
import type { LogType } from '../../schema/entities/accounting/account-log'
import { fromMinor } from '../../schema/kit/money'
import type { Db } from '../../server/db/types'
import { migrations } from '../../server/db/migrations'
import { postEntries, reverseEntries, type PostingLine } from '../../server/domain/accounting/posting'
import { describeEachDatabase } from './helpers/app'
import { ledgerUnder, seededLedger } from './helpers/ledgers'

/**
 * The per-ledger per-day totals (`ledger_day_total`, migration 6) that the ledger report and
 * the trial balance read: the database keeps them equal to the sums of the general ledger
 * through any postings and reversals, parallel postings on the same ledgers and days neither
 * deadlock nor lose a sum, and the migration fills them from the rows already there.
 */
const DAYS = ['2026-09-01', '2026-09-02', '2026-09-03', '2026-09-04'] as const

type Totals = { ledger: number; log_date: string; sub_ledger: number; debit: string; credit: string; rows: number }

/** The totals table, and the same figures summed from the rows: they must be equal. */
async function bothSides(db: Db): Promise<{ kept: Totals[]; summed: Totals[] }> {
  const kept = await sql<Totals>`
    select ledger, log_date::text as log_date, sub_ledger, debit_amount::numeric(20,2)::text as debit, credit_amount::numeric(20,2)::text as credit, row_count::int as rows
    from ledger_day_total order by ledger, log_date, sub_ledger`.execute(db)
  const summed = await sql<Totals>`
    select ledger, log_date::text as log_date, coalesce(sub_ledger, 0) as sub_ledger, sum(debit_amount)::numeric(20,2)::text as debit, sum(credit_amount)::numeric(20,2)::text as credit, count(*)::int as rows
    from account_log group by 1, 2, 3 order by 1, 2, 3`.execute(db)
  return { kept: kept.rows, summed: summed.rows }
}

/** A small deterministic generator, so a failure can be replayed. */
function randomOf(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0
    return s / 2 ** 32
  }
}

describeEachDatabase('ledger day totals', (t, kind) => {
  let db: Db
  let cash: number
  let bank: number
  let others: number[]
  let subLedger: number

  beforeAll(async () => {
    db = t.current.db
    const seeded = (name: string) => seededLedger(db, name)
    const ledger = (name: string, group: string) => ledgerUnder(db, name, group)
    cash = await seeded('Cash')
    bank = await seeded('Bank')
    others = [await ledger('Totals Rent', 'Indirect Expenses'), await ledger('Totals Income', 'Indirect Incomes'), await ledger('Totals Vendor', 'Sundry Creditors')]
    subLedger = (await sql<{ id: number }>`insert into sub_ledger_account (name) values ('totals_sub') returning id`.execute(db)).rows[0]!.id
  })

  const post = (kind: LogType, date: string, referenceNo: string, lines: PostingLine[], sub: number | null = null) =>
    db.transaction().execute((trx) => postEntries(trx, { kind, date, referenceNo, subLedger: sub, lines }))

  it('equal the sums of the general ledger after random postings, changes and cancellations', async () => {
    const random = randomOf(kind === 'pglite' ? 10 : 20)
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!
    const cents = () => fromMinor(BigInt(1 + Math.floor(random() * 1_000_000)))
    const standing: string[] = []
    for (let i = 0; i < 60; i++) {
      const roll = random()
      if (roll < 0.2 && standing.length > 0) {
        // A cancellation: reversing rows dated another day.
        const reference = standing.splice(Math.floor(random() * standing.length), 1)[0]!
        await db.transaction().execute((trx) => reverseEntries(trx, reference, { date: pick(DAYS) }))
        continue
      }
      const reference = `TOT-${kind}-${i}`
      const a = cents()
      const b = cents()
      const sub = random() < 0.3 ? subLedger : null
      if (roll < 0.4 && standing.length > 0) {
        // A change: what stood is reversed and the new lines posted under the same number, in one transaction.
        const changed = pick(standing)
        await db.transaction().execute(async (trx) => {
          await reverseEntries(trx, changed, { date: pick(DAYS) })
          await postEntries(trx, { kind: 'journal', date: pick(DAYS), referenceNo: changed, subLedger: sub, lines: [{ ledger: pick(others), debit: a }, { ledger: others[2]!, credit: a }] })
        })
        continue
      }
      // Three lines on two sides, some on a line's own sub-ledger.
      await post('payment_voucher', pick(DAYS), reference, [
        { ledger: others[0]!, debit: a },
        { ledger: others[2]!, debit: b, subLedger: random() < 0.5 ? subLedger : null },
        { ledger: pick([cash, bank]), credit: fromMinor(BigInt(Math.round(Number(a) * 100)) + BigInt(Math.round(Number(b) * 100))) },
      ], sub)
      standing.push(reference)
    }
    const { kept, summed } = await bothSides(db)
    expect(summed.length).toBeGreaterThan(10)
    expect(kept).toEqual(summed)
  })

  it('stay exact under 20 parallel postings on the same ledgers and days (none deadlocks)', async () => {
    // Each posting touches the same ledgers, listed in a different order, so each takes the same totals rows.
    const ledgers = [cash, bank, ...others]
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => {
        const order = i % 2 === 0 ? ledgers : [...ledgers].reverse()
        const [debitA, debitB, debitC, debitD, credit] = order as [number, number, number, number, number]
        // A payment's money leaves Cash or Bank: a journal keeps the rules simple for any order.
        const lines: PostingLine[] = [
          { ledger: debitA, debit: '1.00' },
          { ledger: debitB, debit: '2.00' },
          { ledger: debitC, debit: '3.00' },
          { ledger: debitD, debit: '4.00' },
          { ledger: credit, credit: '10.00' },
        ]
        return post('sales', DAYS[i % 2]!, `PAR-${kind}-${i}`, lines)
      }),
    )
    expect(results.filter((r) => r.status === 'rejected')).toEqual([])
    const { kept, summed } = await bothSides(db)
    expect(kept).toEqual(summed)
  })

  it('are filled by the migration from the rows already there', async () => {
    const before = await bothSides(db)
    // As a database had them before migration 6: rows and no totals.
    await sql`delete from ledger_day_total`.execute(db)
    await db.transaction().execute((trx) => migrations.find((m) => m.version === 6)!.up(trx))
    const after = await bothSides(db)
    expect(after.kept).toEqual(before.summed)
    // The trigger is in place again: a new posting is counted once.
    await post('journal', DAYS[3], `AFTER-${kind}`, [{ ledger: others[0]!, debit: '5.00' }, { ledger: others[2]!, credit: '5.00' }])
    const again = await bothSides(db)
    expect(again.kept).toEqual(again.summed)
  })

  it('give the ledger report and the trial balance the same figures as the rows', async () => {
    const { ledger_report: ledgerReport, trial_balance: trialBalance } = reportRegistry
    const rowSum = async (ledger: number, where: ReturnType<typeof sql>) =>
      (await sql<{ v: string }>`select coalesce(sum(debit_amount - credit_amount), 0)::numeric(20,2)::text as v from account_log where ledger = ${ledger} and ${where}`.execute(db)).rows[0]!.v
    const report = await t.current.call({ method: 'GET', url: `${ledgerReport.api.base}/?ledger=${others[2]}&date_after=${DAYS[1]}&date_before=${DAYS[2]}&size=5` })
    expect(report.status).toBe(200)
    expect(report.body.opening_balance).toBe(await rowSum(others[2]!, sql`log_date < ${DAYS[1]}::date`))
    expect(report.body.closing_balance).toBe(await rowSum(others[2]!, sql`log_date <= ${DAYS[2]}::date`))
    const inPeriod = Number((await sql<{ n: string }>`select count(*) as n from account_log where ledger = ${others[2]} and log_date between ${DAYS[1]}::date and ${DAYS[2]}::date`.execute(db)).rows[0]!.n)
    // The opening row, the period's rows and the closing row, numbered 0…n+1.
    expect(report.body.total_elements).toBe(inPeriod + 2)
    const last = await t.current.call({ method: 'GET', url: `${ledgerReport.api.base}/?ledger=${others[2]}&date_after=${DAYS[1]}&date_before=${DAYS[2]}&size=5&page=${Math.ceil((inPeriod + 2) / 5)}` })
    const closing = last.body.rows.at(-1)
    expect([closing.line_no, closing.log_type, closing.balance]).toEqual([inPeriod + 1, 'closing_balance', report.body.closing_balance])

    const onSub = await t.current.call({ method: 'GET', url: `${ledgerReport.api.base}/?ledger=${others[2]}&sub_ledger=${subLedger}&date_after=${DAYS[1]}&size=5` })
    expect(onSub.body.opening_balance).toBe(await rowSum(others[2]!, sql`sub_ledger = ${subLedger} and log_date < ${DAYS[1]}::date`))

    const tb = await t.current.call({ method: 'GET', url: `${trialBalance.api.base}/?date_after=${DAYS[1]}&date_before=${DAYS[2]}` })
    expect(tb.status).toBe(200)
    const summed = await sql<{ debit: string; credit: string }>`
      select sum(debit_amount)::numeric(20,2)::text as debit, sum(credit_amount)::numeric(20,2)::text as credit
      from account_log where log_date between ${DAYS[1]}::date and ${DAYS[2]}::date`.execute(db)
    expect([tb.body.totals.debit_amount, tb.body.totals.credit_amount].map((v: string) => Number(v).toFixed(2))).toEqual([summed.rows[0]!.debit, summed.rows[0]!.credit])
  })

  it('page by page, give every row of the period once, numbered, with the balance of the rows up to it', async () => {
    const { ledger_report: ledgerReport } = reportRegistry
    const ledger = others[2]!
    const [after, before] = [DAYS[1], DAYS[3]]
    // The statement worked out from the rows themselves.
    const all = await sql<{ id: number; net: string; log_date: string }>`
      select id, (debit_amount - credit_amount)::text as net, log_date::text as log_date from account_log where ledger = ${ledger} order by log_date, id`.execute(db)
    let running = 0n
    const expected: Array<{ id: number; balance: string }> = []
    let opening = '0.00'
    for (const row of all.rows) {
      if (row.log_date > before) break
      if (row.log_date < after) {
        running += BigInt(Math.round(Number(row.net) * 100))
        opening = fromMinor(running)
        continue
      }
      running += BigInt(Math.round(Number(row.net) * 100))
      expected.push({ id: row.id, balance: fromMinor(running) })
    }
    expect(expected.length).toBeGreaterThan(7)
    const periodSums = await sql<{ debit: string; credit: string }>`
      select sum(debit_amount)::text as debit, sum(credit_amount)::text as credit from account_log where ledger = ${ledger} and log_date between ${after}::date and ${before}::date`.execute(db)

    const size = 3
    const reportRows: Array<{ line_no: number; log_type: string; balance: string }> = []
    const contractRows: Array<{ id: number; balance: string }> = []
    for (let page = 1; ; page++) {
      const res = await t.current.call({ method: 'GET', url: `${ledgerReport.api.base}/?ledger=${ledger}&date_after=${after}&date_before=${before}&size=${size}&page=${page}` })
      expect(res.status).toBe(200)
      expect(res.body.totals).toEqual({ debit_amount: periodSums.rows[0]!.debit, credit_amount: periodSums.rows[0]!.credit })
      reportRows.push(...res.body.rows)
      if (page >= res.body.total_pages) break
    }
    for (let page = 1; ; page++) {
      const res = await t.current.call({ method: 'GET', url: `/account_log_report/api/v1/account_log_report/general/?ledger=${ledger}&date_after=${after}&date_before=${before}&size=${size}&page=${page}` })
      expect(res.status).toBe(200)
      expect(res.body.previous_balance).toBe(opening)
      contractRows.push(...res.body.account_logs.map((r: { id: number; balance: string }) => ({ id: r.id, balance: r.balance })))
      if (page >= res.body.total_pages) break
    }
    expect(reportRows.map((r) => r.line_no)).toEqual(Array.from({ length: expected.length + 2 }, (_, i) => i))
    expect(reportRows.map((r) => r.balance)).toEqual([opening, ...expected.map((e) => e.balance), expected.at(-1)!.balance])
    expect([reportRows[0]!.log_type, reportRows.at(-1)!.log_type]).toEqual(['opening_balance', 'closing_balance'])
    expect(contractRows).toEqual(expected)
    // A page past the end is the last page, whole.
    const past = await t.current.call({ method: 'GET', url: `${ledgerReport.api.base}/?ledger=${ledger}&date_after=${after}&date_before=${before}&size=${size}&page=999` })
    expect(past.body.rows).toEqual(reportRows.slice((past.body.page - 1) * size))
  })
})
