import type { DomainModule } from '../../engine/modules'
import { causeDonationHooks, causeDonationReceipt } from './cause-donations'
import { registerCauseRoutes } from './cause-routes'
import { causePosting } from './causes'
import { donationReceipt } from './donations'
import { seedPaymentMethods } from './payment-method-seed'
import { registerSubscriptionRoutes, subscriptionHooks, subscriptionReceipt } from './subscriptions'

/**
 * Membership and donations (issue 12): members (users with their ledger, the registry's
 * `ledger`), their kinds, subscriptions, causes, donations and cause donations — each posted
 * to the general ledger through the accounting core in the transaction that writes it.
 */
export function membershipModule(): DomainModule {
  return {
    name: 'membership',
    hooks: {
      monthly_subscription: subscriptionHooks,
      cause_donation: causeDonationHooks,
    },
    // What each posts (the registry's `posts` says when): the engine numbers, posts, reposts and reverses.
    postings: {
      monthly_subscription: subscriptionReceipt,
      cause: causePosting,
      donation: donationReceipt,
      cause_donation: causeDonationReceipt,
    },
    routes(app, deps) {
      registerSubscriptionRoutes(app, deps)
      registerCauseRoutes(app, deps)
    },
    async onStart({ db, registry }) {
      // A test's registry of its own may have no payment methods.
      if (registry.some((e) => e.name === 'payment_method')) await seedPaymentMethods(db)
    },
  }
}
