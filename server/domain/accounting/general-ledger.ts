import { sql } from 'kysely'
import { logTypes, type LogType } from '../../../schema/entities/accounting/account-log'
import { voucherSpecOf } from '../../../schema/entities/accounting/vouchers'
import type { Ledger } from '../../engine/posting'
import { postEntries, reverseEntries, standingEntries } from './posting'
import { cancelVoucher, postVoucher } from './voucher-service'

/**
 * The general ledger as the engine posts into it (server/engine/posting.ts): a record that
 * posts `as: 'ledger'` writes general-ledger rows of its own kind under its number (a
 * voucher); one that posts as a voucher kind writes a voucher of that kind — its rows and, in
 * turn, their general-ledger rows (a donation's receipt). Reversals leave the history.
 */
const logTypeOf = (kind: string): LogType => {
  if (!(logTypes as readonly string[]).includes(kind)) throw new Error(`'${kind}' is not a kind of voucher (${logTypes.join(', ')})`)
  return kind as LogType
}

export const generalLedger: Ledger = {
  async post(trx, { as, kind, number, posting, actor }) {
    const header = { date: posting.date, branch: posting.branch ?? null, subLedger: posting.subLedger ?? null, details: posting.details ?? null }
    if (as === 'ledger') {
      await postEntries(trx, { kind: logTypeOf(kind), referenceNo: number, ...header, lines: posting.lines }, { actor: actor?.id ?? null })
      return
    }
    await postVoucher(trx, { kind: logTypeOf(as), invoiceNo: number, ...header, lines: posting.lines, refInvoiceNo: posting.refInvoiceNo ?? null, actor: actor?.id ?? null })
  },

  async reverse(trx, { as, number, actor }) {
    if (as === 'ledger') {
      if ((await standingEntries(trx, number)).length > 0) await reverseEntries(trx, number, { actor: actor?.id ?? null })
      return
    }
    await cancelVoucher(trx, logTypeOf(as), number, actor?.id ?? null)
  },

  async standing(trx, { as, number }) {
    const rows = await standingEntries(trx, number)
    if (rows.length === 0) return null
    // A voucher also holds the invoice it settles, which the general ledger does not.
    const spec = as === 'ledger' ? undefined : voucherSpecOf(as)
    const ref = spec?.hasRefInvoice ? await sql<{ ref_invoice_no: string | null }>`select ref_invoice_no from ${sql.id(spec.kind)} where invoice_no = ${number} order by id limit 1`.execute(trx) : undefined
    return {
      date: rows[0]!.log_date,
      details: rows[0]!.details,
      ...(spec ? { refInvoiceNo: ref?.rows[0]?.ref_invoice_no ?? null } : {}),
      lines: rows.map((r) => ({ ledger: r.ledger, debit: r.debit_amount, credit: r.credit_amount, subLedger: r.sub_ledger, branch: r.branch })),
    }
  },
}
