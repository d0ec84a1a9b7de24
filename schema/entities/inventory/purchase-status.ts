import { defineEntity, f } from '../../kit'

/** The stages of a vendor's offer (api-contract §4.10 PurchaseStatus), in their order. */
export const PURCHASE_STATUSES = ['pending', 'processing', 'submitted', 'verified', 'cancelled'] as const

/**
 * The purchase statuses (`/purchase_status/api/v1/purchase_status/all/`, key `purchase_statuses`):
 * `{id, name}`, seeded at every start (server/domain/inventory) and relied on by the
 * purchasing flow, so none of the five can be renamed or deleted; admins may add others.
 */
export const purchaseStatus = defineEntity({
  name: 'purchase_status',
  module: 'inventory',
  listKey: 'purchase_statuses',
  ordering: 'id',
  route: { area: 'purchaseStatus-management', list: 'purchaseStatuses' },
  fields: { name: f.text({ max: 100, required: true, search: true, unique: true, code: true }) },
  builtIn: { field: 'name', values: PURCHASE_STATUSES, message: 'detail.built_in_purchase_status' },
  nav: { group: 'inventory', icon: 'label', order: 10 },
})
