import { sql, type RawBuilder } from 'kysely'
import { voucherSpecs } from '../../../schema/entities/accounting/vouchers'
import type { Executor } from '../../db/types'
import type { Registry } from '../../engine/list-query'
import { withMoreColumns, type ReportRun, type ReportSource } from '../../engine/reports'
import type { Values } from '../../engine/validate'

/**
 * The ledger report (schema/reports/ledger-report.ts) and the contract's
 * `account_log_report/…/general/`: one ledger's rows in a period, each with its running
 * balance (debit minus credit), after the balance brought forward from before the period.
 * Rows are in date order, then in the order they were posted (domain-anchors §6 rule 26).
 *
 * A busy ledger has hundreds of thousands of rows in a year (bench/RESULTS.md, "Accounting"),
 * and a screen shows a page of them, so the queries are built for that:
 * - the balances brought forward and carried, and the period's number of rows, come from the
 *   per-day totals the database keeps (`ledger_day_total`, migration 6), not from the rows;
 * - a page's rows are numbered from the index on `(ledger, log_date, id)`, which carries the
 *   amounts, so no table row is read for it: from the day of the page's first line (found in
 *   the day totals) to its last line, however deep the page;
 * - what a row shows besides (its running balance, reference, kind, details, the voucher's
 *   other ledgers) is read for the page's rows alone, by the row's id and date. A row's balance
 *   is the opening, the day totals of the period's earlier days and the rows of its day up to it.
 * Balances and sums are shown to the cent by `round(…, 2)`, never cast to the column's
 * `numeric(20,2)`: a sum of amounts that each fit the column need not fit it.
 */
/**
 * The statement's ledgers: one (the ledger report), several taken as one account (the cash
 * or bank statement: every ledger under Cash-in-Hand or Bank Accounts), or every ledger (null:
 * a sub-ledger's statement).
 */
export type LedgerStatementParams = { ledgers: readonly number[] | null; subLedger: number | null; dateAfter: string | null; dateBefore: string | null }

export const statementParamsOf = (params: Values): LedgerStatementParams => ({
  ledgers: [Number(params.ledger)],
  subLedger: params.sub_ledger == null ? null : Number(params.sub_ledger),
  dateAfter: typeof params.date_after === 'string' ? params.date_after : null,
  dateBefore: typeof params.date_before === 'string' ? params.date_before : null,
})

/**
 * Rows (of alias `alias`) of the statement's ledgers. One ledger is compared as one value, not
 * as a list of one: the index on `(ledger, log_date, id)` then gives its rows in date order
 * with no sort, which is what keeps a deep page of a busy ledger fast.
 */
function inLedgers(alias: string, p: LedgerStatementParams): RawBuilder<unknown> {
  const ledger = sql.ref(`${alias}.ledger`)
  if (p.ledgers === null) return sql`true`
  return p.ledgers.length === 1 ? sql`${ledger} = ${p.ledgers[0]}::bigint` : sql`${ledger} = any(${[...p.ledgers]}::bigint[])`
}

/** The rows (alias `a`) or the day totals (alias `t`) of the ledgers and sub-ledger, up to the period's end. */
function ofLedger(alias: 'a' | 't', p: LedgerStatementParams): RawBuilder<unknown> {
  const col = (name: string) => sql.ref(`${alias}.${name}`)
  // The totals keep "no sub-ledger" as 0; a sub-ledger asked for is an id, never 0.
  return sql`${inLedgers(alias, p)}
    and (${p.subLedger}::bigint is null or ${col('sub_ledger')} = ${p.subLedger}::bigint)
    and (${p.dateBefore}::date is null or ${col('log_date')} <= ${p.dateBefore}::date)`
}

const inPeriod = (alias: 'a' | 't', p: LedgerStatementParams) => sql`(${p.dateAfter}::date is null or ${sql.ref(`${alias}.log_date`)} >= ${p.dateAfter}::date)`

export type StatementBalances = {
  /** The balances before and at the end of the period, as decimal strings. */
  opening: string
  closing: string
  /** The period's number of rows and its debits and credits (as a sum over its rows gives them: `0` when none). */
  rows: number
  debit: string
  credit: string
}

export async function statementBalances(db: Executor, p: LedgerStatementParams): Promise<StatementBalances> {
  const r = await sql<{ opening: string; closing: string; rows: string; debit: string; credit: string }>`
    select round(coalesce(sum(t.debit_amount - t.credit_amount) filter (where not ${inPeriod('t', p)}), 0), 2)::text as opening,
      round(coalesce(sum(t.debit_amount - t.credit_amount), 0), 2)::text as closing,
      coalesce(sum(t.row_count) filter (where ${inPeriod('t', p)}), 0)::bigint as rows,
      coalesce(sum(t.debit_amount) filter (where ${inPeriod('t', p)}), 0)::text as debit,
      coalesce(sum(t.credit_amount) filter (where ${inPeriod('t', p)}), 0)::text as credit
    from ledger_day_total t where ${ofLedger('t', p)}`.execute(db)
  const row = r.rows[0]
  return { opening: row?.opening ?? '0.00', closing: row?.closing ?? '0.00', rows: Number(row?.rows ?? 0), debit: row?.debit ?? '0', credit: row?.credit ?? '0' }
}

