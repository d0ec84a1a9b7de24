import { f, type Rule } from '../../kit'
import { natureFields } from './nature'

/**
 * What a node of the chart of accounts is, a group or a ledger account alike (api-contract
 * §4.6): it hangs under exactly one parent — a group (`head_group`) or a primary group
 * (`head_primarygroup`) — takes its nature and normal balance from the primary group at the
 * root of its tree, and a seeded one (`is_deletable` false) is never deleted.
 */
export const chartNodeFields = {
  head_group: f.ref('group'),
  head_primarygroup: f.ref('primary_group'),
  is_deletable: f.boolean({ default: true, readOnly: true }),
  is_default: f.boolean({ default: false }),
  ...natureFields,
}

const isSet = (v: unknown) => v !== null && v !== undefined && v !== ''

/** Two rules, so that each case gets the contract's own message ("Must provide either …" / "… but not both"), on `head_group`. */
const headRules: readonly Rule[] = [
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

/** The rest of a chart node's declaration, shared by groups and ledger accounts. */
export const chartNode = {
  rules: headRules,
  builtIn: { field: 'is_deletable', values: [false], message: 'detail.chart_seed_undeletable' },
  filters: ['head_group', 'head_primarygroup'],
} as const
