import { voucherSpecs, type VoucherSpec } from '../../../schema/entities/accounting/vouchers'
import { money } from '../../../schema/kit'
import type { Executor, Row } from '../../db/types'
import { seededLedger } from './ledgers'
import type { Posting, PostingOf } from '../../engine/posting'

/**
 * What a voucher posts (the registry's `posts: { as: 'ledger' }`): its lines, under its
 * number, dated its date, with its branch, sub-ledger and details — each line becomes a
 * general-ledger row (api-contract §5.1 "every voucher line is mirrored into AccountLog").
 */
const postingOf =
  (spec: VoucherSpec): PostingOf =>
  async ({ record, trx }): Promise<Posting> => {
    const lines = ((record.items as Row[] | null) ?? []).map((line) => ({ ledger: Number(line.ledger), debit: String(line.debit_amount), credit: String(line.credit_amount) }))
    return {
      date: String(record[spec.dateField]).slice(0, 10),
      branch: (record.branch as number | null) ?? null,
      subLedger: spec.hasSubLedger ? ((record.sub_ledger as number | null) ?? null) : null,
      details: (record.details as string | null) ?? null,
      lines: [...lines, ...(await roundOff(trx, lines))],
    }
  }

/**
 * What evens the lines out when their sides differ by the few cents the voucher's rule lets
 * through (ROUND_OFF_LIMIT, domain-anchors rule 35): a line of the difference to the seeded
 * Round Off ledger, on the short side. None when they balance.
 */
async function roundOff(trx: Executor, lines: ReadonlyArray<{ debit: string; credit: string }>): Promise<Array<{ ledger: number; debit?: string; credit?: string }>> {
  const difference = money.subtract(money.sum(lines.map((l) => l.debit)), money.sum(lines.map((l) => l.credit)))
  if (money.isZero(difference)) return []
  const ledger = await seededLedger(trx, 'Round Off')
  return money.compare(difference, '0') > 0 ? [{ ledger, credit: difference }] : [{ ledger, debit: money.subtract('0', difference) }]
}

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
