import { defineEntity, f } from '../../kit'
import { natureFields } from './nature'

/**
 * The four roots of the chart of accounts (api-contract §4.6): Assets, Liabilities, Expenses,
 * Incomes. Seeded at start (server/domain/accounting/chart-seed.ts) and never created, renamed
 * or deleted by anyone: the nature of every account below them depends on which one it is.
 */
export const primaryGroup = defineEntity({
  name: 'primary_group',
  module: 'accounting',
  listKey: 'primary_groups',
  ordering: 'id',
  route: { area: 'primaryGroup-management', list: 'primaryGroups' },
  fields: {
    name: f.text({ max: 100, required: true, unique: true, search: true, normalize: 'title' }),
    is_deletable: f.boolean({ default: false, readOnly: true }),
    ...natureFields,
  },
  routes: { create: false, update: false },
  builtIn: { field: 'is_deletable', values: [false], message: 'detail.chart_seed_undeletable' },
  nav: { group: 'accounting', icon: 'account_balance', order: 1 },
})
