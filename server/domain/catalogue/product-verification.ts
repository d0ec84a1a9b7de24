import type { EntityHooks } from '../../engine/hooks'

/**
 * A product's `verified_by` (api-contract §4.8) is who turned `is_verified` on: the server
 * sets it on that write and clears it when the flag goes off; a client cannot send it.
 */
export const productVerificationHooks: EntityHooks = {
  beforeWrite({ action, before, values, actor }) {
    if (action === 'delete' || !values) return
    const was = before?.is_verified === true
    const is = values.is_verified === true
    if (is && !was) values.verified_by = actor?.id ?? null
    if (!is && was) values.verified_by = null
  },
}
