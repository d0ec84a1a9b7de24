import { sql, type RawBuilder } from 'kysely'
import { REQUEST_STATES } from '../../../schema/entities/purchasing/purchase-request'
import { PURCHASE_INVOICE_PATH } from '../../../schema/reports/purchase-reports'
import type { ReportRun } from '../../engine/reports'
import type { Values } from '../../engine/validate'

/**
 * The rows of the purchasing reports (schema/reports/purchase-reports.ts): the final
 * purchases one by one, and vendors' offers summed per stage or per vendor. Both read the
 * documents' own rows; a vendor is named by their username, as their ledger is.
 */
const idOf = (v: unknown) => (typeof v === 'number' ? v : null)
const textOf = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null)

/** The documents `d` of the period asked for (on their `date`) and of the vendor asked for. */
function periodAndVendor(date: 'purchase_date' | 'request_date', p: Values): RawBuilder<unknown> {
  return sql`(${textOf(p.date_after)}::date is null or d.${sql.ref(date)} >= ${textOf(p.date_after)}::date)
    and (${textOf(p.date_before)}::date is null or d.${sql.ref(date)} <= ${textOf(p.date_before)}::date)
    and (${idOf(p.vendor)}::bigint is null or d.vendor = ${idOf(p.vendor)}::bigint)`
}

/**
 * One row per final purchase: what it comes to, what is paid and still owed, its lines and
 * units, and `invoice_path`, where its printable invoice opens. A cancelled one (undone, owing
 * nothing) only when its status is asked for.
 */
export const purchaseFinalRows: ReportRun = ({ params }) => {
  const status = textOf(params.status)
  return sql`
    select d.id, d.id as purchase_id, d.purchase_date, d.invoice_no, u.username as vendor, d.status, d.payment_status, d.bill_no,
      coalesce(l.lines, 0)::int as lines, coalesce(l.quantity, 0)::bigint as quantity,
      d.total_price, d.paid_amount, (case when d.status = 'cancelled' then 0 else round(d.total_price - d.paid_amount, 2) end)::numeric(20,2) as due_amount,
      ${`${PURCHASE_INVOICE_PATH}/`}::text || d.id as invoice_path
    from purchase_final d
    left join "user" u on u.id = d.vendor
    left join lateral (select count(*) as lines, sum(x.quantity) as quantity from purchase_final_item x where x.purchase_final = d.id) l on true
    where ${periodAndVendor('purchase_date', params)}
      and (case when ${status}::text is null then d.status <> 'cancelled' else d.status = ${status}::text end)
      and (${textOf(params.payment_status)}::text is null or d.payment_status = ${textOf(params.payment_status)}::text)`
}

/** The offers asked for, as `d`: the period, the vendor and the stage, each with its number of lines and units. */
function offers(p: Values): RawBuilder<unknown> {
  const status = textOf(p.status)
  return sql`(
    select d.id, d.vendor, d.status, d.total_price, l.lines, l.quantity
    from purchase_request d
    left join lateral (select count(*) as lines, sum(x.quantity) as quantity from purchase_req_item x where x.purchase_request = d.id) l on true
    where ${periodAndVendor('request_date', p)} and (${status}::text is null or d.status = ${status}::text)
  ) d`
}

const sums = sql`coalesce(sum(d.lines), 0)::int as lines, coalesce(sum(d.quantity), 0)::bigint as quantity, round(coalesce(sum(d.total_price), 0), 2) as amount`

/**
 * Vendors' offers per stage of the review — every stage, those with none at zero — or per
 * vendor: how many, their lines and units, and what they come to at the offered prices.
 */
export const purchaseRequestSummaryRows: ReportRun = ({ params }) => {
  if (params.group_by === 'vendor') {
    return sql`
      select null::text as status, u.username as vendor, count(*)::int as requests, ${sums}
      from ${offers(params)} left join "user" u on u.id = d.vendor
      group by d.vendor, u.username`
  }
  const status = textOf(params.status)
  return sql`
    select s.state as status, null::text as vendor, count(d.id)::int as requests, ${sums}
    from unnest(${[...REQUEST_STATES]}::text[]) as s(state)
    left join ${offers(params)} on d.status = s.state
    where ${status}::text is null or s.state = ${status}::text
    group by s.state`
}
