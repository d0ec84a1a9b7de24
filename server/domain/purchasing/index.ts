import type { DomainModule } from '../../engine/modules'
import { makePurchaseHandler } from './from-request'
import { paymentHooks, paymentPosting } from './payments'
import { billPosting, cancelHandler, confirmHandler, purchaseHooks, purchaseMoves } from './purchases'
import { registerPurchasingRoutes } from './routes'
import { statusMirror } from './statuses'

/**
 * Purchasing (issue 21; api-contract §4.10, §5.2): vendors' offers (purchase requests) and
 * the company's final purchases, both registry documents with lines and workflows. This
 * module holds their business rules only — what a confirmation moves in stock and posts,
 * the payment made with it, a cancellation's payments, the contract's `purchase_status` —
 * and the contract's routes beside the engine's.
 */
export function purchasingModule(): DomainModule {
  const purchaseStatus = statusMirror('purchase_final')
  return {
    name: 'purchasing',
    hooks: {
      purchase_request: statusMirror('purchase_request'),
      purchase_final: {
        ...purchaseStatus,
        async beforeWrite(ctx) {
          await purchaseHooks.beforeWrite!(ctx)
          await purchaseStatus.beforeWrite!(ctx)
        },
      },
      purchase_payment: paymentHooks,
    },
    actions: { purchase_final: { confirm: confirmHandler, cancel: cancelHandler }, purchase_request: { make_purchase: makePurchaseHandler } },
    stockMoves: { purchase_final: purchaseMoves },
    postings: { purchase_final: billPosting, purchase_payment: paymentPosting },
    routes: registerPurchasingRoutes,
  }
}
