import { sql, type RawBuilder } from 'kysely'
import { SALE_STATUSES } from '../../../schema/reports/order-reports'
import type { ReportRun, ReportSummary } from '../../engine/reports'
import type { Executor } from '../../db/types'
import type { Values } from '../../engine/validate'

/**
 * The rows of the order report with profit and its summary (schema/reports/order-reports.ts;
 * domain-anchors §3.4, rule 51), one order at a time:
 * - revenue = Σ quantity × unit price of its lines, less the order's discount. The discount is
 *   the order's, not a line's, so it comes off the order's goods whole — as the sale posts it
 *   (Cr Company Sales: the goods less the discount); tax and shipping are not the goods' price
 *   and are left out, as they go to their own ledgers.
 * - cost = Σ quantity × the line's `unit_cost`, the moving average its units left the stock at
 *   when the order was confirmed, to the cent an order.
 * - profit = revenue − cost; margin = profit / revenue × 100 to two places, none without revenue.
 * Only sales that stand count (SALE_STATUSES): a cart has no cost yet, a cancelled order's sale
 * is reversed (rule 48).
 */

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)
const idOf = (v: unknown) => (typeof v === 'number' ? v : null)

/** The orders the parameters ask for (alias `o`): sales that stand, of the period, status, customer, branch. */
function asked(p: Values): RawBuilder<unknown> {
  return sql`o.status = any(${[...SALE_STATUSES]}::text[])
      and (${text(p.status)}::text is null or o.status = ${text(p.status)})
      and (${text(p.payment_status)}::text is null or o.payment_status = ${text(p.payment_status)})
      and (${idOf(p.user)}::bigint is null or o."user" = ${idOf(p.user)})
      and (${idOf(p.branch)}::bigint is null or o.branch = ${idOf(p.branch)})
      and (${text(p.date_after)}::date is null or o.order_date >= ${text(p.date_after)}::date)
      and (${text(p.date_before)}::date is null or o.order_date <= ${text(p.date_before)}::date)`
}

/** An order's figures from its lines `i` grouped by the order `o`. */
const FIGURES = sql`coalesce(sum(i.quantity), 0)::bigint as items_sold,
      coalesce(sum(i.quantity * i.price), 0) - o.discount_amount as revenue,
      round(coalesce(sum(i.quantity * i.unit_cost), 0), 2) as cost`

/**
 * Each order the parameters ask for (`orders`: every one, or the rows of a query of them),
 * with its figures, as `o`: its lines joined and grouped once — one pass over the lines
 * however many orders, rather than a lookup per order.
 */
function soldOrders(p: Values, orders: RawBuilder<unknown> = sql`"order"`): RawBuilder<unknown> {
  return sql`(select g.*, g.revenue - g.cost as profit from (
      select o.id, o.order_no, o.order_date, o."user", o.branch, o.status, o.payment_status, o.paid_amount, ${FIGURES}
      from ${orders} o left join orderitem i on i."order" = o.id
      where ${asked(p)}
      group by o.id, o.order_no, o.order_date, o."user", o.branch, o.status, o.payment_status, o.paid_amount, o.discount_amount) g) o`
}

const marginOf = (profit: RawBuilder<unknown>, revenue: RawBuilder<unknown>) => sql`round(${profit} * 100 / nullif(${revenue}, 0), 2)`

/**
 * The count, totals and margin of every order asked for, in one pass (the engine then reads
 * a page of rows alone): the totals as the engine would sum them, the margin from them (not
 * an average of the rows' margins).
 */
async function summaryOf(db: Executor, p: Values): Promise<{ summary: ReportSummary; margin: string | null }> {
  const found = await sql<{ n: string; revenue: string; cost: string; profit: string; margin: string | null }>`
    select count(*) as n, coalesce(sum(o.revenue), 0)::text as revenue, coalesce(sum(o.cost), 0)::text as cost, coalesce(sum(o.profit), 0)::text as profit,
      ${marginOf(sql`sum(o.profit)`, sql`sum(o.revenue)`)}::text as margin
    from ${soldOrders(p)}`.execute(db)
  const row = found.rows[0]!
  return { summary: { count: Number(row.n), totals: { revenue: row.revenue, cost: row.cost, profit: row.profit } }, margin: row.margin }
}

/**
 * One row per order. A screen's page reads that page's orders first (in the report's order,
 * by the index of their date) and their lines alone; an export reads them all.
 */
export const orderReportRows: ReportRun = async ({ db, params, page }) => {
  const { summary, margin } = await summaryOf(db, params)
  const pageNo = page ? Math.min(page.page, Math.max(1, Math.ceil(summary.count / page.size))) : 1
  const orders = page
    ? sql`(select o.* from "order" o where ${asked(params)} order by o.order_date, o.order_no limit ${page.size} offset ${(pageNo - 1) * page.size})`
    : sql`"order"`
  return {
    query: sql`select o.id, o.id as order_id, o.order_no, o.order_date, concat_ws(' ', u.first_name, u.last_name) as customer, b.name as branch,
        o.status, o.payment_status, o.revenue, o.cost, o.profit, ${marginOf(sql`o.profit`, sql`o.revenue`)} as margin
      from ${soldOrders(params, orders)}
      join "user" u on u.id = o."user"
      left join branch b on b.id = o.branch`,
    summary,
    extra: { margin },
  }
}

type SummaryRow = { period: string | null; is_total: boolean; orders: string; items_sold: string; revenue: string; cost: string; profit: string; margin: string | null; paid_amount: string }

/**
 * Per day or month, in one pass over the orders' lines: the periods and their grand total
 * together (`rollup`), the total giving the engine its count and totals and the answer its
 * margin; the engine then reads the periods back from the answer of that pass, not again from
 * the orders (at 100,000 orders each pass costs a fifth of a second).
 */
export const orderSummaryRows: ReportRun = async ({ db, params }) => {
  const period = params.group_by === 'month' ? sql`to_char(o.order_date, 'YYYY-MM')` : sql`to_char(o.order_date, 'YYYY-MM-DD')`
  const found = await sql<SummaryRow>`
    select ${period} as period, grouping(${period}) = 1 as is_total, count(*)::text as orders, coalesce(sum(o.items_sold), 0)::text as items_sold,
      coalesce(sum(o.revenue), 0)::text as revenue, coalesce(sum(o.cost), 0)::text as cost, coalesce(sum(o.profit), 0)::text as profit,
      ${marginOf(sql`sum(o.profit)`, sql`sum(o.revenue)`)}::text as margin, coalesce(sum(o.paid_amount), 0)::text as paid_amount
    from ${soldOrders(params)}
    group by rollup (${period})`.execute(db)
  const rows = found.rows.filter((r) => !r.is_total).map(({ is_total: _, ...row }) => row)
  const total = found.rows.find((r) => r.is_total)
  const sums = (['orders', 'items_sold', 'revenue', 'cost', 'profit', 'paid_amount'] as const).map((c) => [c, total?.[c] ?? '0'])
  return {
    query: sql`select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as r(period text, orders bigint, items_sold bigint, revenue numeric, cost numeric, profit numeric, margin numeric, paid_amount numeric)`,
    summary: { count: rows.length, totals: Object.fromEntries(sums) },
    extra: { margin: total?.margin ?? null },
  }
}
