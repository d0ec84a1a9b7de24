import { defineEntity, f } from '../../kit'

/**
 * A member's monthly subscription (api-contract §4.5): posted as a receipt (Dr Cash, Cr the
 * member's ledger) under `invoice_no` as it is written (server/domain/membership/receipts.ts).
 * The contract's create takes `members: [ids]` and writes one row each, all or none
 * (server/domain/membership/subscription-routes.ts).
 */
export const monthlySubscription = defineEntity({
  name: 'monthly_subscription',
  module: 'membership',
  listKey: 'monthly_subscriptions',
  labelField: 'invoice_no',
  ordering: '-subscription_date',
  route: { area: 'subscription-management', list: 'subscriptions' },
  fields: {
    member: f.ref('member', { required: true, search: true }),
    // Money received is above zero: a receipt of nothing posts nothing.
    amount: f.money({ required: true, gt: '0', messages: { above_value: 'validation.amount_above_zero' } }),
    // Set to the moment of the create (the contract's auto_now_add).
    subscription_date: f.datetime({ readOnly: true }),
    note: f.text({ multiline: true }),
    invoice_no: f.text({ max: 50, readOnly: true, code: true, search: true }),
  },
  listColumns: ['subscription_date', 'member', 'amount', 'invoice_no', 'note'],
  filters: ['member', 'subscription_date', 'amount'],
  routes: { create: 'bespoke' },
  posts: { as: 'receipt_voucher', number: 'invoice_no' },
  nav: { group: 'membership', icon: 'payments', order: 4 },
})
