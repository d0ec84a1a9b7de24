import type { Row } from '../../db/types'
import type { EntityHooks, HookContext, HookRegistry } from '../../engine/hooks'
import { toMinor } from '../../../schema/kit/money'
import { nextInvoiceNo } from '../accounting/numbering'
import { cancelVoucher, postVoucher, repostVoucher } from '../accounting/voucher-service'
import { ensureLedger, ensureSubLedger, seededLedger, today, type LedgerDeps } from './ledgers'

/**
 * A cause's postings (api-contract §4.5): on create, in its transaction, its ledger
 * (`cause_ledger` under Sundry Debtors, `reference_id` its id) and — for a goal above zero —
 * a sales entry of the goal (Dr the cause's ledger, Cr Company Sales) under the sub-ledger
 * `cause`, numbered by the invoice numbering and kept as `sales_invoice_no`. A new goal
 * reverses the entry and posts it again under that number; deleting the cause cancels it.
 */
const SALES = 'sales'

const hasGoal = (goal: unknown) => goal !== null && goal !== undefined && toMinor(String(goal)) > 0n

export function causeHooks(hooks: () => HookRegistry | undefined): EntityHooks {
  const depsOf = (ctx: HookContext): LedgerDeps => ({ trx: ctx.trx, registry: ctx.registry, hooks: hooks(), actor: ctx.actor })
  const causeLedger = (deps: LedgerDeps, row: Row) => ensureLedger(deps, { type: 'cause_ledger', referenceId: Number(row.id), group: 'Sundry Debtors', name: String(row.name) })

  return {
    async beforeWrite({ trx, action, before, values }) {
      if (!values || !hasGoal(values.goal_amount) || before?.sales_invoice_no) return
      if (action === 'create' || String(before?.goal_amount) !== String(values.goal_amount)) values.sales_invoice_no = await nextInvoiceNo(trx, 'SA', today())
    },
    async afterWrite(ctx) {
      const { trx, action, before, after, actor } = ctx
      const actorId = actor?.id ?? null
      if (action === 'delete') {
        if (typeof before?.sales_invoice_no === 'string') await cancelVoucher(trx, SALES, before.sales_invoice_no, actorId)
        return
      }
      if (!after) return
      const deps = depsOf(ctx)
      const ledger = await causeLedger(deps, after)
      const invoiceNo = after.sales_invoice_no
      if (typeof invoiceNo !== 'string') return
      if (action === 'update' && before?.sales_invoice_no === invoiceNo && String(before.goal_amount) === String(after.goal_amount)) return
      if (!hasGoal(after.goal_amount)) {
        await cancelVoucher(trx, SALES, invoiceNo, actorId)
        return
      }
      const goal = String(after.goal_amount)
      const voucher = {
        kind: SALES,
        date: today(),
        invoiceNo,
        subLedger: await ensureSubLedger(deps, 'cause'),
        lines: [
          { ledger, debit: goal },
          { ledger: await seededLedger(trx, 'Company Sales'), credit: goal },
        ],
        actor: actorId,
      } as const
      if (action === 'create') await postVoucher(trx, voucher)
      else await repostVoucher(trx, voucher)
    },
  }
}
