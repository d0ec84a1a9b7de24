import { sql } from 'kysely'
import { registry } from '../schema'
import type { Db } from '../server/db/types'

/**
 * The accounting bench's chart and vouchers: a few ledgers beside the seeded Cash and Bank,
 * vouchers of four kinds (payment with two debit lines and a cash or bank credit, receipt,
 * journal, contra) over one year, and the bulk rows that bring the general ledger to its
 * size. Cash is the busy ledger: about a quarter of all rows.
 */
export const YEAR = 2025
const DAYS_IN_YEAR = 365

export type BenchLedgers = {
  cash: number
  bank: number
  expenses: number[]
  incomes: number[]
  payable: number
}

const EXPENSES = ['Office Rent', 'Electricity', 'Salaries', 'Stationery', 'Travel'] as const
const INCOMES = ['Service Income', 'Interest Income'] as const

async function ledgerUnder(db: Db, name: string, group: string): Promise<number> {
  return (await sql<{ id: number }>`insert into ledger_account (name, head_group) values (${name}, (select id from "group" where name = ${group})) returning id`.execute(db)).rows[0]!.id
}

const seeded = async (db: Db, name: string) => (await sql<{ id: number }>`select id from ledger_account where name = ${name} and is_deletable = false`.execute(db)).rows[0]!.id

export async function createLedgers(db: Db): Promise<BenchLedgers> {
  const expenses: number[] = []
  for (const name of EXPENSES) expenses.push(await ledgerUnder(db, name, 'Indirect Expenses'))
  const incomes: number[] = []
  for (const name of INCOMES) incomes.push(await ledgerUnder(db, name, 'Indirect Incomes'))
  return { cash: await seeded(db, 'Cash'), bank: await seeded(db, 'Bank'), expenses, incomes, payable: await ledgerUnder(db, 'Accrued Expenses', 'Provisions') }
}

/** The `i`-th day of the year as `YYYY-MM-DD` (a multiplicative walk, so consecutive vouchers land on different days). */
export function dayOf(i: number): string {
  const d = new Date(Date.UTC(YEAR, 0, 1 + ((i * 7919) % DAYS_IN_YEAR)))
  return d.toISOString().slice(0, 10)
}

/** A deterministic amount of 1.00–9,999.99 as a decimal string. */
const amountOf = (i: number) => {
  const cents = 100 + ((i * 104_729) % 999_900)
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
}
const centsOf = (amount: string) => Math.round(Number(amount) * 100)
const sumOf = (a: string, b: string) => {
  const c = centsOf(a) + centsOf(b)
  return `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`
}

type Line = { ledger: number; debit_amount?: string; credit_amount?: string }
export type VoucherRequest = { kind: string; path: string; body: Record<string, unknown> }

/**
 * The `i`-th voucher of the mix: 4 payments, 3 receipts, 2 journals and 1 contra in every
 * ten; payments and receipts go through Cash four times in five, else Bank.
 */
export function voucherOf(i: number, l: BenchLedgers): VoucherRequest {
  const slot = i % 10
  const money = i % 5 === 0 ? l.bank : l.cash
  const a = amountOf(i)
  const b = amountOf(i + 1)
  let kind: 'payment_voucher' | 'receipt_voucher' | 'journal' | 'contra'
  let items: Line[]
  if (slot < 4) {
    kind = 'payment_voucher'
    items = [
      { ledger: l.expenses[i % l.expenses.length]!, debit_amount: a },
      { ledger: l.expenses[(i + 2) % l.expenses.length]!, debit_amount: b },
      { ledger: money, credit_amount: sumOf(a, b) },
    ]
  } else if (slot < 7) {
    kind = 'receipt_voucher'
    items = [
      { ledger: money, debit_amount: a },
      { ledger: l.incomes[i % l.incomes.length]!, credit_amount: a },
    ]
  } else if (slot < 9) {
    kind = 'journal'
    items = [
      { ledger: l.expenses[i % l.expenses.length]!, debit_amount: a },
      { ledger: l.payable, credit_amount: a },
    ]
  } else {
    kind = 'contra'
    const [from, to] = i % 20 === 9 ? [l.cash, l.bank] : [l.bank, l.cash]
    items = [
      { ledger: to, debit_amount: a },
      { ledger: from, credit_amount: a },
    ]
  }
  const dateField = { payment_voucher: 'payment_date', receipt_voucher: 'receipt_date', journal: 'journal_date', contra: 'contra_date' }[kind]
  return { kind, path: `${registry[kind].api.base}/create/`, body: { [dateField]: dayOf(i), details: `bench ${i}`, items } }
}

/**
 * Adds balanced pairs of rows straight into `account_log` until it holds `target` rows (the
 * triggers allow inserts: only UPDATE, DELETE and TRUNCATE are refused), in statements of
 * `batch` rows, with the vouchers' mix of ledgers: each pair is a debit and a credit of one
 * amount on one day, so the ledger stays balanced. Returns the rows added.
 */
export async function fillLedger(db: Db, l: BenchLedgers, target: number, batch = 100_000): Promise<number> {
  const existing = Number((await sql<{ n: string }>`select count(*) as n from account_log`.execute(db)).rows[0]!.n)
  const pairs = Math.floor(Math.max(0, target - existing) / 2)
  // (debit, credit) ledger pairs in the proportions of the vouchers' legs: Cash in about a quarter of the rows.
  const e = l.expenses
  const mix: Array<[number, number]> = [
    [e[0]!, l.cash], [e[1]!, l.cash], [e[2]!, l.cash], [e[3]!, l.bank], [e[4]!, l.cash],
    [l.cash, l.incomes[0]!], [l.cash, l.incomes[1]!], [l.bank, l.incomes[0]!],
    [e[0]!, l.payable], [e[1]!, l.payable], [e[2]!, l.payable], [e[3]!, l.payable], [e[4]!, l.payable],
    [e[0]!, l.payable], [l.bank, l.cash], [l.cash, l.bank], [e[2]!, l.payable], [e[3]!, l.payable],
  ]
  const debits = mix.map((m) => m[0])
  const credits = mix.map((m) => m[1])
  const perBatch = Math.max(1, Math.floor(batch / 2))
  for (let done = 0; done < pairs; done += perBatch) {
    const n = Math.min(perBatch, pairs - done)
    await sql`
      insert into account_log (ledger, reference_no, log_type, debit_amount, credit_amount, log_date, details)
      select case when side = 1 then (${debits}::bigint[])[1 + g % ${mix.length}::int] else (${credits}::bigint[])[1 + g % ${mix.length}::int] end,
        'BULK' || g, 'journal',
        case when side = 1 then amount else 0 end, case when side = 2 then amount else 0 end,
        make_date(${YEAR}::int, 1, 1) + ((g::bigint * 7919) % ${DAYS_IN_YEAR}::int)::int, 'bench bulk row'
      from generate_series(${done + 1}::int, ${done + n}::int) g
      cross join lateral (select ((100 + (g::bigint * 104729) % 999900) / 100.0)::numeric(20,2) as amount) x
      cross join (values (1), (2)) s(side)
      order by g, side`.execute(db)
  }
  // Visibility for index-only scans, and statistics for every table the reports read. VACUUM
  // marks a page all-visible only once its inserts' commit is on disk, which the bench's
  // cluster (synchronous_commit=off) does lazily: a checkpoint first.
  await sql`checkpoint`.execute(db)
  await sql`vacuum account_log`.execute(db)
  await sql`analyze`.execute(db)
  return pairs * 2
}
