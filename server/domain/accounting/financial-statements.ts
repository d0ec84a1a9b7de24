import { sql, type RawBuilder } from 'kysely'
import type { Executor } from '../../db/types'
import type { ReportRun, ReportSummary } from '../../engine/reports'
import { fiscalYearStartMonth, fiscalYearStartOf, today } from './fiscal-year'

/**
 * The profit and loss account and the balance sheet (schema/reports/financial-statements.ts;
 * domain-anchors §1.7, §6 rules 28–29), read from the per-ledger per-day totals the database
 * keeps with every posting (`ledger_day_total`), as the trial balance is. A ledger's side is
 * its nature, the primary group at the root of its tree; equity is what stands under the
 * Capital Account group. There are no closing entries: the earlier years' profit is worked
 * out on read and shown with the Profit & Loss A/C ledger the chart seeds for it (retained
 * earnings), the current year's as the provisional profit or loss. Every posting balances,
 * so assets always equal liabilities, equity and profit; the answer carries the check.
 * Sums are shown to the cent by `round(…, 2)`, as the trial balance's are.
 */

/** The seeded group whose tree is the owners' equity, and the seeded ledger that holds the profit of earlier years (server/domain/accounting/chart-seed.ts). */
const CAPITAL_GROUP = 'Capital Account'
const RETAINED_EARNINGS_LEDGER = 'Profit & Loss A/C'

// Deeper than any real chart; it stops the walk should a cycle ever have been stored.
const MAX_DEPTH = 100

/** How a group path reads in a row: the primary group's group first. */
const PATH_SEPARATOR = ' › '

/**
 * Every ledger account's place in the chart, as rows (`id`, `name`, `nature` — the root
 * primary group's name in lower case, as `natures` spells it —, `path` — the names of its
 * groups from the primary group down —, `is_capital`, `is_retained`): the groups are walked
 * down from the primary groups once, a few dozen rows, and the ledgers joined to them.
 */
export function ledgerHeads(): RawBuilder<unknown> {
  return sql`
    with recursive tree (id, primary_id, path, is_capital) as (
      select g.id, g.head_primarygroup, array[g.name::text], g.name = ${CAPITAL_GROUP}
      from "group" g where g.head_primarygroup is not null
      union all
      select c.id, tree.primary_id, tree.path || c.name::text, tree.is_capital or c.name = ${CAPITAL_GROUP}
      from "group" c join tree on c.head_group = tree.id
      where cardinality(tree.path) < ${MAX_DEPTH}
    )
    select l.id, l.name, lower(p.name) as nature, coalesce(tree.path, '{}'::text[]) as path, coalesce(tree.is_capital, false) as is_capital,
      lower(p.name) in ('assets', 'liabilities') and l.id = (select min(r.id) from ledger_account r where r.name = ${RETAINED_EARNINGS_LEDGER} and r.is_deletable = false) as is_retained
    from ledger_account l
    left join tree on tree.id = l.head_group
    join primary_group p on p.id = coalesce(l.head_primarygroup, tree.primary_id)`
}

const dateOf = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

/**
 * The statement's rows (`rank`, `section`, `path`, `ledger`, `id` and its two amounts) in their
 * order: by rank, then by group path and ledger name in byte order (the same on every
 * database), then by id; a ledger's groups read as one path.
 */
const numbered = (rows: RawBuilder<unknown>, amounts: readonly [string, string]) => sql`
  select row_number() over (order by x.rank, x.path collate "C", x.ledger collate "C", x.id)::int as line_no,
    x.section, nullif(array_to_string(x.path, ${PATH_SEPARATOR}), '') as group_name, x.ledger, x.id as ledger_id,
    ${sql.join(amounts.map((a) => sql.ref(`x.${a}`)))}
  from (${rows}) x`

type Figures = Record<string, RawBuilder<unknown>>

/**
 * The statement's rows summed once, to the cent: the engine's count and its totals row (the
 * two amount columns), and the answer's own figures; the engine then reads the rows alone.
 */
async function summarise(db: Executor, query: RawBuilder<unknown>, totals: Figures, figures: Figures): Promise<{ summary: ReportSummary; sums: Record<string, string> }> {
  const selected = Object.entries({ ...totals, ...figures }).map(([name, figure]) => sql`round(${figure}, 2)::text as ${sql.id(name)}`)
  const { __count: count, ...sums } = (await sql<Record<string, string>>`select count(*)::int as __count, ${sql.join(selected)} from (${query}) r`.execute(db)).rows[0]!
  const pick = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, sums[name]!]))
  return { summary: { count: Number(count), totals: pick(Object.keys(totals)) }, sums: pick(Object.keys(figures)) }
}

const sumOf = (column: string, where: RawBuilder<unknown> = sql`true`) => sql`coalesce(sum(r.${sql.id(column)}) filter (where ${where}), 0)`

/**
 * The profit and loss account of a period (rule 28): income = Σcredit − Σdebit of the income
 * ledgers, expense = Σdebit − Σcredit of the expense ledgers, and the profit (or the loss) as
 * the last row, on the side it evens. Without a start the period starts with the fiscal year
 * of its end, without an end it ends today: a year's profit so far, the balance sheet's line.
 */
