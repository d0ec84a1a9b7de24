import type { FormExtension } from '../../../engine/form/extension'
import { LedgerSelect } from './LedgerSelect'
import { VoucherPostings } from './VoucherPostings'

/**
 * A voucher on the generic form (issue 18): the registry makes it a document of a header and
 * ledger lines, judged by its rules as one types (voucher-rules.ts) with a live balance, saved
 * under its number and printed from its `print`. The module adds only its own: the ledger
 * picker that marks cash and bank, the general-ledger postings under the form, and its delete
 * said as what it is — a cancellation with reversing entries.
 */
export const voucherForm: FormExtension = {
  widgets: { 'items.ledger': LedgerSelect },
  panels: [VoucherPostings],
  deleteWords: { label: 'accounting.cancel_voucher', title: 'accounting.cancel_title', confirm: 'accounting.cancel_voucher', cancel: 'accounting.keep_voucher', text: 'accounting.cancel_text', done: 'accounting.cancelled' },
}
