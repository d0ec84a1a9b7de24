import { defineEntity, f, type Rule } from '../../kit'

/**
 * A donation (api-contract §4.5; issue 20: one donation model a desk can trust). It names its
 * donor — a member (`donor`), a person by name and e-mail (the contract's: the user with that
 * e-mail, made when there is none), or nobody (`is_anonymous`) — optionally its cause, and its
 * payment method. In its transaction (server/domain/membership/donations.ts): naming a cause
 * raises the cause's `raised_amount` (a change or delete gives it back), and its receipt is
 * posted under `invoice_no` — Dr the payment method's cash or bank ledger (Cash when it names
 * none), Cr the donor's ledger (a member's own, the person's `user_ledger`, or the anonymous
 * donors' ledger), never the signed-in clerk's — referring to the cause's sales invoice
 * (`ref_invoice_no`). A donation with a cause is a Cause Donation too (cause-donation.ts).
 */
const isSet = (v: unknown) => v !== null && v !== undefined && v !== ''

/** What names a person who gives: an anonymous donation keeps none of it. */
export const DONOR_CONTACT = ['first_name', 'last_name', 'email', 'phone_number', 'address'] as const
/** What a donation by a person who is not a member must say (the contract's required three). */
const DONOR_NAMES = ['first_name', 'last_name', 'email'] as const

/** The donor rules, in the form as one types and on the server; a cause donation holds them too. */
export const donorRules: readonly Rule[] = [
  { field: 'is_anonymous', message: 'validation.anonymous_with_donor', fields: ['is_anonymous', 'donor'], check: (v) => !(v.is_anonymous === true && isSet(v.donor)) },
  { field: 'is_anonymous', message: 'validation.anonymous_named', fields: ['is_anonymous', ...DONOR_CONTACT], check: (v) => v.is_anonymous !== true || DONOR_CONTACT.every((name) => !isSet(v[name])) },
  // Neither a member nor anonymous: the person is named as the contract asks ("… is required").
  ...DONOR_NAMES.map((name): Rule => ({ field: name, message: 'validation.required', fields: [name, 'donor', 'is_anonymous'], check: (v) => isSet(v[name]) || isSet(v.donor) || v.is_anonymous === true })),
]

/** Who gave, then what was given: the form's two parts (a cause donation's form too). */
export const donationSections = [
  { key: 'donor', label: 'section.donor', fields: ['donor', 'is_anonymous', ...DONOR_CONTACT] },
  { key: 'gift', label: 'section.gift', fields: ['cause', 'amount', 'payment_method', 'message'] },
] as const

export const donation = defineEntity({
  name: 'donation',
  module: 'membership',
  listKey: 'donations',
  labelField: 'invoice_no',
  route: { area: 'donation-management', list: 'donations' },
  fields: {
    cause: f.ref('cause', { search: true }),
    // Money received is above zero: a receipt of nothing posts nothing.
    amount: f.money({ required: true, gt: '0', messages: { above_value: 'validation.amount_above_zero' } }),
    // The member who gave; their names and e-mail fill the blank ones (server/domain/membership/donations.ts).
    donor: f.ref('member', { label: 'field.member' }),
    is_anonymous: f.boolean(),
    first_name: f.text({ max: 100, search: true }),
    last_name: f.text({ max: 100, search: true }),
    email: f.email({ search: true }),
    phone_number: f.phone(),
    address: f.text({ max: 255, hideInList: true }),
    payment_method: f.ref('payment_method'),
    message: f.text({ multiline: true }),
    invoice_no: f.text({ max: 50, readOnly: true, code: true, search: true }),
    // The cause's sales invoice its receipt settles (the cause's, while it names one).
    ref_invoice_no: f.text({ max: 50, readOnly: true, code: true }),
  },
  search: ['first_name', 'last_name', 'email', 'invoice_no'],
  rules: donorRules,
  sections: donationSections,
  listColumns: ['invoice_no', 'donor', 'first_name', 'last_name', 'is_anonymous', 'cause', 'amount', 'payment_method'],
  filters: ['cause', 'donor', 'is_anonymous', 'payment_method', 'amount'],
  posts: { as: 'receipt_voucher', number: 'invoice_no' },
  nav: { group: 'membership', icon: 'payments', order: 8 },
})
