import type { HookRegistry } from '../../engine/hooks'
import type { DomainModule } from '../../engine/modules'
import { causeDonationHooks } from './cause-donations'
import { registerCauseRoutes } from './cause-routes'
import { causePosting } from './causes'
import { donationHooks, donationReceipt } from './donations'
import { seedPaymentMethods } from './payment-method-seed'
import { giveLedgersToPaymentMethods, paymentMethodHooks } from './payment-methods'
import { registerSubscriptionRoutes, subscriptionHooks, subscriptionReceipt } from './subscriptions'

/**
 * Membership and donations (issue 12): members (users with their ledger, the registry's
 * `ledger`), their kinds, subscriptions, causes, and donations — one model, seen from the
 * cause as cause donations (issue 20) — each posted to the general ledger through the
 * accounting core in the transaction that writes it.
 */
export function membershipModule(): DomainModule {
  // The app's hook registry, for the ledger accounts this module makes through the engine.
  let engineHooks: HookRegistry | undefined
  return {
    name: 'membership',
    hooks: {
      monthly_subscription: subscriptionHooks,
      // A cause donation is a donation: these run for it too, then its own.
      donation: donationHooks,
      cause_donation: causeDonationHooks,
      payment_method: paymentMethodHooks(() => engineHooks),
    },
    // What each posts (the registry's `posts` says when): the engine numbers, posts, reposts and reverses.
    postings: {
      monthly_subscription: subscriptionReceipt,
      cause: causePosting,
      donation: donationReceipt,
    },
    routes(app, deps) {
      engineHooks = deps.hooks
      registerSubscriptionRoutes(app, deps)
      registerCauseRoutes(app, deps)
    },
    async onStart(deps) {
      // A test's registry of its own may have no payment methods.
      if (!deps.registry.some((e) => e.name === 'payment_method')) return
      await seedPaymentMethods(deps.db)
      await giveLedgersToPaymentMethods(deps)
    },
  }
}
