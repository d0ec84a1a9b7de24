import { defineEntity, f, money } from '../../kit'

/**
 * A cause donations are collected for (api-contract §4.5). Its create, in the same
 * transaction, makes its ledger (`cause_ledger` under Sundry Debtors) and posts the goal as a
 * sales entry (Dr the cause's ledger, Cr Company Sales) under `sales_invoice_no`, the invoice
 * its donations' receipts refer to; `raised_amount` is the sum of its donations, kept by the
 * server (server/domain/membership/causes.ts, cause-donations.ts).
 */
export const cause = defineEntity({
  name: 'cause',
  module: 'membership',
  listKey: 'causes',
  route: { area: 'cause-management', list: 'causes' },
  fields: {
    name: f.text({ max: 255, required: true, search: true }),
    goal_amount: f.money({ default: '0.00', min: '0' }),
    raised_amount: f.money({ default: '0.00', readOnly: true }),
    image: f.image(),
    sales_invoice_no: f.text({ max: 50, readOnly: true, code: true }),
  },
  listColumns: ['image', 'name', 'goal_amount', 'raised_amount', 'sales_invoice_no'],
  filters: ['goal_amount', 'raised_amount'],
  // Its goal is posted while there is one (server/domain/membership/causes.ts says how).
  posts: { as: 'sales', number: 'sales_invoice_no', when: (cause) => money.toMinor(cause.goal_amount as string) > 0n },
  ledger: { group: 'Sundry Debtors', type: 'cause_ledger' },
  // Its donations; a new one starts with the cause filled in.
  related: [{ entity: 'cause_donation', via: 'cause', columns: ['invoice_no', 'amount', 'donor', 'first_name', 'last_name', 'is_anonymous', 'payment_method'] }],
  nav: { group: 'membership', icon: 'assessment', order: 5 },
})
