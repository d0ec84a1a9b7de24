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
    date_of_birth: f.date({ hideInList: true }),
    is_active: f.boolean({ default: true }),
    is_admin: f.boolean({ default: false }),
    role: f.ref('role'),
    street_address_one: f.text({ max: 255, hideInList: true }),
    street_address_two: f.text({ max: 255, hideInList: true }),
    thana: f.ref('thana', { label: 'field.police_station', hideInList: true }),
    city: f.ref('city', { label: 'field.district', hideInList: true }),
    country: f.ref('country', { hideInList: true }),
    postal_code: f.text({ max: 50, hideInList: true }),
    image: f.image({ hideInList: true }),
    nid: f.text({ max: 32, hideInList: true }),
    last_login: f.datetime({ readOnly: true, hideInList: true }),
    settings: f.json({ hideInList: true }),
  },
  listColumns: ['image', 'first_name', 'last_name', 'username', 'email', 'primary_phone', 'role', 'is_active', 'is_admin'],
  rules: [rules.sameAs('confirm_password', 'password')],
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
