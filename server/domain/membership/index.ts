import type { HookRegistry } from '../../engine/hooks'
import type { DomainModule } from '../../engine/modules'
import { causeDonationHooks } from './cause-donations'
import { registerCauseRoutes } from './cause-routes'
import { causeHooks } from './causes'
import { donationHooks } from './donations'
import { seedPaymentMethods } from './payment-method-seed'
import { registerSubscriptionRoutes, subscriptionHooks } from './subscriptions'

/**
 * Membership and donations (issue 12): members (users with their ledger, the registry's
 * `ledger`), their kinds, subscriptions, causes, donations and cause donations — each posted
 * to the general ledger through the accounting core in the transaction that writes it.
 */
export function membershipModule(): DomainModule {
  // The app's hook registry, for the users, ledgers and sub-ledgers this module makes through the engine.
  let engineHooks: HookRegistry | undefined
  const hooks = () => engineHooks
  return {
    name: 'membership',
    hooks: {
      monthly_subscription: subscriptionHooks(hooks),
      cause: causeHooks(hooks),
      donation: donationHooks(hooks),
      cause_donation: causeDonationHooks(hooks),
    },
    routes(app, deps) {
      engineHooks = deps.hooks
      registerSubscriptionRoutes(app, deps)
      registerCauseRoutes(app, deps)
    },
    async onStart({ db, registry }) {
      // A test's registry of its own may have no payment methods.
      if (registry.some((e) => e.name === 'payment_method')) await seedPaymentMethods(db)
    },
  }
}
