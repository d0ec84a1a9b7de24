import { defineEntity, f, type Rule } from '../../kit'
import { donation, donationSections, donorRules } from './donation'

const isSet = (v: unknown) => v !== null && v !== undefined && v !== ''
/** What names who gives. */
const NAMING = ['donor', 'first_name', 'last_name', 'email', 'is_anonymous'] as const
/** A cause donation that names no one at all (the contract's `{cause, amount}`) is anonymous: its rules say so, and its hook records it (cause-donations.ts). */
export const namesNoOne = (values: Readonly<Record<string, unknown>>): boolean => NAMING.every((name) => !isSet(values[name]))
/** The donation's rules, where naming no one at all is an anonymous gift rather than a missing name. */
const causeDonorRules: readonly Rule[] = donorRules.map((rule) =>
  rule.message === 'validation.required' ? { ...rule, fields: [...new Set([...(rule.fields ?? []), ...NAMING])], check: (v, c) => rule.check(v, c) || namesNoOne(v) } : rule,
)

/**
 * A donation seen from its cause (api-contract §4.5, `cause_donation/create/` with `{cause,
 * amount}`; issue 20). Not a second kind of gift but a Donation (`extends`: its row is the
 * donation's row, same id) whose cause is required. Why a view of the one model rather than a
 * table of gifts of its own: two tables were two truths — donations to a cause left its
 * raised amount alone, cause donations named no donor and credited the clerk. So the desk
 * records one thing — the donor (a member, a person, or anonymous), the cause it raises, the
 * payment method whose ledger receives it — posted once, by the donation's receipt, while the
 * contract's routes, list key and fields keep their shapes. Its own table holds only ids: the
 * membership module keeps in it every donation that names a cause, whichever route wrote it,
 * and one written here runs the donation's rules and hooks (server/domain/membership/
 * donations.ts). The contract's body names no donor: such a gift is anonymous
 * (cause-donations.ts).
 */
export const causeDonation = defineEntity({
  name: 'cause_donation',
  module: 'membership',
  extends: donation,
  confidential: true,
  listKey: 'cause_donations',
  labelField: 'invoice_no',
  route: { area: 'causedonation-management', list: 'causedonations' },
  fields: {
    cause: f.ref('cause', { required: true, search: true }),
  },
  search: ['invoice_no', 'first_name', 'last_name', 'email'],
  rules: causeDonorRules,
  sections: donationSections,
  listColumns: ['invoice_no', 'cause', 'amount', 'donor', 'first_name', 'last_name', 'is_anonymous', 'payment_method', 'ref_invoice_no'],
  filters: ['cause', 'donor', 'is_anonymous', 'payment_method', 'amount'],
  nav: { group: 'membership', icon: 'payments', order: 10 },
})
