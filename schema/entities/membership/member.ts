import { defineEntity, f } from '../../kit'
import { user } from '../identity/user'

/**
 * A member is a user plus the member columns (api-contract §4.5, Django multi-table
 * inheritance): table `member`, `id` = the user's id. Executive, adviser and general members
 * are members with a designation (member-kinds.ts).
 */
export const member = defineEntity({
  name: 'member',
  module: 'membership',
  listKey: 'members',
  extends: user,
  labelField: 'username',
  route: { area: 'member-management', list: 'members' },
  fields: {
    // Required here, as for employees: it names the member's ledger account.
    username: f.text({ max: 100, required: true, unique: true, search: true }),
    father_name: f.text({ max: 255, hideInList: true }),
    mother_name: f.text({ max: 255, hideInList: true }),
    spouse_name: f.text({ max: 255, hideInList: true }),
    village: f.text({ max: 255 }),
    post_office: f.text({ max: 255, hideInList: true }),
    union: f.text({ max: 255, hideInList: true }),
    profession: f.text({ max: 255 }),
    religion: f.text({ max: 255, hideInList: true }),
  },
  // The contract's search fields (api-contract §4.5), and the phones a person is known by as well.
  search: ['first_name', 'last_name', 'username', 'email', 'primary_phone', 'secondary_phone'],
  listColumns: ['image', 'first_name', 'last_name', 'username', 'email', 'primary_phone', 'village', 'profession', 'is_active'],
  filters: ['is_active'],
  sections: [
    { key: 'account', label: 'section.account', fields: ['username', 'email', 'password', 'confirm_password', 'role', 'user_type', 'is_active', 'is_admin', 'settings'] },
    { key: 'personal', label: 'section.personal', fields: ['first_name', 'last_name', 'gender', 'date_of_birth', 'primary_phone', 'secondary_phone', 'nid', 'image'] },
    { key: 'address', label: 'section.address', fields: ['street_address_one', 'street_address_two', 'village', 'post_office', 'union', 'country', 'city', 'thana', 'postal_code'] },
    { key: 'family', label: 'section.family', fields: ['father_name', 'mother_name', 'spouse_name', 'profession', 'religion'] },
  ],
  // What the member gave.
  related: [{ entity: 'donation', via: 'donor', columns: ['invoice_no', 'cause', 'amount', 'payment_method'] }],
  nav: { group: 'membership', icon: 'people', order: 0 },
  // Its ledger account under Sundry Creditors, named after the username (api-contract §4.5, §5.1).
  ledger: { group: 'Sundry Creditors', type: 'member_ledger', name: 'username' },
})
