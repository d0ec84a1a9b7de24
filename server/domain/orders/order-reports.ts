import { sql, type RawBuilder } from 'kysely'
import { SALE_STATUSES } from '../../../schema/reports/order-reports'
import type { ReportRun } from '../../engine/reports'
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

/** Each order the parameters ask for, with its figures: `o` (its items sold, revenue, cost, profit, margin). */
function soldOrders(p: Values): RawBuilder<unknown> {
  return sql`(select o.id, o.order_no, o.order_date, o."user", o.branch, o.status, o.payment_status, o.paid_amount,
      f.items_sold, f.revenue, f.cost, f.revenue - f.cost as profit
    from "order" o
    cross join lateral (
      select coalesce(sum(i.quantity), 0)::bigint as items_sold,
        coalesce(sum(i.quantity * i.price), 0) - o.discount_amount as revenue,
        round(coalesce(sum(i.quantity * i.unit_cost), 0), 2) as cost
      from orderitem i where i."order" = o.id) f
    where o.status = any(${[...SALE_STATUSES]}::text[])
      and (${text(p.status)}::text is null or o.status = ${text(p.status)})
      and (${text(p.payment_status)}::text is null or o.payment_status = ${text(p.payment_status)})
      and (${idOf(p.user)}::bigint is null or o."user" = ${idOf(p.user)})
      and (${idOf(p.branch)}::bigint is null or o.branch = ${idOf(p.branch)})
      and (${text(p.date_after)}::date is null or o.order_date >= ${text(p.date_after)}::date)
      and (${text(p.date_before)}::date is null or o.order_date <= ${text(p.date_before)}::date)) o`
}

const marginOf = (profit: RawBuilder<unknown>, revenue: RawBuilder<unknown>) => sql`round(${profit} * 100 / nullif(${revenue}, 0), 2)`

/** The margin of every order the parameters ask for, from their totals (not an average of the rows' margins). */
async function totalMargin(db: Executor, p: Values): Promise<string | null> {
  const found = await sql<{ margin: string | null }>`select ${marginOf(sql`sum(o.profit)`, sql`sum(o.revenue)`)}::text as margin from ${soldOrders(p)}`.execute(db)
  return found.rows[0]?.margin ?? null
}

export const orderReportRows: ReportRun = async ({ db, params }) => ({
  query: sql`select o.id, o.id as order_id, o.order_no, o.order_date, concat_ws(' ', u.first_name, u.last_name) as customer, b.name as branch,
      o.status, o.payment_status, o.revenue, o.cost, o.profit, ${marginOf(sql`o.profit`, sql`o.revenue`)} as margin
    from ${soldOrders(params)}
    join "user" u on u.id = o."user"
    left join branch b on b.id = o.branch`,
  extra: { margin: await totalMargin(db, params) },
})

export const orderSummaryRows: ReportRun = async ({ db, params }) => {
  const period = params.group_by === 'month' ? sql`to_char(o.order_date, 'YYYY-MM')` : sql`to_char(o.order_date, 'YYYY-MM-DD')`
  return {
    query: sql`select ${period} as period, count(*)::bigint as orders, sum(o.items_sold)::bigint as items_sold,
        sum(o.revenue) as revenue, sum(o.cost) as cost, sum(o.profit) as profit,
        ${marginOf(sql`sum(o.profit)`, sql`sum(o.revenue)`)} as margin, sum(o.paid_amount) as paid_amount
      from ${soldOrders(params)}
      group by 1`,
    extra: { margin: await totalMargin(db, params) },
  }
}
