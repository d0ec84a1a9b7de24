import { sql, type RawBuilder } from 'kysely'
import type { Executor } from '../../db/types'
import type { ReportRun } from '../../engine/reports'
import type { Values } from '../../engine/validate'

/**
 * The ledger report (schema/reports/ledger-report.ts) and the contract's
 * `account_log_report/…/general/`: one ledger's rows in a period, each with its running
 * balance (debit minus credit), after the balance brought forward from before the period.
 * Rows are in date order, then in the order they were posted (domain-anchors §6 rule 26).
 */
export type LedgerStatementParams = { ledger: number; subLedger: number | null; dateAfter: string | null; dateBefore: string | null }

export const statementParamsOf = (params: Values): LedgerStatementParams => ({
  ledger: Number(params.ledger),
  subLedger: params.sub_ledger == null ? null : Number(params.sub_ledger),
  dateAfter: typeof params.date_after === 'string' ? params.date_after : null,
  dateBefore: typeof params.date_before === 'string' ? params.date_before : null,
})

/** The rows of the ledger (and sub-ledger) the statement reads: before the period's end, or all of them. */
function ledgerRows(p: LedgerStatementParams): RawBuilder<unknown> {
  return sql`a.ledger = ${p.ledger}::bigint
    and (${p.subLedger}::bigint is null or a.sub_ledger = ${p.subLedger}::bigint)
    and (${p.dateBefore}::date is null or a.log_date <= ${p.dateBefore}::date)`
}

const inPeriod = (p: LedgerStatementParams) => sql`(${p.dateAfter}::date is null or a.log_date >= ${p.dateAfter}::date)`

/** The balances before and at the end of the period, as decimal strings. */
export async function statementBalances(db: Executor, p: LedgerStatementParams): Promise<{ opening: string; closing: string }> {
  const r = await sql<{ opening: string; closing: string }>`
    select coalesce(sum(a.debit_amount - a.credit_amount) filter (where not ${inPeriod(p)}), 0)::numeric(20,2)::text as opening,
      coalesce(sum(a.debit_amount - a.credit_amount), 0)::numeric(20,2)::text as closing
    from account_log a where ${ledgerRows(p)}`.execute(db)
  return { opening: r.rows[0]?.opening ?? '0.00', closing: r.rows[0]?.closing ?? '0.00' }
}

/**
 * The period's rows with `line_no` (1…n, the statement's order), the other ledgers of the
 * same voucher (names, in order) and the running `balance` from `opening`.
 */
export function statementRows(p: LedgerStatementParams, opening: string): RawBuilder<unknown> {
  return sql`
    select row_number() over w as line_no, a.id, a.ledger, a.sub_ledger, a.branch, a.reference_no, a.log_type,
      a.debit_amount, a.credit_amount, a.log_date, a.details, a.reverses, a.created_at, a.updated_at,
      (select array_agg(distinct l.name order by l.name) from account_log o join ledger_account l on l.id = o.ledger
        where o.reference_no = a.reference_no and o.ledger <> a.ledger) as related,
      (${opening}::numeric + sum(a.debit_amount - a.credit_amount) over w)::numeric(20,2) as balance
    from account_log a
    where ${ledgerRows(p)} and ${inPeriod(p)}
    window w as (order by a.log_date, a.id rows between unbounded preceding and current row)`
}

/**
 * The registry report's rows: the opening row (number 0, dated the period's start), the
 * period's rows, and the closing row (numbered after them, dated the period's end). The
 * opening and closing have no amounts, so the totals are the period's movement.
 */
export const ledgerReportRows: ReportRun = async ({ db, params }) => {
  const p = statementParamsOf(params)
  const { opening, closing } = await statementBalances(db, p)
  const query = sql`
    with r as (${statementRows(p, opening)})
    select 0::bigint as line_no, ${p.dateAfter}::date as log_date, null::text as reference_no, 'opening_balance' as log_type,
      null::text as related_ledgers, null::text as details, null::numeric as debit_amount, null::numeric as credit_amount, ${opening}::numeric(20,2) as balance
    union all
    select r.line_no, r.log_date, r.reference_no, r.log_type, array_to_string(r.related, ', '), r.details, r.debit_amount, r.credit_amount, r.balance from r
    union all
    select (select count(*) from r) + 1, ${p.dateBefore}::date, null, 'closing_balance', null, null, null, null, ${closing}::numeric(20,2)`
  return { query, extra: { opening_balance: opening, closing_balance: closing } }
}
