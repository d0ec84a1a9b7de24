import { sql } from 'kysely'
import type { ReportRun } from '../../engine/reports'

/**
 * The trial balance (schema/reports/trial-balance.ts): per ledger account, the net balance
 * before the period on its side, the period's debits and credits, and the net closing
 * balance on its side; under the ledger's group (or primary group). Every posting and every
 * reversal balances on its own date, so each pair of columns ties for any period. It reads the
 * per-ledger per-day totals the database keeps with every posting (`ledger_day_total`,
 * migration 6): a few rows per ledger and day, however many general-ledger rows they sum.
 * Sums are shown to the cent by `round(…, 2)`, never cast to the column's `numeric(20,2)`: a
 * sum of amounts that each fit the column need not fit it.
 */
export const trialBalanceRows: ReportRun = ({ params }) => {
  const after = typeof params.date_after === 'string' ? params.date_after : null
  const before = typeof params.date_before === 'string' ? params.date_before : null
  const isShowingZero = params.show_zero === 'yes'
  return sql`
    with s as (
      select t.ledger,
        coalesce(sum(t.debit_amount - t.credit_amount) filter (where t.log_date < ${after}::date), 0) as opening,
        coalesce(sum(t.debit_amount) filter (where ${after}::date is null or t.log_date >= ${after}::date), 0) as debit,
        coalesce(sum(t.credit_amount) filter (where ${after}::date is null or t.log_date >= ${after}::date), 0) as credit
      from ledger_day_total t
      where ${before}::date is null or t.log_date <= ${before}::date
      group by t.ledger
    ), b as (
      select l.name as ledger, coalesce(g.name, p.name, '') as group_name,
        coalesce(s.opening, 0) as opening, coalesce(s.debit, 0) as debit, coalesce(s.credit, 0) as credit
      from ledger_account l
      left join s on s.ledger = l.id
      left join "group" g on g.id = l.head_group
      left join primary_group p on p.id = l.head_primarygroup
      where ${isShowingZero}::boolean or s.ledger is not null
    )
    select ledger, group_name,
      round(greatest(opening, 0), 2) as opening_debit, round(greatest(-opening, 0), 2) as opening_credit,
      round(debit, 2) as debit_amount, round(credit, 2) as credit_amount,
      round(greatest(opening + debit - credit, 0), 2) as closing_debit, round(greatest(credit - debit - opening, 0), 2) as closing_credit
    from b`
}
