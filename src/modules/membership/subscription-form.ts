import { f, type Message } from '../../../schema/kit'
import type { FormExtension } from '../../engine/form/extension'

/**
 * A new monthly subscription is given to several members at once (api-contract §4.5: the
 * create takes `members`, one row and one receipt each, all or none): the form asks for
 * members in place of the one member, and sends them. A stored subscription is one member's.
 */
export const subscriptionFormExtension: FormExtension = {
  hiddenFields: ({ isNew }) => (isNew ? ['member'] : []),
  extraFields: [{ name: 'members', field: f.refs('member', { required: true }), after: 'member', isShown: ({ isNew }) => isNew }],
  // At least one: a many-to-many takes none otherwise.
  validate: (values, { isNew }): Record<string, Message> =>
    isNew && (!Array.isArray(values.members) || values.members.length === 0) ? { members: { key: 'validation.required', params: { label: 'field.members' } } } : {},
  payload: (values, { isNew }) => (isNew ? { members: values.members } : {}),
}
