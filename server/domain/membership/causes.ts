import { utcDay } from '../../../schema/kit/dates'
import type { PostingOf } from '../../engine/posting'
import { ensureLedger, ensureSubLedger, seededLedger } from '../accounting/ledgers'

/**
 * A cause's posting (api-contract §4.5): its goal as a sales entry — Dr the cause's ledger
 * (`cause_ledger` under Sundry Debtors, made with the cause: the registry's `ledger`), Cr
 * Company Sales — under the sub-ledger `cause`, numbered and kept as `sales_invoice_no`. The
 * registry's `posts` says when: while the goal is above zero; a new goal reposts under that
 * number, deleting the cause reverses it.
 */
export const causePosting: PostingOf = async ({ trx, registry, hooks, actor, record }) => {
  const deps = { trx, registry, hooks, actor }
  const goal = String(record.goal_amount)
  const ledger = await ensureLedger(deps, { type: 'cause_ledger', referenceId: Number(record.id), group: 'Sundry Debtors', name: String(record.name) })
  return {
    date: utcDay(record.created_at as Date | string),
    subLedger: await ensureSubLedger(deps, 'cause'),
    lines: [
      { ledger, debit: goal },
      { ledger: await seededLedger(trx, 'Company Sales'), credit: goal },
    ],
  }
}
