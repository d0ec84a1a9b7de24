import type { ScreenMap } from '../../engine/form/extension'

/** The orders module's screens, by entity (issue 22): an order's lines show each product's stock. */
export const ordersScreens: ScreenMap = {
  order: { formExtension: () => import('./order-form').then((m) => m.orderFormExtension) },
}
