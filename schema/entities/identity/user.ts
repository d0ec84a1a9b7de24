import { defineEntity, f } from '../../kit'

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
    first_name: f.text({ max: 100, required: true }),
    last_name: f.text({ max: 100, required: true }),
    username: f.text({ max: 100, unique: true, search: true }),
    email: f.email({ required: true, unique: true, search: true }),
    password: f.password({ required: true, min: 6, messages: { min_length: 'validation.password_min' } }),
    gender: f.choice(['male', 'female', 'others'], { default: 'male' }),
    primary_phone: f.phone({ unique: true }),
    secondary_phone: f.phone({ unique: true }),
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
  // The browser reads its own user at start-up (spec §7: "user endpoint plus the user id").
  selfAccess: ['DETAILS'],
})
