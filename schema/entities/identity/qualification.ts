import { defineEntity, f } from '../../kit'

/** An employee's degree (api-contract §4.1): the FK really is named `employee_id`, and `passign_year` is spelt so. */
export const qualification = defineEntity({
  name: 'qualification',
  module: 'identity',
  listKey: 'qualifications',
  labelField: 'degree_name',
  route: { area: 'qualification-management', list: 'qualifications' },
  fields: {
    // Listed as the raw id, as the original backend did: its client looks the employee up by it.
    employee_id: f.ref('employee', { required: true, onDelete: 'cascade', label: 'field.employee', listAs: 'id' }),
    degree_name: f.text({ max: 64, required: true, search: true, normalize: 'capitalize' }),
    passign_year: f.text({ max: 4, required: true, messages: { max_length: 'validation.passign_year_max' } }),
    board: f.text({ max: 64, required: true }),
    institute_name: f.text({ max: 100, required: true }),
    grade: f.decimal({ precision: 5, scale: 2 }),
    image_doc_one: f.image({ hideInList: true }),
    image_doc_two: f.image({ hideInList: true }),
    image_doc_three: f.image({ hideInList: true }),
    image_doc_four: f.image({ hideInList: true }),
  },
  search: ['degree_name'],
  nav: { group: 'employee-management', icon: 'school', order: 4, label: 'nav.qualifications' },
})
