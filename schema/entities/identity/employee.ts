import { defineEntity, f } from '../../kit'
import { user } from './user'

/**
 * An employee is a user plus the employee columns (api-contract §4.1, Django multi-table
 * inheritance): table `employee`, `id` = the user's id. The overrides tighten the user's
 * fields to the employee form's rules and messages; their columns stay in `"user"`.
 */
export const employee = defineEntity({
  name: 'employee',
  module: 'identity',
  listKey: 'employees',
  extends: user,
  labelField: 'username',
  route: { area: 'employee-management', list: 'employees' },
  fields: {
    // The contract's create requires a username (it names the employee's ledger account).
    username: f.text({ max: 100, required: true, unique: true, search: true }),
    primary_phone: f.phone({ required: true, unique: true, search: true }),
    street_address_one: f.text({ max: 255, required: true, hideInList: true }),
    gender: f.choice(['male', 'female', 'others'], { required: true }),
    thana: f.ref('thana', { required: true, label: 'field.police_station', hideInList: true, within: { city: 'city' } }),
    branch: f.ref('branch', { required: true }),
    department: f.ref('department'),
    designation: f.ref('designation'),
    // The support tickets they answer (their department's, schema/entities/tickets): none, every department's.
    ticket_department: f.ref('ticket_department', { hideInList: true, label: 'field.answers_tickets_of' }),
    emp_id_no: f.text({ max: 100, search: true }),
    emp_join_date: f.date(),
    basic_money: f.integer({ min: 0, hideInList: true }),
    allowance_money: f.integer({ min: 0, hideInList: true }),
    father_name: f.text({ max: 255, hideInList: true }),
    mother_name: f.text({ max: 255, hideInList: true }),
    marital_status: f.text({ max: 255, hideInList: true }),
    spouse_name: f.text({ max: 255, hideInList: true }),
    marriage_date: f.date({ hideInList: true, notAfter: 'today' }),
  },
  // Who, how to reach them and where they work first, in view at 1280 px; the rest scrolls after.
  listColumns: ['image', 'first_name', 'last_name', 'primary_phone', 'branch', 'department', 'emp_id_no', 'designation', 'username', 'email', 'emp_join_date', 'is_active'],
  filters: ['branch', 'department', 'designation', 'gender', 'emp_join_date', 'is_active'],
  // The employee form's parts (about 37 fields), in the order the form shows them.
  sections: [
    { key: 'account', label: 'section.account', fields: ['username', 'email', 'password', 'confirm_password', 'role', 'user_type', 'is_active', 'is_admin', 'settings'] },
    {
      key: 'personal',
      label: 'section.personal',
      fields: ['first_name', 'last_name', 'gender', 'date_of_birth', 'primary_phone', 'secondary_phone', 'nid', 'image', 'father_name', 'mother_name', 'marital_status', 'spouse_name', 'marriage_date'],
    },
    { key: 'address', label: 'section.address', fields: ['street_address_one', 'street_address_two', 'country', 'city', 'thana', 'postal_code'] },
    { key: 'employment', label: 'section.employment', fields: ['branch', 'emp_id_no', 'designation', 'department', 'ticket_department', 'emp_join_date', 'basic_money', 'allowance_money'] },
  ],
  // Its qualifications under its form; a new one starts with the employee filled in.
  related: [{ entity: 'qualification', via: 'employee_id', columns: ['degree_name', 'passign_year', 'board', 'institute_name', 'grade'] }],
  nav: { group: 'employee-management', icon: 'person', order: 1, label: 'nav.employees' },
  // Its ledger account under Salary, named after the username (api-contract §4.1).
  ledger: { group: 'Salary', type: 'employee_ledger', name: 'username' },
  // The contract's typo, kept as an alias of `without_pagination/all/` (api-contract §2.1).
  routeAliases: { 'without_paginaiton/all': 'without_pagination' },
})
