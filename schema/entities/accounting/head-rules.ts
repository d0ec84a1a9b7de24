import type { Rule } from '../../kit'

const isSet = (v: unknown) => v !== null && v !== undefined && v !== ''

/**
 * A group or a ledger account hangs under exactly one parent: a group (`head_group`) or a
 * primary group (`head_primarygroup`). Two rules, so that each case gets the contract's own
 * message ("Must provide either …" / "… but not both"), on `head_group`.
 */
export const headRules: readonly Rule[] = [
  {
    field: 'head_group',
    message: 'validation.head_required',
    fields: ['head_group', 'head_primarygroup'],
    check: (values) => isSet(values.head_group) || isSet(values.head_primarygroup),
  },
  {
    field: 'head_group',
    message: 'validation.head_not_both',
    fields: ['head_group', 'head_primarygroup'],
    check: (values) => !(isSet(values.head_group) && isSet(values.head_primarygroup)),
  },
]
