import type { DomainModule } from '../../engine/modules'
import { notify } from '../../engine/notify'
import { makePurchaseHandler } from './from-request'
import { paymentHooks, paymentPosting } from './payments'
import { billPosting, cancelHandler, confirmHandler, purchaseHooks, purchaseMoves } from './purchases'
import { purchaseFinalRows, purchaseRequestSummaryRows } from './purchase-reports'
import { registerPurchasingRoutes } from './routes'

/**
 * Purchasing (issue 21; api-contract §4.10, §5.2): vendors' offers (purchase requests) and
 * the company's final purchases, both registry documents with lines and workflows. This
 * module holds their business rules only — what a confirmation moves in stock and posts,
 * the payment made with it, a cancellation's payments —
 * and the contract's routes beside the engine's.
 */
export function purchasingModule(): DomainModule {
  return {
    name: 'purchasing',
    hooks: {
      purchase_final: purchaseHooks,
      purchase_payment: paymentHooks,
      // Whoever handles vendors' offers hears of each new one (issue 23), but whoever entered it.
      purchase_request: {
        async afterWrite({ trx, registry, entity, action, rowId, after, actor }) {
          if (action !== 'create' || !after) return
          const from = [after.first_name, after.last_name].filter((x) => typeof x === 'string' && x !== '').join(' ') || (typeof after.email === 'string' ? after.email : '')
          const message = { key: from ? 'notification.purchase_request' : 'notification.purchase_request_unnamed', params: { number: String(after.invoice_no ?? rowId), from } }
          await notify(trx, registry, undefined, { to: { permission: entity.permissions.LIST }, kind: 'purchase_request', message, entity: entity.name, recordId: rowId, except: actor?.id })
        },
      },
    },
    actions: { purchase_final: { confirm: confirmHandler, cancel: cancelHandler }, purchase_request: { make_purchase: makePurchaseHandler } },
    stockMoves: { purchase_final: purchaseMoves },
    reports: { purchase_final_report: purchaseFinalRows, purchase_request_summary_report: purchaseRequestSummaryRows },
    postings: { purchase_final: billPosting, purchase_payment: paymentPosting },
    routes: registerPurchasingRoutes,
  }
}
