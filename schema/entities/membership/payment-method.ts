import { defineEntity, f, type Rule } from '../../kit'

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
const cashOrBank: Rule = {
  field: 'ledger',
  message: 'validation.cash_bank_ledger',
  fields: ['ledger'],
  facts: [{ field: 'ledger', target: 'ledger_account', name: 'is_cash_bank' }],
  // Not known (a form that has not read the ledger): the server, which knows it, decides.
  check: (values, context) => values.ledger === null || values.ledger === undefined || context.fact?.('ledger_account', values.ledger, 'is_cash_bank') !== false,
}

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
  nav: { group: 'membership', icon: 'payments', order: 9 },
})
