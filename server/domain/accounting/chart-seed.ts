import { sql } from 'kysely'
import type { Trx } from '../../db/types'

/**
 * The standard chart of accounts (api-contract §4.6), seeded at every start: what is missing
 * is added, what exists (by name) is left as admins made it. Names are stored as spelled
 * there ("Deposits (Asssets)", "Misc. Expenses (ASSETS)"), past the forms' Title Case.
 * Every seeded row has `is_deletable` false: postings and auto-ledgers rely on them.
 */
export const PRIMARY_GROUPS = ['Assets', 'Liabilities', 'Expenses', 'Incomes'] as const

type Head = { primary: (typeof PRIMARY_GROUPS)[number] } | { group: string }
type Seed = readonly [name: string, head: Head]

const under = (head: Head, names: readonly string[]): Seed[] => names.map((name) => [name, head] as const)

/** Parents before children: each group's head is seeded before it. */
export const SEEDED_GROUPS: readonly Seed[] = [
  ...under({ primary: 'Assets' }, ['Current Assets', 'Fixed Assets', 'Investments', 'Misc. Expenses (ASSETS)']),
  ...under({ group: 'Current Assets' }, ['Bank Accounts', 'Cash-in-Hand', 'Deposits (Asssets)', 'Loans and Advances (Assets)', 'Stock-in-Hand', 'Sundry Debtors']),
  ...under({ group: 'Sundry Debtors' }, ['Customers']),
  ...under({ primary: 'Liabilities' }, ['Branch / Divisions', 'Capital Account', 'Current Liabilities', 'Salary', 'Investment', 'Loans (Liability)', 'Suspense A/c']),
  ...under({ group: 'Capital Account' }, ['Reserves & Surplus']),
  ...under({ group: 'Current Liabilities' }, ['Duties & Taxes', 'Provisions', 'Sundry Creditors']),
  ...under({ group: 'Loans (Liability)' }, ['Bank OD A/c', 'Secured Loans', 'Unsecured Loans']),
  ...under({ primary: 'Expenses' }, ['Direct Expenses', 'Indirect Expenses', 'Purchase Accounts']),
  ...under({ primary: 'Incomes' }, ['Direct Incomes', 'Indirect Incomes', 'Sales Accounts']),
]

export const SEEDED_LEDGERS: ReadonlyArray<readonly [name: string, head: Head, ledgerType: string | null]> = [
  ['Bank', { group: 'Bank Accounts' }, null],
  ['Cash', { group: 'Cash-in-Hand' }, null],
  ['Profit & Loss A/C', { primary: 'Liabilities' }, null],
  ['Company Purchase', { group: 'Purchase Accounts' }, 'company_purchase'],
  ['Company Sales', { group: 'Sales Accounts' }, 'company_sales'],
  ['Opening Balance Of Customer', { group: 'Customers' }, 'opening_balance_of_customer'],
  // Perpetual inventory (decisions.md): goods on hand at cost, what counts find or lose, what sales take out.
  ['Stock In Hand', { group: 'Stock-in-Hand' }, 'stock_in_hand'],
  ['Stock Adjustment', { group: 'Indirect Expenses' }, 'stock_adjustment'],
  ['Cost of Goods Sold', { group: 'Direct Expenses' }, 'cost_of_goods_sold'],
  // What an order charges beside its goods: delivery, and the tax owed on the sale.
  ['Shipping Charges', { group: 'Direct Incomes' }, 'shipping_income'],
  ['Output Tax', { group: 'Duties & Taxes' }, 'output_tax'],
  // The few cents a voucher's sides may differ by (domain-anchors rule 35; voucher-postings.ts).
  ['Round Off', { group: 'Indirect Expenses' }, 'round_off'],
]

const headIds = (head: Head) =>
  'primary' in head
    ? { head_group: sql<number | null>`null`, head_primarygroup: sql<number>`(select id from primary_group where name = ${head.primary})` }
    : { head_group: sql<number>`(select id from "group" where name = ${head.group})`, head_primarygroup: sql<number | null>`null` }

export async function seedChart(trx: Trx): Promise<void> {
  for (const name of PRIMARY_GROUPS) {
    await sql`insert into primary_group (name, is_deletable) select ${name}, false
      where not exists (select 1 from primary_group where name = ${name})`.execute(trx)
  }
  for (const [name, head] of SEEDED_GROUPS) {
    const h = headIds(head)
    await sql`insert into "group" (name, head_group, head_primarygroup, is_deletable, is_primary, is_default)
      select ${name}, ${h.head_group}, ${h.head_primarygroup}, false, false, false
      where not exists (select 1 from "group" where name = ${name})`.execute(trx)
  }
  for (const [name, head, ledgerType] of SEEDED_LEDGERS) {
    const h = headIds(head)
    // Ledger names are not unique (two customers may share one): a seed is known by name and type.
    await sql`insert into ledger_account (name, ledger_type, head_group, head_primarygroup, is_deletable, is_default)
      select ${name}, ${ledgerType}, ${h.head_group}, ${h.head_primarygroup}, false, false
      where not exists (select 1 from ledger_account where name = ${name} and is_deletable = false)`.execute(trx)
  }
}
