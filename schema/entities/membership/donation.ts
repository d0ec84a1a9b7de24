import { defineEntity, f } from '../../kit'

/**
 * A donation, to a cause or not (api-contract §4.5). Writing it finds the donor's user by
 * e-mail (or makes one) and their ledger (`user_ledger` under Sundry Creditors), and posts a
 * receipt (Dr Cash, Cr the donor's ledger) under `invoice_no`, all in its transaction
 * (server/domain/membership/donations.ts).
 */
export const donation = defineEntity({
  name: 'donation',
  module: 'membership',
  listKey: 'donations',
  labelField: 'email',
  route: { area: 'donation-management', list: 'donations' },
  fields: {
    cause: f.ref('cause', { search: true }),
    // Money received is above zero: a receipt of nothing posts nothing.
    amount: f.money({ required: true, gt: '0', messages: { above_value: 'validation.amount_above_zero' } }),
    first_name: f.text({ max: 100, required: true, search: true }),
    last_name: f.text({ max: 100, required: true, search: true }),
    email: f.email({ required: true, search: true }),
    phone_number: f.phone(),
    address: f.text({ max: 255, hideInList: true }),
    payment_method: f.ref('payment_method'),
    message: f.text({ multiline: true }),
    invoice_no: f.text({ max: 50, readOnly: true, code: true }),
  },
  search: ['first_name', 'last_name', 'email'],
  listColumns: ['first_name', 'last_name', 'email', 'cause', 'amount', 'payment_method', 'invoice_no'],
  filters: ['cause', 'payment_method', 'amount'],
  posts: { as: 'receipt_voucher', number: 'invoice_no' },
  nav: { group: 'membership', icon: 'payments', order: 8 },
})
