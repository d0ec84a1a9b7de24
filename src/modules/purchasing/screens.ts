import type { ScreenMap } from '../../engine/form/extension'

/** The purchasing module's screens, by entity (issue 21): an offer's form shows the pictures of its items. */
export const purchasingScreens: ScreenMap = {
  purchase_request: { formExtension: () => import('./offer-form').then((m) => m.offerFormExtension) },
}
