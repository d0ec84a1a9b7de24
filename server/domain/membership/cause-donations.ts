import { namesNoOne } from '../../../schema/entities/membership/cause-donation'
import type { EntityHooks } from '../../engine/hooks'

/**
 * Cause donations (api-contract §4.5): donations seen from their cause
 * (schema/entities/membership/cause-donation.ts), so the donation's rules and hooks run for
 * them (donations.ts). The contract's create, `{cause, amount}`, names no donor: such a gift
 * is anonymous — credited to the anonymous donors' ledger. It used to be credited to whoever
 * was signed in, the clerk who typed it (issue 20). A body that names a member, a person or
 * says `is_anonymous` is taken as it says.
 */
export const causeDonationHooks: EntityHooks = {
  beforeValidate({ action, input }) {
    if (action === 'create' && namesNoOne(input)) input.is_anonymous = true
  },
}
