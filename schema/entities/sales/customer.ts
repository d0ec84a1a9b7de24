import { defineEntity, f } from '../../kit'
import { user } from '../identity/user'

/**
 * A customer is a user plus the customer columns (api-contract §4.1, Django multi-table
 * inheritance): table `customer`, `id` = the user's id. The model's field is spelt
 * `cusotmer_type` and the wire keeps it; the screens call it Customer Type.
 */
export const customer = defineEntity({
  name: 'customer',
  module: 'sales',
  listKey: 'customers',
  extends: user,
  labelField: 'username',
  route: { area: 'customer-management', list: 'customers' },
  fields: {
    // Required here, as for employees: it names the customer's ledger account.
    username: f.text({ max: 100, required: true, unique: true, search: true }),
    branch: f.ref('branch'),
    is_online: f.boolean({ default: true }),
    cusotmer_type: f.ref('customer_type', { label: 'field.customer_type' }),
    customer_credit_limit: f.money({ min: '0' }),
  },
  listColumns: ['image', 'first_name', 'last_name', 'username', 'email', 'primary_phone', 'cusotmer_type', 'branch', 'customer_credit_limit', 'is_online', 'is_active'],
  filters: ['branch', 'cusotmer_type', 'is_online', 'is_active'],
  sections: [
    { key: 'account', label: 'section.account', fields: ['username', 'email', 'password', 'confirm_password', 'role', 'user_type', 'is_active', 'is_admin', 'settings'] },
    { key: 'personal', label: 'section.personal', fields: ['first_name', 'last_name', 'gender', 'date_of_birth', 'primary_phone', 'secondary_phone', 'nid', 'image'] },
    { key: 'address', label: 'section.address', fields: ['street_address_one', 'street_address_two', 'country', 'city', 'thana', 'postal_code'] },
    { key: 'sales', label: 'section.sales', fields: ['branch', 'cusotmer_type', 'is_online', 'customer_credit_limit'] },
  ],
  // First in Settings, as the spec's sidebar lists it.
  // Their orders; a new one starts with the customer filled in.
  related: [{ entity: 'order', via: 'user', columns: ['order_no', 'order_date', 'status', 'net_amount', 'paid_amount', 'payment_status'] }],
  nav: { group: 'settings', icon: 'person_outline', order: 0, label: 'nav.customers' },
  // Its ledger account under Sundry Debtors, named after the username (api-contract §4.1, §5.1).
  ledger: { group: 'Sundry Debtors', type: 'customer_ledger', name: 'username' },
})
