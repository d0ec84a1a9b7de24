import { sql, type RawBuilder } from 'kysely'
import { CONFIRMED_STATES } from '../../../schema/entities/orders/order'
import { money } from '../../../schema/kit'
import type { ChartData, FigureData, ListData } from '../../../schema/kit/widget'
import type { Executor } from '../../db/types'
import { sharedOnce, type WidgetParams, type WidgetRun } from '../../engine/widgets'
import { countLowStock, DEFAULT_LOW_STOCK, isLowStock } from '../inventory'

/**
 * The e-commerce dashboard's queries (schema/dashboards/ecommerce.ts; domain-anchors §3.5):
 * sales are the confirmed orders that are not cancelled — confirmed, packed, on their way or
 * delivered — within the period asked (their order date), each figure one indexed query.
 */
const LIST_SIZE = 10
const SELLERS = 10
const sold = sql`o.status = any(${[...CONFIRMED_STATES]}::text[])`
const INCOMPLETE = ['processing', 'confirmed', 'packaging', 'on_the_way']

/** The period's condition on a date column (nothing asked: all of it). */
const within = (column: RawBuilder<unknown>, p: WidgetParams) =>
  sql`${p.date_after ? sql`and ${column} >= ${p.date_after}::date` : sql``} ${p.date_before ? sql`and ${column} <= ${p.date_before}::date` : sql``}`

async function figure(db: Executor, query: RawBuilder<{ count: string; amount: string | null }>): Promise<FigureData> {
  const row = (await query.execute(db)).rows[0]
  return { count: Number(row?.count ?? 0), amount: row?.amount ?? null }
}

/** Orders as the dashboard lists them: number, day, customer, status, what they come to and what is still due. */
async function orderRows(db: Executor, where: RawBuilder<unknown>, p: WidgetParams): Promise<ListData> {
  const rows = await sql<Record<string, unknown>>`
    select o.id, o.order_no, o.order_date, u.username as customer, o.status, o.payment_status, o.net_amount::text as net_amount,
      (o.net_amount - o.paid_amount)::text as due_amount
    from "order" o join "user" u on u.id = o."user"
    where ${where} ${within(sql`o.order_date`, p)}
    order by o.id desc limit ${LIST_SIZE}`.execute(db)
  return { rows: rows.rows }
}

const points = async (db: Executor, query: RawBuilder<{ label: string; value: string; key: string | number | null }>, translate = false): Promise<ChartData> => ({
  points: (await query.execute(db)).rows.map((r) => ({ label: r.label, value: r.value, key: r.key, ...(translate ? { translate: true } : {}) })),
})

const statusCounts: WidgetRun = ({ db, params }) =>
  points(
    db,
    sql<{ label: string; value: string; key: string }>`
      select 'option.' || o.status as label, count(*)::text as value, o.status as key from "order" o
      where o.status <> 'pending' ${within(sql`o.order_date`, params)}
      group by o.status order by count(*) desc`,
    true,
  )

/** One product's sales in the period: units and amount, with its name and category. */
type ProductSales = { id: number; name: string; category: number | null; category_name: string | null; quantity: string; amount: string }

/**
 * Every product sold in the period, summed once per product — and once per request, shared by
 * the best sellers and the categories. The lines are summed before the products are joined;
 * with no period, orders that are not sales are left out by an anti-join rather than by
 * joining every order (at 100,000 orders the plan bench/orders.ts prints says why).
 */
const productSales = (db: Executor, p: WidgetParams, shared: Map<string, Promise<unknown>>) =>
  sharedOnce(shared, 'order-product-sales', async () => {
    const lines = p.date_after || p.date_before
      ? sql`select i.product, sum(i.quantity) as quantity, sum(i.total_price) as amount
          from orderitem i join "order" o on o.id = i."order"
          where ${sold} ${within(sql`o.order_date`, p)} group by i.product`
      : sql`select i.product, sum(i.quantity) as quantity, sum(i.total_price) as amount from orderitem i
          where not exists (select 1 from "order" o where o.id = i."order" and (o.status = any(${[...CONFIRMED_STATES]}::text[])) is not true)
          group by i.product`
    const found = await sql<ProductSales>`
      with s as (${lines})
      select p.id, p.name, p.category, c.name as category_name, s.quantity::text as quantity, s.amount::text as amount
      from s join product p on p.id = s.product left join category c on c.id = p.category`.execute(db)
    return found.rows
  })

