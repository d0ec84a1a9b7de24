import { defineEntity, f } from '../../kit'

/**
 * A signed-in user's donation to a cause (api-contract §4.5, `cause_donation/create/` with
 * `{cause, amount}`): it adds to the cause's `raised_amount` and posts a receipt (Dr Cash,
 * Cr the donor's ledger) under `invoice_no`, referring to the cause's sales invoice
 * (`ref_invoice_no`). The donor is the user who gave it, `created_by`
 * (server/domain/membership/cause-donations.ts).
 */
export const causeDonation = defineEntity({
  name: 'cause_donation',
  module: 'membership',
  confidential: true,
  listKey: 'cause_donations',
  labelField: 'invoice_no',
  route: { area: 'causedonation-management', list: 'causedonations' },
  fields: {
    cause: f.ref('cause', { required: true, search: true }),
    // Money received is above zero: a receipt of nothing posts nothing.
    amount: f.money({ required: true, gt: '0', messages: { above_value: 'validation.amount_above_zero' } }),
    invoice_no: f.text({ max: 50, readOnly: true, code: true, search: true }),
    ref_invoice_no: f.text({ max: 50, readOnly: true, code: true }),
  },
  listColumns: ['cause', 'amount', 'invoice_no', 'ref_invoice_no'],
  filters: ['cause', 'amount'],
  posts: { as: 'receipt_voucher', number: 'invoice_no' },
  nav: { group: 'membership', icon: 'payments', order: 10 },
})
