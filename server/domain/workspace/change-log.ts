import { sql } from 'kysely'
import { can } from '../../auth/principal'
import { readPermissionOf } from '../../engine/access'
import type { ReportRun } from '../../engine/reports'

/**
 * The change log report: the audit log's entries, newest first, with who made them and which
 * fields they changed — of the kinds of record the caller may list, as the quick panel shows.
 */
export const changeLogRows: ReportRun = ({ params, actor, registry }) => {
  // A document's lines go with the document: whoever may list invoices sees their lines' changes.
  const visible = registry.filter((e) => actor === null || can(actor, readPermissionOf(registry, e))).map((e) => e.name)
  const record = typeof params.record === 'string' ? `%${params.record.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null
  return sql`
    select a.at, u.email as actor, a.entity as record, a.entity_id as record_id, a.action,
      (select string_agg(k, ', ' order by k) from jsonb_object_keys(a.changes) k) as fields
    from audit_log a left join "user" u on u.id = a.actor
    where a.entity = any(${visible})
      and (${params.date_after ?? null}::date is null or a.at >= ${params.date_after ?? null}::date)
      and (${params.date_before ?? null}::date is null or a.at < ${params.date_before ?? null}::date + 1)
      and (${params.actor ?? null}::bigint is null or a.actor = ${params.actor ?? null}::bigint)
      and (${record}::text is null or a.entity ilike ${record})`
}
