import { f } from '../../kit'

/** The primary groups by seeded name, and the side each one's accounts normally stand on. */
export const natures = ['assets', 'liabilities', 'expenses', 'incomes'] as const
export type Nature = (typeof natures)[number]
export const normalBalances = ['debit', 'credit'] as const
export type NormalBalance = (typeof normalBalances)[number]

export const normalBalanceOf: Readonly<Record<Nature, NormalBalance>> = {
  assets: 'debit',
  expenses: 'debit',
  liabilities: 'credit',
  incomes: 'credit',
}

/**
 * Read-only values derived from the primary group at the root of a row's tree. A row cannot
 * see its ancestors, so the compute gives nothing and the accounting module's afterRead hook
 * (server/domain/accounting/nature.ts) fills them in with one recursive query per page.
 */
export const natureFields = {
  nature: f.choice(natures, { virtual: true, compute: () => null, sortable: false }),
  normal_balance: f.choice(normalBalances, { virtual: true, compute: () => null, sortable: false }),
}
