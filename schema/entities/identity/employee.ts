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
    first_name: f.text({ max: 100, required: true, min: 5, messages: { min_length: 'validation.first_name_min' } }),
    // The contract's create requires a username (it names the employee's ledger account).
    username: f.text({ max: 100, required: true, unique: true, search: true }),
    primary_phone: f.phone({ required: true, unique: true, search: true }),
    street_address_one: f.text({ max: 255, required: true, hideInList: true }),
    gender: f.choice(['male', 'female', 'others'], { required: true }),
    thana: f.ref('thana', { required: true, label: 'field.police_station', hideInList: true }),
    branch: f.ref('branch', { required: true }),
    department: f.ref('department'),
    designation: f.ref('designation'),
    emp_id_no: f.text({ max: 100, search: true }),
    emp_join_date: f.date(),
    basic_money: f.integer({ min: 0, hideInList: true }),
    allowance_money: f.integer({ min: 0, hideInList: true }),
    father_name: f.text({ max: 255, hideInList: true }),
    mother_name: f.text({ max: 255, hideInList: true }),
    marital_status: f.text({ max: 255, hideInList: true }),
    spouse_name: f.text({ max: 255, hideInList: true }),
    marriage_date: f.date({ hideInList: true }),
  },
  listColumns: ['image', 'emp_id_no', 'first_name', 'last_name', 'username', 'email', 'primary_phone', 'branch', 'department', 'designation', 'is_active'],
  nav: { group: 'employee-management', icon: 'person', order: 1, label: 'nav.employees' },
  // The contract's typo, kept as an alias of `without_pagination/all/` (api-contract §2.1).
  routeAliases: { 'without_paginaiton/all': 'without_pagination' },
})
