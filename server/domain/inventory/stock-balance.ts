import { sql, type RawBuilder } from 'kysely'
import type { Message } from '../../../schema/kit'
import { isCalendarDate } from '../../../schema/kit/validators'
import type { Executor } from '../../db/types'
import { ValidationError } from '../../engine/errors'

/**
 * The stock balance (issue 21): per product, what it had before the period, what came in and
 * went out in it, and what it had at its end, in units and value, with the rate of what is
 * left. It reads the per-product per-day totals the database keeps with every movement
 * (`stock_day_total`, migration 8), not the stock ledger's rows: for each product its last day
 * before the period and its last day in it, whose sums to date give the opening and the
 * closing, and their difference the period's ins and outs — two index lookups per product,
 * however long the period (bench/RESULTS.md, "Stock balance"). Closing = opening + in − out,
 * exactly: values are NUMERIC in SQL and decimal strings here, never a float.
 */
export type StockBalanceQuery = {
  /** The period, `YYYY-MM-DD`, both days included. */
  from: string
  to: string
  /** Only these products (every product when left out). */
  products?: readonly number[]
  /** A page of the products, in product order. */
  limit?: number
  offset?: number
}

export type StockBalanceRow = {
  product: number
  opening_quantity: number
  opening_value: string
  in_quantity: number
  in_value: string
  out_quantity: number
  out_value: string
  closing_quantity: number
  closing_value: string
  /**
   * The closing value over the closing units, to four places rounded half up as the kernel
   * rounds a rate (valuation.ts); with nothing left, the rate after the product's last
   * movement up to the period's end (0 when it never moved).
   */
  valuation_rate: string
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

function checked(query: StockBalanceQuery): void {
  const errors: Record<string, Message[]> = {}
  const refuse = (field: string, message: Message) => (errors[field] ??= []).push(message)
  if (!isCalendarDate(query.from)) refuse('from', { key: 'validation.date' })
  if (!isCalendarDate(query.to)) refuse('to', { key: 'validation.date' })
  if (!errors.from && !errors.to && query.to < query.from) refuse('to', { key: 'validation.date_order' })
  if (query.products !== undefined && !query.products.every(isId)) refuse('products', { key: 'validation.ref', params: { label: 'field.product' } })
  if (query.limit !== undefined && !(isCount(query.limit) && query.limit >= 1)) refuse('limit', { key: 'validation.min_value', params: { min: 1 } })
  if (query.offset !== undefined && !isCount(query.offset)) refuse('offset', { key: 'validation.min_value', params: { min: 0 } })
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
}

/** A row as the query gives it: `[product, opening units, opening value, in units, in value, out units, out value, closing units, closing value, rate]`. */
type Packed = [number, number, string, number, string, number, string, number, string, string]

/**
 * The balance of each product `products` gives (a query of one column, `product`) over the
 * period `from`…`to`: the columns of StockBalanceRow, values to the cent, the rate to four
 * places — two lookups in the day totals per product. The stock balance and the stock report
 * (stock-report.ts) both read it, so that they cannot disagree.
 */
export function balanceRows(products: RawBuilder<unknown>, from: string, to: string): RawBuilder<unknown> {
  return sql`
    select b.product, b.opening_quantity, round(b.opening_value, 2) as opening_value, b.in_quantity, round(b.in_value, 2) as in_value,
      b.out_quantity, round(b.out_value, 2) as out_value, b.closing_quantity, round(b.closing_value, 2) as closing_value,
      (case when b.closing_quantity > 0
        -- In cents and 1/10,000ths, as valuation.ts rounds a rate: (2 × value × 100 + units) div (2 × units).
        then round(div(b.closing_value * 20000 + b.closing_quantity, 2 * b.closing_quantity) * 0.0001, 4)
        else b.last_rate end)::numeric(18,4) as valuation_rate
    from (
      select page.product,
        coalesce(o.in_quantity_to_date - o.out_quantity_to_date, 0) as opening_quantity,
        coalesce(o.in_value_to_date - o.out_value_to_date, 0) as opening_value,
        coalesce(c.in_quantity_to_date - coalesce(o.in_quantity_to_date, 0), 0) as in_quantity,
        coalesce(c.in_value_to_date - coalesce(o.in_value_to_date, 0), 0) as in_value,
        coalesce(c.out_quantity_to_date - coalesce(o.out_quantity_to_date, 0), 0) as out_quantity,
        coalesce(c.out_value_to_date - coalesce(o.out_value_to_date, 0), 0) as out_value,
        coalesce(c.in_quantity_to_date - c.out_quantity_to_date, 0) as closing_quantity,
        coalesce(c.in_value_to_date - c.out_value_to_date, 0) as closing_value,
        coalesce(c.valuation_rate_after, 0) as last_rate
      from (${products}) page
      left join lateral (select t.* from stock_day_total t where t.product = page.product and t.movement_date < ${from}::date
        order by t.movement_date desc limit 1) o on true
      left join lateral (select t.* from stock_day_total t where t.product = page.product and t.movement_date <= ${to}::date
        order by t.movement_date desc limit 1) c on true
    ) b`
}

export async function stockBalance(db: Executor, query: StockBalanceQuery): Promise<StockBalanceRow[]> {
  checked(query)
  const products = query.products ? [...query.products] : null
  const page = sql`
    select p.id as product from product p
    where ${products}::bigint[] is null or p.id = any(${products}::bigint[])
    order by p.id
    limit ${query.limit ?? null}::bigint offset ${query.offset ?? 0}::bigint`
  // One JSON value rather than a row per product: the embedded database hands each value of a
  // result over on its own, which for every product's ten columns cost as much as the query.
  const result = await sql<{ rows: string }>`
    select coalesce(json_agg(json_build_array(
      b.product, b.opening_quantity, b.opening_value::text, b.in_quantity, b.in_value::text,
      b.out_quantity, b.out_value::text, b.closing_quantity, b.closing_value::text, b.valuation_rate::text
    ) order by b.product), '[]')::text as rows
    from (${balanceRows(page, query.from, query.to)}) b`.execute(db)
  const rows = JSON.parse(result.rows[0]?.rows ?? '[]') as Packed[]
  return rows.map(([product, openingQuantity, openingValue, inQuantity, inValue, outQuantity, outValue, closingQuantity, closingValue, rate]) => ({
    product,
    opening_quantity: openingQuantity,
    opening_value: openingValue,
    in_quantity: inQuantity,
    in_value: inValue,
    out_quantity: outQuantity,
    out_value: outValue,
    closing_quantity: closingQuantity,
    closing_value: closingValue,
    valuation_rate: rate,
  }))
}
