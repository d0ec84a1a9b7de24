import { voucherSpecs, type VoucherSpec } from '../../../schema/entities/accounting/vouchers'
import type { Row } from '../../db/types'
import type { Posting, PostingOf } from '../../engine/posting'

/**
 * What a voucher posts (the registry's `posts: { as: 'ledger' }`): its lines, under its
 * number, dated its date, with its branch, sub-ledger and details — each line becomes a
 * general-ledger row (api-contract §5.1 "every voucher line is mirrored into AccountLog").
 */
const postingOf =
  (spec: VoucherSpec): PostingOf =>
  ({ record }): Posting => ({
    date: String(record[spec.dateField]).slice(0, 10),
    branch: (record.branch as number | null) ?? null,
    subLedger: spec.hasSubLedger ? ((record.sub_ledger as number | null) ?? null) : null,
    details: (record.details as string | null) ?? null,
    lines: ((record.items as Row[] | null) ?? []).map((line) => ({ ledger: Number(line.ledger), debit: String(line.debit_amount), credit: String(line.credit_amount) })),
  })

export const voucherPostings: Record<string, PostingOf> = Object.fromEntries(voucherSpecs.map((spec) => [spec.kind, postingOf(spec)]))

/** A posting as the voucher of a kind holds it: the document a module's posting writes (a donation's receipt). */
export function voucherDocumentOf(spec: VoucherSpec, number: string, posting: Posting): Record<string, unknown> {
  return {
    invoice_no: number,
    [spec.dateField]: posting.date,
    branch: posting.branch ?? null,
    ...(spec.hasSubLedger ? { sub_ledger: posting.subLedger ?? null } : {}),
    ...(spec.hasRefInvoice ? { ref_invoice_no: posting.refInvoiceNo ?? null } : {}),
    details: posting.details ?? null,
    items: posting.lines.map((line) => ({ ledger: line.ledger, debit_amount: line.debit ?? '0', credit_amount: line.credit ?? '0' })),
  }
}
