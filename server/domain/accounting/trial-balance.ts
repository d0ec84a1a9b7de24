import { sql, type RawBuilder } from 'kysely'
import type { ReportRun } from '../../engine/reports'
import { ledgerHeads } from './financial-statements'
import { fiscalYearStartMonth, fiscalYearStartOf } from './fiscal-year'

/**
 * The trial balance (schema/reports/trial-balance.ts): per ledger account, the net balance
 * before the period on its side, the period's debits and credits, and the net closing
 * balance on its side; under the ledger's group (or primary group). Every posting and every
 * reversal balances on its own date, so each pair of columns ties for any period. It reads the
 * per-ledger per-day totals the database keeps with every posting (`ledger_day_total`,
 * migration 6): a few rows per ledger and day, however many general-ledger rows they sum.
 * Sums are shown to the cent by `round(…, 2)`, never cast to the column's `numeric(20,2)`: a
 * sum of amounts that each fit the column need not fit it.
 *
 * The income and expense ledgers open at nothing at the start of the fiscal year of the
 * period's start (domain-anchors §6 rule 27): what they hold from before it is the earlier
 * years' profit, brought forward in the opening of the Profit & Loss A/C ledger (retained
 * earnings, as the balance sheet shows it), so the opening columns still tie. A period with
 * no start has no opening: every posting up to its end is in the period's columns.
 */
export const trialBalanceRows: ReportRun = async ({ db, params, registry }) => {
  const after = typeof params.date_after === 'string' ? params.date_after : null
  const before = typeof params.date_before === 'string' ? params.date_before : null
  const isShowingZero = params.show_zero === 'yes'
  const yearStart = after === null ? null : fiscalYearStartOf(after, await fiscalYearStartMonth(db, registry))
  return sql`
    with ${yearStart === null ? sql`` : sql`heads as (${ledgerHeads()}), pl as (select id from heads where nature in ('incomes', 'expenses')), `}s as (
      select t.ledger,
        coalesce(sum(t.debit_amount - t.credit_amount) filter (where ${openingOf(after, yearStart)}), 0) as opening,
        coalesce(sum(t.debit_amount) filter (where ${after}::date is null or t.log_date >= ${after}::date), 0) as debit,
        coalesce(sum(t.credit_amount) filter (where ${after}::date is null or t.log_date >= ${after}::date), 0) as credit
      from ledger_day_total t ${yearStart === null ? sql`` : sql`left join pl on pl.id = t.ledger`}
      where ${before}::date is null or t.log_date <= ${before}::date
      group by t.ledger
    ), ${carriedOf(yearStart)}, b as (
      select l.name as ledger, coalesce(g.name, p.name, '') as group_name,
        coalesce(s.opening, 0) + case when l.id = c.ledger then c.net else 0 end as opening, coalesce(s.debit, 0) as debit, coalesce(s.credit, 0) as credit
      from ledger_account l
      left join s on s.ledger = l.id
      cross join carried c
      left join "group" g on g.id = l.head_group
      left join primary_group p on p.id = l.head_primarygroup
      where ${isShowingZero}::boolean or s.ledger is not null or (l.id = c.ledger and c.net <> 0)
    )
    select ledger, group_name,
      round(greatest(opening, 0), 2) as opening_debit, round(greatest(-opening, 0), 2) as opening_credit,
      round(debit, 2) as debit_amount, round(credit, 2) as credit_amount,
      round(greatest(opening + debit - credit, 0), 2) as closing_debit, round(greatest(credit - debit - opening, 0), 2) as closing_credit
    from b`
}

/** The rows (`t`, with `pl` the income and expense ledgers) in the opening: before the period and, an income or expense ledger's, within its fiscal year. */
function openingOf(after: string | null, yearStart: string | null): RawBuilder<unknown> {
  if (yearStart === null) return sql`t.log_date < ${after}::date`
  return sql`t.log_date < ${after}::date and (pl.id is null or t.log_date >= ${yearStart}::date)`
}

/** `carried`: the earlier years' profit as debit minus credit (`net`), and the ledger it is brought forward in (`ledger`). */
function carriedOf(yearStart: string | null): RawBuilder<unknown> {
  if (yearStart === null) return sql`carried as (select null::bigint as ledger, 0::numeric as net)`
  return sql`carried as (
    select (select id from heads where is_retained) as ledger, coalesce(sum(t.debit_amount - t.credit_amount), 0) as net
    from ledger_day_total t join pl on pl.id = t.ledger
    where t.log_date < ${yearStart}::date
  )`
}
