import type { FormExtension } from '../../engine/form/extension'
import { useUniquenessChecks } from './useUniquenessChecks'

/**
 * The user and employee forms: the generic form (whose password confirmation is the
 * registry's rule, 'Passwords must match') plus the contract's uniqueness checks as the
 * user types (api-contract §3.2, §4.1). On an edit the password may stay blank (the stored
 * one is kept), and so may its confirmation. The UI `settings` are the user's own, set
 * from their layout panels, not here; the session version is the server's bookkeeping.
 */
export const userFormExtension: FormExtension = {
  hiddenFields: () => ['settings', 'session_version'],
  useFieldChecks: useUniquenessChecks,
}
