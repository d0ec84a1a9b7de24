import { defineEntity, f } from '../../kit'

/**
 * How a donation is paid (api-contract §4.5, the donation app's `/payment_method/`): names in
 * lower_snake (`bkash`); bkash, rocket and nogod are there on the first start
 * (server/domain/membership/payment-method-seed.ts). The spec's screens read `paymentmethods`;
 * `all/` also answers the backend's `payment_methods`.
 */
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
  },
  alsoListKeys: ['payment_methods'],
  nav: { group: 'membership', icon: 'payments', order: 9 },
})
