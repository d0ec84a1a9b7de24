import { defineReport, f, rules } from '../kit'

/**
 * Who changed what, when and from where: the audit log of every write (architecture §3) —
 * the admin-wide change log — filtered by who made the change (`actor`), the kind of record
 * (`record`: its name or its screen's name, in any of the app's languages: "Districts",
 * "İlçeler"), the action and the period; each entry says what changed, old → new, and opens
 * the record's form (a line's, its document's), whose History tab shows the whole trail.
 * Its newest 10,000 entries at most (server/domain/workspace/change-log.ts).
 */
export const changeLog = defineReport({
  name: 'change_log',
  module: 'workspace',
  route: 'change-log-reports',
  params: {
    date_after: f.date({ label: 'field.date_after' }),
    date_before: f.date({ label: 'field.date_before' }),
    actor: f.ref('user', { label: 'field.changed_by' }),
    record: f.text({ max: 100, label: 'field.record' }),
    action: f.choice(['create', 'update', 'delete', 'other_action'], { label: 'field.action' }),
  },
  columns: {
    at: f.datetime({ label: 'field.changed_at' }),
    actor: f.text({ label: 'field.changed_by' }),
    record: f.text({ label: 'field.record' }),
    record_id: f.integer({ label: 'field.record_id' }),
    action: f.text({ label: 'field.action' }),
    fields: f.text({ label: 'field.changed_fields' }),
    changes: f.text({ label: 'field.changes' }),
    source: f.text({ label: 'field.source' }),
  },
  // Where an entry leads: the record's form — a line's document's.
  hidden: { form_entity: f.text(), form_id: f.integer() },
  drill: { record_id: { entity: { fromColumn: 'form_entity' }, id: 'form_id' } },
  ordering: ['-at', '-record_id'],
  rules: [rules.notAfter('date_after', 'date_before', 'validation.date_order')],
  nav: { group: 'reports', icon: 'history', order: 90 },
})
