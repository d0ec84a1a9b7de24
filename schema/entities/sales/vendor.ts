import { defineEntity, f } from '../../kit'
import { user } from '../identity/user'

/**
 * A vendor (supplier) is a user plus the vendor columns (api-contract §4.1, Django
 * multi-table inheritance): table `vendor`, `id` = the user's id. The contract names its
 * credit limit `customer_credit_limit` too.
 */
export const vendor = defineEntity({
  name: 'vendor',
  module: 'sales',
  listKey: 'vendors',
  extends: user,
  labelField: 'username',
  route: { area: 'vendor-management', list: 'vendors' },
  fields: {
    // Required here, as for employees: it names the vendor's ledger account.
    username: f.text({ max: 100, required: true, unique: true, search: true }),
    branch: f.ref('branch'),
    is_online: f.boolean({ default: true }),
    customer_credit_limit: f.money({ min: '0' }),
    is_company: f.boolean({ default: false }),
    company_name: f.text({ max: 200, search: true }),
    contact_person: f.text({ max: 30 }),
  },
  listColumns: ['image', 'first_name', 'last_name', 'username', 'company_name', 'email', 'primary_phone', 'branch', 'customer_credit_limit', 'is_company', 'is_online', 'is_active'],
  filters: ['branch', 'is_company', 'is_online', 'is_active'],
  sections: [
    { key: 'account', label: 'section.account', fields: ['username', 'email', 'password', 'confirm_password', 'role', 'user_type', 'is_active', 'is_admin', 'settings'] },
    { key: 'personal', label: 'section.personal', fields: ['first_name', 'last_name', 'gender', 'date_of_birth', 'primary_phone', 'secondary_phone', 'nid', 'image'] },
    { key: 'address', label: 'section.address', fields: ['street_address_one', 'street_address_two', 'country', 'city', 'thana', 'postal_code'] },
    { key: 'company', label: 'section.company', fields: ['is_company', 'company_name', 'contact_person', 'branch', 'is_online', 'customer_credit_limit'] },
  ],
  // Beside the customers (the spec's sidebar has no entry for vendors).
  // What the company bought from them.
  related: [{ entity: 'purchase_final', via: 'vendor', columns: ['invoice_no', 'purchase_date', 'status', 'total_price', 'paid_amount', 'payment_status'] }],
  nav: { group: 'settings', icon: 'business', order: 1 },
  // Its ledger account under Sundry Creditors, named after the username (api-contract §4.1, §5.1).
  ledger: { group: 'Sundry Creditors', type: 'vendor_ledger', name: 'username' },
})
