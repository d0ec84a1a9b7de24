import { defineEntity, f } from '../../kit'

/**
 * An address of a user, and of an order when it names one (api-contract §4.9 ShippingAddress
 * and BillingAddress: `user` FK, `order` FK): the fields both kinds share.
 */
export const addressFields = {
  // The address is the user's: it goes with them; an order's goes with the order.
  user: f.ref('user', { required: true, onDelete: 'cascade', search: true }),
  order: f.ref('order', { onDelete: 'cascade', label: 'field.customer_order' }),
  name: f.text({ max: 255, required: true, search: true }),
  email: f.email({ search: true }),
  phone: f.phone({ search: true }),
  street_address: f.text({ max: 255 }),
  zip_code: f.postalCode(),
  // A police station lies in a district, a district in a country: the pickers follow the chain.
  thana: f.ref('thana', { label: 'field.police_station', within: { city: 'city' } }),
  city: f.ref('city', { label: 'field.district', within: { country: 'country' } }),
  country: f.ref('country'),
}

export const addressSections = [
  { key: 'contact', label: 'section.contact', fields: ['user', 'order', 'name', 'email', 'phone'] },
  { key: 'address', label: 'section.address', fields: ['street_address', 'country', 'city', 'thana', 'zip_code'] },
] as const

/**
 * Where an order goes (api-contract §4.9): `/shippingaddress/api/v1/shippingaddress/…`, and
 * `shippingaddress_using_order_id/{orderId}` (server/domain/orders). The permission prefix is
 * the contract's `SHIPPING_ADDRESS`.
 */
export const shippingAddress = defineEntity({
  name: 'shippingaddress',
  module: 'sales',
  listKey: 'shipping_addresses',
  model: 'ShippingAddress',
  permission: 'SHIPPING_ADDRESS',
  route: { area: 'shippingAddress-management', list: 'shippingAddresses' },
  fields: addressFields,
  sections: addressSections,
  filters: ['user', 'order', 'city'],
  // Between Branches and Site Settings, as the spec's sidebar lists it.
  nav: { group: 'settings', icon: 'local_shipping', order: 7, label: 'nav.shipping_addresses' },
})

/** Who an order is billed to (api-contract §4.9 BillingAddress): the shipping address's fields, `/billingaddress/api/v1/billingaddress/…`. */
export const billingAddress = defineEntity({
  name: 'billingaddress',
  module: 'sales',
  listKey: 'billing_addresses',
  model: 'BillingAddress',
  permission: 'BILLING_ADDRESS',
  route: { area: 'billingAddress-management', list: 'billingAddresses' },
  fields: addressFields,
  sections: addressSections,
  filters: ['user', 'order', 'city'],
  nav: { group: 'settings', icon: 'local_shipping', order: 8 },
})
