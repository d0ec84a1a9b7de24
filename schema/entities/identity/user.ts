import { defineEntity, f, rules } from '../../kit'

/**
 * A person who signs in (api-contract §3.3): staff, admins and registered users; the base
 * of employees (and later customers, vendors and members). Adopts the `"user"` table of
 * system migration 1. The password is write-only; `settings` holds the UI layout settings.
 */
export const user = defineEntity({
  name: 'user',
  module: 'identity',
  listKey: 'users',
  ordering: 'first_name',
  labelField: 'email',
  // A person is named by their name on their own screens (every kind of person extends this).
  title: ['first_name', 'last_name'],
  route: { area: 'users-management', list: 'userslist' },
  fields: {
    first_name: f.text({ max: 100, required: true, search: true }),
    last_name: f.text({ max: 100, required: true, search: true }),
    username: f.text({ max: 100, unique: true, search: true }),
    email: f.email({ required: true, unique: true, search: true }),
    password: f.password({ required: true, min: 6, messages: { min_length: 'validation.password_min' } }),
    // Checked against the password when sent ('Passwords must match'); never stored.
    confirm_password: f.password({ transient: true }),
    gender: f.choice(['male', 'female', 'others'], { default: 'male' }),
    primary_phone: f.phone({ unique: true, search: true }),
    secondary_phone: f.phone({ unique: true, search: true }),
    user_type: f.text({ max: 100, hideInList: true }),
    date_of_birth: f.date({ hideInList: true, notAfter: 'today' }),
    is_active: f.boolean({ default: true }),
    is_admin: f.boolean({ default: false, adminOnly: true }),
    role: f.ref('role'),
    street_address_one: f.text({ max: 255, hideInList: true }),
    street_address_two: f.text({ max: 255, hideInList: true }),
    // A police station lies in a district, a district in a country: the pickers follow the chain.
    thana: f.ref('thana', { label: 'field.police_station', hideInList: true, within: { city: 'city' } }),
    city: f.ref('city', { label: 'field.district', hideInList: true, within: { country: 'country' } }),
    country: f.ref('country', { hideInList: true }),
    postal_code: f.postalCode({ hideInList: true }),
    image: f.image({ hideInList: true }),
    nid: f.text({ max: 32, hideInList: true }),
    last_login: f.datetime({ readOnly: true, hideInList: true }),
    // Moved by a password change or a logout: tokens made at an older one are refused
    // (server/auth/sessions.ts). The server's alone, and not business activity.
    session_version: f.integer({ readOnly: true, default: 0, min: 0, hideInList: true, audited: false }),
    // The user's own UI settings: not business activity, so not in the audit log (nor the quick panel).
    settings: f.json({ hideInList: true, audited: false }),
  },
  listColumns: ['image', 'first_name', 'last_name', 'username', 'email', 'primary_phone', 'role', 'is_active', 'is_admin'],
  rules: [rules.sameAs('confirm_password', 'password')],
  sections: [
    { key: 'account', label: 'section.account', fields: ['username', 'email', 'password', 'confirm_password', 'role', 'user_type', 'is_active', 'is_admin', 'settings'] },
    { key: 'personal', label: 'section.personal', fields: ['first_name', 'last_name', 'gender', 'date_of_birth', 'primary_phone', 'secondary_phone', 'nid', 'image'] },
    { key: 'address', label: 'section.address', fields: ['street_address_one', 'street_address_two', 'country', 'city', 'thana', 'postal_code'] },
  ],
  // The browser reads its own user at start-up (spec §7: "user endpoint plus the user id").
  selfAccess: ['DETAILS'],
  // What a user may change on their own account (register, My Profile): never their role,
  // admin flag, activity or type; the password and photo have their own routes.
  selfEditable: [
    'first_name', 'last_name', 'username', 'email', 'gender', 'primary_phone', 'secondary_phone', 'date_of_birth',
    'street_address_one', 'street_address_two', 'country', 'city', 'thana', 'postal_code', 'nid',
  ],
  nav: { group: 'user-config', icon: 'account_circle', order: 3, label: 'nav.users' },
})
