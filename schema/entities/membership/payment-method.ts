import { defineEntity, f } from '../../kit'
import { cashOrBankLedger } from '../accounting/cash-or-bank'

/**
 * How a donation is paid (api-contract §4.5, the donation app's `/payment_method/`): names in
 * lower_snake (`bkash`); cash, bkash, rocket and nogod are there on the first start
 * (server/domain/membership/payment-method-seed.ts). The spec's screens read `paymentmethods`;
 * `all/` also answers the backend's `payment_methods`.
 *
 * Each says which cash or bank ledger its money is received into (`ledger`, issue 20): a
 * donation's receipt debits it, so a bkash gift lands in the bkash wallet's ledger, not in
 * Cash. A client that names none (the contract's body has no such field) gets one from the
 * server: Cash for cash, else the method's own ledger under Bank Accounts ("Bkash Account").
 */
const cashOrBank = cashOrBankLedger('ledger', 'validation.cash_bank_ledger')

export const paymentMethod = defineEntity({
  name: 'payment_method',
  module: 'membership',
  listKey: 'paymentmethods',
  ordering: 'name',
  route: { area: 'paymentmethod-management', list: 'paymentmethods' },
  fields: {
    name: f.text({ max: 100, required: true, unique: true, search: true, normalize: 'lower_snake' }),
    type: f.text({ max: 50, normalize: 'lower_snake' }),
    image: f.image(),
    ledger: f.ref('ledger_account', { label: 'field.received_into' }),
  },
  rules: [cashOrBank],
  alsoListKeys: ['payment_methods'],
  trash: true,
  // The shop's orders are paid by the same methods: its `/paymentmethod/api/v1/paymentmethod/…` (api-contract §4.9).
  alsoApi: ['paymentmethod'],
  nav: { group: 'membership', icon: 'payments', order: 9 },
})
