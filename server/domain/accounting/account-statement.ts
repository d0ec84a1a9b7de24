import { sql } from 'kysely'
import type { Executor } from '../../db/types'
import { ValidationError } from '../../engine/errors'
import { withMoreColumns, type ReportRun } from '../../engine/reports'
import type { Values } from '../../engine/validate'
import { statementReportRows, voucherIdOf, type LedgerStatementParams } from './ledger-report'
import { ledgersUnder } from './posting'

/**
 * The account statement and its summary (schema/reports/account-statement.ts): the cash
 * book is the statement of every ledger under Cash-in-Hand taken as one account, the bank
 * book of those under Bank Accounts (api-contract §6: "bank = ledgers under group Bank
 * Accounts"); a ledger named narrows either, or stands alone.
 */
export type AccountType = 'Cash' | 'Bank'

const GROUP_OF: Readonly<Record<AccountType, string>> = { Cash: 'Cash-in-Hand', Bank: 'Bank Accounts' }

const idOf = (v: unknown): number | null => (typeof v === 'number' ? v : null)
const dateOf = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

export async function ledgersOfType(db: Executor, type: AccountType): Promise<number[]> {
  const found = await sql<{ id: number }>`select id from (${ledgersUnder([GROUP_OF[type]])}) l order by id`.execute(db)
  return found.rows.map((r) => Number(r.id))
}

/**
 * Which ledgers a statement's parameters ask for: those of the account type (narrowed to the
 * ledger named, which then must be one of them: another ledger gives no lines), or the ledger
 * named; neither, with `anyLedger`, every ledger (a sub-ledger's statement).
 */
export async function statementOf(db: Executor, params: Values, anyLedger = false): Promise<LedgerStatementParams> {
  const type = params.account_type === 'Cash' || params.account_type === 'Bank' ? params.account_type : null
  const ledger = idOf(params.ledger)
  const ofType = type ? await ledgersOfType(db, type) : null
  const ledgers = ofType ? (ledger === null ? ofType : ofType.filter((id) => id === ledger)) : ledger === null ? null : [ledger]
  if (ledgers === null && !anyLedger) throw new ValidationError({ account_type: [{ key: 'validation.statement_account' }] })
  return { ledgers, subLedger: idOf(params.sub_ledger), dateAfter: dateOf(params.date_after), dateBefore: dateOf(params.date_before) }
}

// A line's reference opens its voucher, as the ledger report's.
export const accountStatementRows: ReportRun = async (args) =>
  withMoreColumns(await statementReportRows(args, await statementOf(args.db, args.params)), sql`${voucherIdOf(args.registry)} as voucher_id`)

/** One kind of account's totals over the period, from the day totals the database keeps. */
const totalsOf = (type: AccountType, start: string, end: string) => sql`
  select ${type}::text as account_type,
    round(coalesce(sum(t.debit_amount - t.credit_amount) filter (where t.log_date < ${start}::date), 0), 2) as opening_balance,
    round(coalesce(sum(t.debit_amount) filter (where t.log_date >= ${start}::date), 0), 2) as debit_amount,
    round(coalesce(sum(t.credit_amount) filter (where t.log_date >= ${start}::date), 0), 2) as credit_amount,
    round(coalesce(sum(t.debit_amount - t.credit_amount), 0), 2) as closing_balance
  from ledger_day_total t
  where t.ledger in (${ledgersUnder([GROUP_OF[type]])}) and t.log_date <= ${end}::date`

/** The cash and the bank rows of the summary, for validated parameters. */
export function accountStatementTotals(params: Values) {
  const [start, end] = [String(params.start_date), String(params.end_date)]
  return sql`${totalsOf('Cash', start, end)} union all ${totalsOf('Bank', start, end)}`
}

export const accountStatementSummaryRows: ReportRun = ({ params }) => accountStatementTotals(params)
