import { defineEntity, f } from '../../kit'

/**
 * Where an order goes (api-contract §4.9): `/shippingaddress/api/v1/shippingaddress/…`. The
 * contract's `order` reference and its `shippingaddress_using_order_id/{id}` route come with
 * orders, which do not exist yet. The permission prefix is the contract's `SHIPPING_ADDRESS`.
 */
export const shippingAddress = defineEntity({
  name: 'shippingaddress',
  module: 'sales',
  listKey: 'shipping_addresses',
  model: 'ShippingAddress',
  permission: 'SHIPPING_ADDRESS',
  route: { area: 'shippingAddress-management', list: 'shippingAddresses' },
  fields: {
    // The address is the user's: it goes with them.
    user: f.ref('user', { required: true, onDelete: 'cascade', search: true }),
    name: f.text({ max: 255, required: true, search: true }),
    email: f.email({ search: true }),
    phone: f.phone({ search: true }),
    street_address: f.text({ max: 255 }),
    zip_code: f.postalCode(),
    // A police station lies in a district, a district in a country: the pickers follow the chain.
    thana: f.ref('thana', { label: 'field.police_station', within: { city: 'city' } }),
    city: f.ref('city', { label: 'field.district', within: { country: 'country' } }),
    country: f.ref('country'),
  },
  sections: [
    { key: 'contact', label: 'section.contact', fields: ['user', 'name', 'email', 'phone'] },
    { key: 'address', label: 'section.address', fields: ['street_address', 'country', 'city', 'thana', 'zip_code'] },
  ],
  // Between Branches and Site Settings, as the spec's sidebar lists it.
  nav: { group: 'settings', icon: 'local_shipping', order: 7, label: 'nav.shipping_addresses' },
})
