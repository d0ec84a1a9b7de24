import { f, type Message } from '../../../schema/kit'
import type { ExtraField, FormExtension } from '../../engine/form/extension'
import { useUniquenessChecks } from './useUniquenessChecks'

/**
 * The user and employee forms: the generic form plus what the contract's forms add
 * (api-contract §3.2, §4.1) — uniqueness checks as the user types, and a confirmation of
 * the password ('Passwords must match'). On an edit the password may stay blank (the
 * stored one is kept), and so may its confirmation. The UI `settings` are the user's own,
 * set from their layout panels, not here.
 */
const confirmation = (required: boolean): ExtraField => ({
  name: 'confirm_password',
  field: required ? f.password({ required: true }) : f.password(),
  after: 'password',
  isShown: ({ isNew }) => isNew === required,
})

export const userFormExtension: FormExtension = {
  hiddenFields: () => ['settings'],
  extraFields: [confirmation(true), confirmation(false)],
  validate: (values): Record<string, Message> => (values.confirm_password !== values.password ? { confirm_password: { key: 'validation.password_match' } } : {}),
  useFieldChecks: useUniquenessChecks,
}

/** The employee form's own labels where they differ from the registry's (api-contract §4.1). */
export const employeeFormExtension: FormExtension = {
  ...userFormExtension,
  labels: { street_address_one: 'identity.primary_address', street_address_two: 'identity.secondary_address' },
}
