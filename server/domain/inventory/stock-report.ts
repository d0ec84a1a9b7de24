import { sql, type RawBuilder } from 'kysely'
import { utcDay } from '../../../schema/kit/dates'
import type { Executor } from '../../db/types'
import type { ReportRun, ReportSummary } from '../../engine/reports'
import type { Values } from '../../engine/validate'
import { isLowStock } from './index'
import { balanceRows } from './stock-balance'
import { registry } from '../../../schema'
import { subtreeIds, treeStorageOf } from '../../engine/tree'

const CATEGORY_TREE = treeStorageOf(registry.category, 'parent')

/**
 * The stock report's rows (schema/reports/stock-report.ts): every product the parameters
 * choose, each with its balance over the period as the stock balance gives it
 * (stock-balance.ts: two lookups in the day totals per product), what is on hand now and
 * whether it is low (`isLowStock`, the dashboard's own condition).
 *
 * A hundred thousand products must not cost a hundred thousand balances for a page of fifty,
 * so the report gives the engine its count and totals and, for a page, that page's rows
 * alone. The totals come without a balance per product: what every chosen product holds now
 * (their stock rows) less what moved since the period began (the stock ledger's rows from its
 * first day, read by their date's index) — closing = now − moved after the period, opening =
 * closing − in + out. The stock rows are the sums of the ledger's rows (the kernel writes both
 * in one transaction), so the totals are the sums of the rows to the cent.
 */
type Choice = { from: string; to: string; product: number | null; category: number | null; lowOnly: boolean }

const idOf = (v: unknown) => (typeof v === 'number' ? v : null)
const dayOf = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null)

/** The period asked for; left out, this month up to today (or up to its start, when that is later). */
export function choiceOf(params: Values, today = utcDay()): Choice {
  const after = dayOf(params.date_after)
  const to = dayOf(params.date_before) ?? (after !== null && after > today ? after : today)
  return { from: after ?? `${to.slice(0, 8)}01`, to, product: idOf(params.product), category: idOf(params.category), lowOnly: params.low_stock_only === true }
}

const isNarrowed = (c: Choice) => c.product !== null || c.category !== null || c.lowOnly

/** The chosen products, as `p` with their stock row `i`: `from … where …`. A category takes in its sub-categories. */
function chosen(c: Choice): RawBuilder<unknown> {
  return sql`from product p left join inventory i on i.id = p.id
    where (${c.product}::bigint is null or p.id = ${c.product}::bigint)
      and ${c.category === null ? sql`true` : sql`p.category in (${subtreeIds(CATEGORY_TREE, c.category)})`}
      and (not ${c.lowOnly}::boolean or ${isLowStock})`
}

/** The chosen products' number and the report's totals, from their stock rows and the ledger's rows since the period began. */
async function summaryOf(db: Executor, c: Choice): Promise<ReportSummary> {
  const movedOf = isNarrowed(c) ? sql`s.product in (select p.id ${chosen(c)})` : sql`true`
  const r = await sql<Record<string, string>>`
    with held as (
      select count(*) as products, coalesce(sum(i.quantity), 0) as quantity, coalesce(sum(i.stock_value), 0) as value ${chosen(c)}
    ), moved as (
      select coalesce(sum(s.quantity) filter (where s.movement_date > ${c.to}::date), 0) as later_quantity,
        coalesce(sum(s.value_change) filter (where s.movement_date > ${c.to}::date), 0) as later_value,
        coalesce(sum(s.quantity) filter (where s.movement_date <= ${c.to}::date and s.quantity > 0), 0) as in_quantity,
        coalesce(sum(s.value_change) filter (where s.movement_date <= ${c.to}::date and s.quantity > 0), 0) as in_value,
        coalesce(-sum(s.quantity) filter (where s.movement_date <= ${c.to}::date and s.quantity < 0), 0) as out_quantity,
        coalesce(-sum(s.value_change) filter (where s.movement_date <= ${c.to}::date and s.quantity < 0), 0) as out_value
      from stock_ledger s where s.movement_date >= ${c.from}::date and ${movedOf}
    ), period as (
      select h.products, h.quantity as available, h.quantity - m.later_quantity as closing_quantity, h.value - m.later_value as closing_value,
        m.in_quantity, m.in_value, m.out_quantity, m.out_value
      from held h, moved m
    )
    select products::text,
      (closing_quantity - in_quantity + out_quantity)::text as opening_quantity, round(closing_value - in_value + out_value, 2)::text as opening_value,
      in_quantity::text, round(in_value, 2)::text as in_value, out_quantity::text, round(out_value, 2)::text as out_value,
      closing_quantity::text, round(closing_value, 2)::text as closing_value, available::text
    from period`.execute(db)
  const { products, ...totals } = r.rows[0]!
  return { count: Number(products), totals }
}

/** The rows of the products `page` gives (a query of one column, `product`). */
function rowsOf(page: RawBuilder<unknown>, c: Choice): RawBuilder<unknown> {
  return sql`
    select p.id, p.id as product_id, p.name as product_name, p.product_code, k.name as category,
      b.opening_quantity, b.opening_value, b.in_quantity, b.in_value, b.out_quantity, b.out_value,
      b.closing_quantity, b.closing_value, b.valuation_rate,
      coalesce(i.quantity, 0) as available, coalesce(${isLowStock}, false) as is_low_stock
    from (${balanceRows(page, c.from, c.to)}) b
    join product p on p.id = b.product
    left join category k on k.id = p.category
    left join inventory i on i.id = p.id`
}

export const stockReportRows: ReportRun = async ({ db, params, page }) => {
  const c = choiceOf(params)
  const extra = { date_after: c.from, date_before: c.to }
  // The CSV: every chosen product, the engine ordering them.
  if (!page) return { query: rowsOf(sql`select p.id as product ${chosen(c)}`, c), extra }
  const summary = await summaryOf(db, c)
  // A page past the end is the last, as the engine clamps it.
  const pageNo = Math.min(page.page, Math.max(1, Math.ceil(summary.count / page.size)))
  const products = sql`select p.id as product ${chosen(c)} order by p.name, p.id limit ${page.size} offset ${(pageNo - 1) * page.size}`
  return { query: rowsOf(products, c), extra, summary }
}
