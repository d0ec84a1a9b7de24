import type { ScreenMap } from '../../engine/form/extension'

/** The membership module's screens, by entity (issue 12): a new subscription is for several members at once. */
export const membershipScreens: ScreenMap = {
  monthly_subscription: { formExtension: () => import('./subscription-form').then((m) => m.subscriptionFormExtension) },
}
