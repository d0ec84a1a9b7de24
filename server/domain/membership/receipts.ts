import type { Row } from '../../db/types'
import type { PostingOf } from '../../engine/posting'
import { seededLedger, type LedgerDeps } from '../accounting/ledgers'

/**
 * Records that are money received (a subscription, a donation) post a receipt — Dr the cash
 * or bank ledger it was received into, Cr the payer's ledger (api-contract §5.1) — under their
 * `invoice_no` (the registry's `posts`: the engine numbers, posts, reposts when the receipt
 * changes and reverses it on delete, in the record's transaction). Any refusal (no Cash
 * ledger, no group for the payer's ledger) rolls the record back with it.
 */
export type ReceiptSpec = {
  /** The ledger the receipt credits, for the record as written — got or made. */
  creditLedger: (deps: LedgerDeps, row: Row) => Promise<number>
  /** The cash or bank ledger the receipt debits (default: Cash). */
  debitLedger?: (deps: LedgerDeps, row: Row) => Promise<number>
  /** The receipt's day, for the record as written. */
  date: (row: Row) => string
}

export const receiptOf =
  (spec: ReceiptSpec): PostingOf =>
  async ({ trx, registry, hooks, actor, record }) => {
    const amount = String(record.amount)
    const deps = { trx, registry, hooks, actor }
    return {
      date: spec.date(record),
      lines: [
        { ledger: spec.debitLedger ? await spec.debitLedger(deps, record) : await seededLedger(trx, 'Cash'), debit: amount },
        { ledger: await spec.creditLedger(deps, record), credit: amount },
      ],
      // A donation to a cause names the invoice it settles: the cause's sales entry.
      refInvoiceNo: typeof record.ref_invoice_no === 'string' ? record.ref_invoice_no : null,
    }
  }