export const profitLossRows: ReportRun = async ({ db, params, registry }) => {
  const to = dateOf(params.date_before) ?? (await today(db))
  const yearStart = fiscalYearStartOf(to, await fiscalYearStartMonth(db, registry))
  const from = dateOf(params.date_after) ?? yearStart
  const query = profitLossQuery(from, to)
  const [income, expense] = [sumOf('income', sql`r.section = 'incomes'`), sumOf('expense', sql`r.section = 'expenses'`)]
  const { summary, sums } = await summarise(
    db,
    query,
    { income: sumOf('income'), expense: sumOf('expense') },
    { total_income: income, total_expense: expense, profit: sql`${income} - ${expense}` },
  )
  return { query, summary, extra: { ...sums, period: { date_after: from, date_before: to, fiscal_year_start: yearStart } } }
}

function profitLossQuery(from: string, to: string): RawBuilder<unknown> {
  return sql`
    with heads as (${ledgerHeads()}),
    sums as (
      select t.ledger, sum(t.credit_amount - t.debit_amount) as net
      from ledger_day_total t
      where t.log_date between ${from}::date and ${to}::date
      group by t.ledger
    ),
    lines as (
      select h.nature as section, h.path, h.name as ledger, h.id,
        case when h.nature = 'incomes' then round(s.net, 2) end as income,
        case when h.nature = 'expenses' then round(-s.net, 2) end as expense
      from sums s join heads h on h.id = s.ledger
      where h.nature in ('incomes', 'expenses') and s.net <> 0
    ),
    result as (select coalesce(sum(income), 0) - coalesce(sum(expense), 0) as profit from lines)
    ${numbered(sql`
      select case section when 'incomes' then 1 else 2 end as rank, section, path, ledger, id, income, expense from lines
      union all
      select 3, case when profit < 0 then 'loss_for_the_period' else 'profit_for_the_period' end, '{}'::text[], null, null,
        case when profit < 0 then -profit end, case when profit >= 0 then profit end
      from result where exists (select 1 from lines)`, ['income', 'expense'])}`
}

/**
 * The balance sheet as of a day (rule 29): each asset ledger's Σdebit − Σcredit and each
 * liability and equity ledger's Σcredit − Σdebit from the first posting on; then the income
 * and expense ledgers' Σcredit − Σdebit before the fiscal year (retained earnings, with the
 * Profit & Loss A/C ledger's own balance) and within it up to the day (the provisional profit
 * or loss). Without a day, as of today.
 */
export const balanceSheetRows: ReportRun = async ({ db, params, registry }) => {
  const asOf = dateOf(params.date_before) ?? (await today(db))
  const yearStart = fiscalYearStartOf(asOf, await fiscalYearStartMonth(db, registry))
  const query = balanceSheetQuery(asOf, yearStart)
  const [assets, liabilities] = [sumOf('assets'), sumOf('liabilities_and_equity')]
  const { summary, sums } = await summarise(
    db,
    query,
    { assets, liabilities_and_equity: liabilities },
    {
      total_assets: assets,
      total_liabilities_and_equity: liabilities,
      difference: sql`${assets} - ${liabilities}`,
      retained_earnings: sumOf('liabilities_and_equity', sql`r.section = 'retained_earnings'`),
      profit: sumOf('liabilities_and_equity', sql`r.section = 'provisional_profit_loss'`),
    },
  )
  return { query, summary, extra: { ...sums, period: { date_before: asOf, fiscal_year_start: yearStart } } }
}

function balanceSheetQuery(asOf: string, yearStart: string): RawBuilder<unknown> {
  return sql`
    with heads as (${ledgerHeads()}),
    sums as (
      select t.ledger, sum(t.debit_amount - t.credit_amount) as balance,
        coalesce(sum(t.debit_amount - t.credit_amount) filter (where t.log_date < ${yearStart}::date), 0) as before_year
      from ledger_day_total t
      where t.log_date <= ${asOf}::date
      group by t.ledger
    ),
    ledgers as (
      select h.*, coalesce(s.balance, 0) as balance, coalesce(s.before_year, 0) as before_year
      from heads h left join sums s on s.ledger = h.id
      where s.ledger is not null or h.is_retained
    ),
    profit as (
      select coalesce(sum(before_year - balance), 0) as current_year, coalesce(sum(-before_year), 0) as earlier
      from ledgers where nature in ('incomes', 'expenses')
    ),
    lines as (
      select case when nature = 'assets' then 'assets' when is_capital then 'equity' else 'liabilities' end as section, path, name as ledger, id,
        case when nature = 'assets' then round(balance, 2) end as assets,
        case when nature = 'liabilities' then round(-balance, 2) end as liabilities_and_equity
      from ledgers where nature in ('assets', 'liabilities') and not is_retained and balance <> 0
      union all
      select 'retained_earnings', '{}'::text[], l.name, l.id, null, round(p.earlier - l.balance, 2)
      from ledgers l cross join profit p where l.is_retained and p.earlier - l.balance <> 0
    )
    ${numbered(sql`
      select case section when 'assets' then 1 when 'liabilities' then 2 when 'equity' then 3 else 4 end as rank, section, path, ledger, id, assets, liabilities_and_equity from lines
      union all
      select 5, 'provisional_profit_loss', '{}'::text[], null, null, null, round(current_year, 2)
      from profit where exists (select 1 from sums)`, ['assets', 'liabilities_and_equity'])}`
}
