import type { FormExtension } from '../../engine/form/extension'

/**
 * A new ticket on the generic form: subject, department, priority, type, the first message
 * and its attachment. The requester is the caller when they open it for themselves (a
 * customer: `own` — the server names them); staff who may open tickets pick the customer.
 * The requester's name and address are the storefront's, for a guest's acknowledgement.
 */
export function ticketFormExtension({ picksRequester }: { picksRequester: boolean }): FormExtension {
  return {
    hiddenFields: ({ isNew }) => ['name', 'email', ...(isNew && picksRequester ? [] : ['user'])],
  }
}