/**
 * Where a run of lines starts: the period's day that holds the first line, and the number of
 * the period's rows before that day (from the day totals). `day` null: the period's start.
 */
export type LinesStart = { day: string | null; before: number }

/** The period's lines `first`…`last` (`last` null: to the end), and where they start. */
export type Lines = { first: number; last: number | null; start: LinesStart }

const everyLine: Lines = { first: 1, last: null, start: { day: null, before: 0 } }

/** Where line `first` of the period is (lines are numbered from 1). */
export async function linesStart(db: Executor, p: LedgerStatementParams, first: number): Promise<LinesStart> {
  if (first <= 1) return everyLine.start
  const r = await sql<{ day: string; before: string }>`
    select d.log_date::text as day, d.before from (
      select t.log_date, sum(sum(t.row_count)) over (order by t.log_date) - sum(t.row_count) as before
      from ledger_day_total t where ${ofLedger('t', p)} and ${inPeriod('t', p)}
      group by t.log_date
    ) d
    where d.before < ${first}
    order by d.log_date desc limit 1`.execute(db)
  const row = r.rows[0]
  return row ? { day: row.day, before: Number(row.before) } : everyLine.start
}

/**
 * The period's lines `lines.first`…`lines.last` as the index gives them (id, ledger,
 * sub-ledger, branch, date, amounts), numbered (`line_no`): the index is read from the day of
 * the first line, and its scan stops after the last (PostgreSQL ends a window's run there).
 * The LIMIT (as many as the lines asked for) changes no result: it tells the planner how few
 * rows come, which keeps it from compiling the page's query with JIT as if all came.
 */
function numberedRows(p: LedgerStatementParams, lines: Lines): RawBuilder<unknown> {
  const { day, before } = lines.start
  return sql`
    select ${before}::bigint + w.rn as line_no, w.id, w.ledger, w.sub_ledger, w.branch, w.log_date, w.debit_amount, w.credit_amount
    from (
      select row_number() over (order by a.log_date, a.id) as rn, a.id, a.ledger, a.sub_ledger, a.branch, a.log_date, a.debit_amount, a.credit_amount
      from account_log a
      where ${ofLedger('a', p)} and ${inPeriod('a', p)} and (${day}::date is null or a.log_date >= ${day}::date)
    ) w
    where w.rn >= ${lines.first - before}::bigint and (${lines.last}::bigint is null or w.rn <= ${lines.last === null ? null : lines.last - before}::bigint)
    ${lines.last === null ? sql`` : sql`limit ${Math.max(0, lines.last - lines.first + 1)}`}`
}

/**
 * The running balance at row `n` (alias `n`: its id, ledger and date): `opening`, then the
 * period's days before the row's (from the day totals), then the rows of its day up to it.
 */
function balanceOf(p: LedgerStatementParams, opening: string): RawBuilder<unknown> {
  const sub = (alias: 't' | 'd') => sql`(${p.subLedger}::bigint is null or ${sql.ref(`${alias}.sub_ledger`)} = ${p.subLedger}::bigint)`
  return sql`round(${opening}::numeric
    + coalesce((select sum(t.debit_amount - t.credit_amount) from ledger_day_total t
        where ${inLedgers('t', p)} and ${sub('t')} and ${inPeriod('t', p)} and t.log_date < n.log_date), 0)
    + coalesce((select sum(d.debit_amount - d.credit_amount) from account_log d
        where ${inLedgers('d', p)} and ${sub('d')} and d.log_date = n.log_date and d.id <= n.id), 0), 2)`
}

/** A column of the row `n.id` (alias `n`), read for that row alone. */
const columnOf = (column: string) => sql`(select x.${sql.ref(column)} from account_log x where x.id = n.id)`

/** The other ledgers of the voucher of row `n` (names, in order). */
const relatedOf = sql`(select array_agg(distinct l.name order by l.name)
  from account_log x join account_log o on o.reference_no = x.reference_no join ledger_account l on l.id = o.ledger
  where x.id = n.id and o.ledger <> n.ledger)`

/**
 * The period's rows with `line_no` (1…n, the statement's order), the other ledgers of the
 * same voucher (`related`: names, in order) and the running `balance` from `opening`: every
 * line, or `lines` only (a page's, with `linesStart`).
 */
