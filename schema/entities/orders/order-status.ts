import { defineEntity, f } from '../../kit'

/** An order's stages (api-contract §4.9 OrderStatus), in their order; `cancelled` ends it. */
export const ORDER_STATUSES = ['pending', 'processing', 'confirmed', 'packaging', 'on_the_way', 'delivered', 'cancelled'] as const

/**
 * The order statuses (`/orderstatus/api/v1/orderstatus/all/`, key `orderstatuses`): `{id,
 * name}`, seeded at every start (server/domain/orders) and followed by every order's
 * `order_status` (its workflow's lookup), so none of the seven can be renamed or deleted.
 */
export const orderStatus = defineEntity({
  name: 'orderstatus',
  module: 'orders',
  listKey: 'orderstatuses',
  model: 'OrderStatus',
  permission: 'ORDER_STATUS',
  ordering: 'id',
  route: { area: 'orderStatus-management', list: 'orderStatuses' },
  fields: { name: f.text({ max: 100, required: true, search: true, unique: true, code: true }) },
  builtIn: { field: 'name', values: ORDER_STATUSES, message: 'detail.built_in_order_status' },
  nav: { group: 'e-commerce', icon: 'label', order: 20 },
})
