import { defineReport, f, rules } from '../kit'

/** Who changed what and when: the audit log of every write (architecture §3), filtered. */
export const changeLog = defineReport({
  name: 'change_log',
  module: 'workspace',
  route: 'change-log-reports',
  params: {
    date_after: f.date({ label: 'field.date_after' }),
    date_before: f.date({ label: 'field.date_before' }),
    actor: f.ref('user', { label: 'field.changed_by' }),
    record: f.text({ max: 100, label: 'field.record' }),
  },
  columns: {
    at: f.datetime({ label: 'field.changed_at' }),
    actor: f.text({ label: 'field.changed_by' }),
    record: f.text({ label: 'field.record' }),
    record_id: f.integer({ label: 'field.record_id' }),
    action: f.text({ label: 'field.action' }),
    fields: f.text({ label: 'field.changed_fields' }),
  },
  ordering: ['-at', '-record_id'],
  rules: [rules.notAfter('date_after', 'date_before', 'validation.date_order')],
  nav: { group: 'reports', icon: 'history', order: 90 },
})