export function statementRows(p: LedgerStatementParams, opening: string, lines: Lines = everyLine): RawBuilder<unknown> {
  return sql`
    select n.line_no, n.id, n.ledger, n.sub_ledger, n.branch, ${columnOf('reference_no')} as reference_no, ${columnOf('log_type')} as log_type,
      n.debit_amount, n.credit_amount, n.log_date, ${columnOf('details')} as details, ${columnOf('reverses')} as reverses,
      ${columnOf('created_at')} as created_at, ${columnOf('updated_at')} as updated_at, ${relatedOf} as related, ${balanceOf(p, opening)} as balance
    from (${numberedRows(p, lines)}) n`
}

/**
 * The registry report's rows: the opening row (number 0, dated the period's start), the
 * period's rows, and the closing row (numbered after them, dated the period's end). The
 * opening and closing have no amounts, so the totals are the period's movement. Its count and
 * totals come from the day totals, and for a page it gives that page's rows alone.
 */
export const ledgerReportRows: ReportRun = async (args) =>
  withMoreColumns(await statementReportRows(args, statementParamsOf(args.params)), sql`${voucherIdOf(args.registry)} as voucher_id`)

/**
 * The id of a row of the voucher of a statement's line `r` (its form opens by any of them):
 * what the ledger report's drill-down from a line to its voucher opens. Null for the opening
 * and closing rows, a voucher that is gone, or a reference that is no voucher's number. The
 * voucher is looked up by its number on the day the number names (a voucher moved to another
 * day takes that day's number), so the index of its date finds it: its number has none.
 */
export function voucherIdOf(registry: Registry): RawBuilder<unknown> {
  const ref = sql.ref('r.reference_no')
  const kinds = voucherSpecs.filter((spec) => registry.some((e) => e.name === spec.kind))
  if (kinds.length === 0) return sql`null::bigint`
  const cases = kinds.map(({ kind, prefix, dateField }) => {
    const part = (from: number, length: number) => sql`substr(${ref}, ${sql.lit(prefix.length + from)}, ${sql.lit(length)})::int`
    // The month's first day plus the day's number: a number naming no real day finds nothing rather than failing.
    const day = sql`make_date(${part(1, 4)}, ${part(5, 2)}, 1) + (${part(7, 2)} - 1)`
    const shape = `^${prefix}[1-9][0-9]{3}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])00[1-9][0-9]*$`
    return sql`when r.log_type = ${kind} and ${ref} ~ ${shape}
      then (select min(v.id) from ${sql.id(kind)} v where v.${sql.ref(dateField)} = ${day} and v.invoice_no = ${ref})`
  })
  return sql`case ${sql.join(cases, sql` `)} end`
}

/** The statement of `p`'s ledgers as a report's rows; of several ledgers, each line names its own (`ledger`). */
export async function statementReportRows({ db, page }: Parameters<ReportRun>[0], p: LedgerStatementParams): Promise<ReportSource> {
  const { opening, closing, rows, debit, credit } = await statementBalances(db, p)
  const count = rows + 2
  // Line 0 is the opening, line rows + 1 the closing: page k shows lines (k − 1)·size … k·size − 1; a page past the end is the last (as the engine clamps it).
  const pageNo = page ? Math.min(page.page, Math.max(1, Math.ceil(count / page.size))) : 1
  const firstLine = page ? (pageNo - 1) * page.size : 0
  const lastLine = page ? pageNo * page.size - 1 : rows + 1
  const first = Math.max(1, firstLine)
  const lines: Lines = { first, last: Math.min(rows, lastLine), start: await linesStart(db, p, first) }
  // Every branch of the union gives the same types, so PostgreSQL plans each on its own.
  const query = sql`
    select n.line_no, n.log_date,
      case when n.id is null then null else ${columnOf('reference_no')}::text end as reference_no,
      coalesce(n.kind, ${columnOf('log_type')}::text) as log_type,
      case when n.id is null then null else array_to_string(${relatedOf}, ', ') end as related_ledgers,
      case when n.id is null then null else ${columnOf('details')} end as details,
      n.debit_amount, n.credit_amount,
      case when n.id is null then n.balance else ${balanceOf(p, opening)} end as balance
      ${p.ledgers?.length === 1 ? sql`` : sql`, (select l.name from ledger_account l where l.id = n.ledger) as ledger`}
    from (
      select 0::bigint as line_no, null::bigint as id, null::bigint as ledger, ${p.dateAfter}::date as log_date, 'opening_balance'::text as kind,
        null::numeric as debit_amount, null::numeric as credit_amount, round(${opening}::numeric, 2) as balance
      where ${firstLine === 0}::boolean
      union all
      select r.line_no, r.id, r.ledger, r.log_date, null::text, r.debit_amount, r.credit_amount, null::numeric from (${numberedRows(p, lines)}) r
      union all
      select ${rows + 1}::bigint, null::bigint, null::bigint, ${p.dateBefore}::date, 'closing_balance'::text, null::numeric, null::numeric, round(${closing}::numeric, 2)
      where ${lastLine >= rows + 1}::boolean
    ) n`
  return { query, extra: { opening_balance: opening, closing_balance: closing }, summary: { count, totals: { debit_amount: debit, credit_amount: credit } } }
}