const bestSellers = (by: 'amount' | 'quantity'): WidgetRun => async ({ db, params, shared }) => {
  const rows = await productSales(db, params, shared)
  const ranked = [...rows].sort((a, b) => (by === 'amount' ? money.compare(b.amount, a.amount) : Number(b.quantity) - Number(a.quantity)) || Number(a.id) - Number(b.id))
  return { points: ranked.slice(0, SELLERS).map((r) => ({ label: r.name, value: by === 'amount' ? r.amount : r.quantity, key: Number(r.id) })) }
}

const byCategory = (what: 'quantity' | 'amount'): WidgetRun => async ({ db, params, shared }) => {
  const groups = new Map<number | null, { label: string; values: string[] }>()
  for (const r of await productSales(db, params, shared)) {
    const key = r.category === null ? null : Number(r.category)
    const group = groups.get(key) ?? { label: r.category_name ?? 'widget.uncategorised', values: [] }
    group.values.push(what === 'amount' ? r.amount : r.quantity)
    groups.set(key, group)
  }
  const points = [...groups].map(([key, g]) => ({ label: g.label, value: what === 'amount' ? money.sum(g.values) : String(g.values.reduce((n, v) => n + Number(v), 0)), key, ...(key === null ? { translate: true } : {}) }))
  return { points: points.sort((a, b) => (what === 'amount' ? money.compare(b.value, a.value) : Number(b.value) - Number(a.value))) }
}

/** Sales by day over the period (the last 30 days when none is asked), every day shown, those without sales at 0. */
const salesOverTime: WidgetRun = ({ db, params }) =>
  points(
    db,
    sql<{ label: string; value: string; key: null }>`
      with bounds as (
        select coalesce(${params.date_after}::date, coalesce(${params.date_before}::date, current_date) - 29) as first,
               coalesce(${params.date_before}::date, current_date) as last),
      days as (select generate_series((select first from bounds), (select last from bounds), interval '1 day')::date as day),
      sales as (
        select o.order_date as day, sum(o.net_amount) as amount from "order" o, bounds b
        where ${sold} and o.order_date between b.first and b.last group by o.order_date)
      select to_char(d.day, 'YYYY-MM-DD') as label, coalesce(s.amount, 0)::text as value, null as key
      from days d left join sales s on s.day = d.day order by d.day
      limit 400`,
  )

export const orderWidgets: Readonly<Record<string, WidgetRun>> = {
  paid_orders: ({ db, params }) =>
    figure(db, sql`select count(*)::text as count, coalesce(sum(o.net_amount), 0)::text as amount from "order" o where ${sold} and o.payment_status = 'paid' ${within(sql`o.order_date`, params)}`),
  unpaid_orders: ({ db, params }) =>
    figure(
      db,
      sql`select count(*)::text as count, coalesce(sum(o.net_amount - o.paid_amount), 0)::text as amount from "order" o
        where ${sold} and o.payment_status in ('unpaid', 'partial') ${within(sql`o.order_date`, params)}`,
    ),
  customers: ({ db, params }) =>
    figure(db, sql`select count(*)::text as count, null as amount from customer c join "user" u on u.id = c.id where true ${within(sql`u.created_at::date`, params)}`),
  low_stock_products: async ({ db }) => ({ count: await countLowStock(db), amount: null }),
  order_totals: statusCounts,
  orders_by_status: statusCounts,
  best_sellers_by_amount: bestSellers('amount'),
  best_sellers_by_quantity: bestSellers('quantity'),
  categorized_order_items: byCategory('quantity'),
  sales_by_category: byCategory('amount'),
  sales_over_time: salesOverTime,
  latest_orders: ({ db, params }) => orderRows(db, sql`o.status <> 'pending'`, params),
  incomplete_orders: ({ db, params }) => orderRows(db, sql`o.status = any(${INCOMPLETE}::text[])`, params),
  paid_order_list: ({ db, params }) => orderRows(db, sql`${sold} and o.payment_status = 'paid'`, params),
  unpaid_order_list: ({ db, params }) => orderRows(db, sql`${sold} and o.payment_status in ('unpaid', 'partial')`, params),
  low_stock_list: async ({ db }) => ({
    rows: (
      await sql<Record<string, unknown>>`
        select p.id, p.name, i.quantity::int as quantity, coalesce(p.low_stock_alert, ${DEFAULT_LOW_STOCK})::int as low_stock_alert
        from inventory i join product p on p.id = i.id where ${isLowStock}
        order by i.quantity, p.name limit ${LIST_SIZE}`.execute(db)
    ).rows,
  }),
}
