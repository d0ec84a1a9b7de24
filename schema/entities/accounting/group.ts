import { defineEntity, f } from '../../kit'
import { chartNode, chartNodeFields } from './chart-node'

/**
 * A group of the chart of accounts (api-contract §4.6): under a primary group or another
 * group, never its own ancestor (the engine keeps a self-reference a tree). The 31 seeded groups
 * have `is_deletable` false and cannot be deleted.
 */
export const group = defineEntity({
  name: 'group',
  module: 'accounting',
  listKey: 'groups',
  route: { area: 'group-management', list: 'groups' },
  fields: {
    // Unique: auto-ledgers find their group by name ("Salary", "Sundry Debtors").
    // Capitalised, not Title Case (the contract's): Title would rewrite the seeded names on
    // their next save ("Misc. Expenses (ASSETS)", "Cash-in-Hand", "Loans and Advances (Assets)").
    name: f.text({ max: 200, required: true, unique: true, search: true, normalize: 'capitalize' }),
    is_primary: f.boolean({ default: false }),
    ...chartNodeFields,
    head_group: f.ref('group', { messages: { tree_cycle: 'validation.group_cycle' } }),
  },
  ...chartNode,
  nav: { group: 'accounting', icon: 'category', order: 2 },
})
