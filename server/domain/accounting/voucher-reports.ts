import { sql, type RawBuilder } from 'kysely'
import type { Values } from '../../engine/validate'
import type { ReportRun } from '../../engine/reports'
import { escapeLike } from '../../engine/list-query'

/**
 * The rows of the voucher reports and their summaries (schema/reports/voucher-reports.ts):
 * each voucher's party side, read from the vouchers' own rows (one per line; a cancelled
 * voucher's are gone with it), the other side's ledgers named beside them. The summaries
 * total the same lines per sub-ledger. The party side is whom the voucher is with: a
 * payment's debit lines (whom it paid), a receipt's credit lines (whom it came from), a
 * sale's debit lines (whom it billed), a purchase's credit lines (who supplied), a contra's
 * debit lines (where the money went; contras have no sub-ledger).
 */
type Side = 'debit_amount' | 'credit_amount'
type Kind = { table: 'payment_voucher' | 'receipt_voucher' | 'sales' | 'purchase' | 'contra'; date: string; party: Side; other: Side; hasSubLedger: boolean }

export const PAYMENT: Kind = { table: 'payment_voucher', date: 'payment_date', party: 'debit_amount', other: 'credit_amount', hasSubLedger: true }
export const RECEIPT: Kind = { table: 'receipt_voucher', date: 'receipt_date', party: 'credit_amount', other: 'debit_amount', hasSubLedger: true }
export const SALES: Kind = { table: 'sales', date: 'sales_date', party: 'debit_amount', other: 'credit_amount', hasSubLedger: true }
export const PURCHASE: Kind = { table: 'purchase', date: 'purchase_date', party: 'credit_amount', other: 'debit_amount', hasSubLedger: true }
export const CONTRA: Kind = { table: 'contra', date: 'contra_date', party: 'debit_amount', other: 'credit_amount', hasSubLedger: false }

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)
const idOf = (v: unknown) => (typeof v === 'number' ? v : null)

/** The party lines the parameters ask for, as `v` (with its ledger `l`, sub-ledger `s`, branch `b`). */
function partyLines(kind: Kind, p: Values): RawBuilder<unknown> {
  const invoice = text(p.invoice_no)
  return sql`from ${sql.id(kind.table)} v
    join ledger_account l on l.id = v.ledger
    left join sub_ledger_account s on ${kind.hasSubLedger ? sql`s.id = v.sub_ledger` : sql`false`}
    left join branch b on b.id = v.branch
    where v.${sql.ref(kind.party)} > 0
      and (${idOf(p.ledger)}::bigint is null or v.ledger = ${idOf(p.ledger)})
      ${kind.hasSubLedger ? sql`and (${idOf(p.sub_ledger)}::bigint is null or v.sub_ledger = ${idOf(p.sub_ledger)})` : sql``}
      and (${idOf(p.branch)}::bigint is null or v.branch = ${idOf(p.branch)})
      and (${invoice}::text is null or v.invoice_no ilike ${invoice === null ? null : `%${escapeLike(invoice)}%`})
      and (${text(p.date_after)}::date is null or v.${sql.ref(kind.date)} >= ${text(p.date_after)}::date)
      and (${text(p.date_before)}::date is null or v.${sql.ref(kind.date)} <= ${text(p.date_before)}::date)`
}

export const voucherLines =
  (kind: Kind): ReportRun =>
  ({ params }) =>
    sql`select v.id, v.id as voucher_id, v.${sql.ref(kind.date)} as voucher_date, v.invoice_no, l.name as ledger, s.name as sub_ledger, b.name as branch,
      (select string_agg(distinct o.name, ', ' order by o.name) from ${sql.id(kind.table)} x join ledger_account o on o.id = x.ledger
        where x.invoice_no = v.invoice_no and x.${sql.ref(kind.other)} > 0) as related_ledgers,
      v.details, v.${sql.ref(kind.party)} as amount
      ${partyLines(kind, params)}`

export const voucherSummary =
  (kind: Kind): ReportRun =>
  ({ params }) =>
    sql`select coalesce(s.name, '') as sub_ledger, s.id as sub_ledger_id, count(distinct v.invoice_no)::int as vouchers, round(sum(v.${sql.ref(kind.party)}), 2) as amount
      ${partyLines(kind, params)}
      group by s.name, s.id`
