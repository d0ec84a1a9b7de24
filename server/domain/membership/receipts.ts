import type { Row } from '../../db/types'
import type { EntityHooks, HookContext } from '../../engine/hooks'
import type { Values } from '../../engine/validate'
import { nextInvoiceNo } from '../accounting/numbering'
import { cancelVoucher, postVoucher, repostVoucher } from '../accounting/voucher-service'
import { seededLedger, today, type LedgerDeps } from './ledgers'

/**
 * Records that are money received (a subscription, a donation, a cause donation) each post a
 * receipt — Dr Cash, Cr the payer's ledger (api-contract §5.1) — under their `invoice_no`,
 * in the transaction that writes them: the number is taken before the row is written (so
 * the row holds it), the receipt posted after. A change of what was posted reverses the
 * receipt and posts it again under the same number; a delete cancels it. Any refusal (no
 * Cash ledger, no group for the payer's ledger) rolls the record back with it.
 */
const RECEIPT = 'receipt_voucher'
const RECEIPT_PREFIX = 'RV'

export type ReceiptSpec = {
  /** The fields whose change changes the receipt (the amount, who paid). */
  postedFields: readonly string[]
  /** The ledger the receipt credits, for the record as written (`row`) — got or made. */
  creditLedger: (deps: LedgerDeps, row: Row) => Promise<number>
  /** The receipt's day, for the record as written. */
  date: (row: Row) => string
}

const isChanged = (fields: readonly string[], before: Row | null, after: Values | Row | null) =>
  fields.some((f) => after !== null && f in after && String(before?.[f] ?? '') !== String(after[f] ?? ''))

export function receiptHooks(spec: ReceiptSpec, hooks: () => LedgerDeps['hooks']): Required<Pick<EntityHooks, 'beforeWrite' | 'afterWrite'>> {
  const depsOf = (ctx: HookContext): LedgerDeps => ({ trx: ctx.trx, registry: ctx.registry, hooks: hooks(), actor: ctx.actor })
  return {
    async beforeWrite({ trx, action, before, values }) {
      if (!values) return
      const needsNumber = action === 'create' || (action === 'update' && !before?.invoice_no && isChanged(spec.postedFields, before, values))
      if (needsNumber) values.invoice_no = await nextInvoiceNo(trx, RECEIPT_PREFIX, today())
    },
    async afterWrite(ctx) {
      const { trx, action, before, after, actor } = ctx
      const actorId = actor?.id ?? null
      if (action === 'delete') {
        if (typeof before?.invoice_no === 'string') await cancelVoucher(trx, RECEIPT, before.invoice_no, actorId)
        return
      }
      if (!after || typeof after.invoice_no !== 'string') return
      if (action === 'update' && before?.invoice_no === after.invoice_no && !isChanged(spec.postedFields, before, after)) return
      const deps = depsOf(ctx)
      const amount = String(after.amount)
      const lines = [
        { ledger: await seededLedger(trx, 'Cash'), debit: amount },
        { ledger: await spec.creditLedger(deps, after), credit: amount },
      ]
      // A cause donation's receipt names the invoice it settles: the cause's sales entry.
      const refInvoiceNo = typeof after.ref_invoice_no === 'string' ? after.ref_invoice_no : null
      const voucher = { kind: RECEIPT, date: spec.date(after), lines, actor: actorId, invoiceNo: after.invoice_no, refInvoiceNo } as const
      if (action === 'create') await postVoucher(trx, voucher)
      else await repostVoucher(trx, voucher)
    },
  }
}
