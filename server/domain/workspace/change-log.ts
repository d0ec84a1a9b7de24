import { sql, type RawBuilder } from 'kysely'
import { lineLinkColumn, type Entity, type Fields } from '../../../schema/kit'
import { can } from '../../auth/principal'
import { readPermissionOf } from '../../engine/access'
import type { Registry } from '../../engine/list-query'
import type { ReportRun } from '../../engine/reports'
import { languages, translator } from '../../i18n'

/**
 * The change log report: the audit log's entries, newest first — who made them, which fields
 * they changed and how (old → new; a secret only as `***`, as the log keeps it), from which
 * screen or route — of the kinds of record the caller may list (a document's lines go with
 * their document), as the quick panel shows. Its newest CHANGE_LOG_MOST entries that match:
 * each filter narrows an indexed read (who: `(actor, at)`; the kind of record: `(entity,
 * entity_id)`; the period: `(at)`), and neither the count nor a page reads the whole log.
 */
export const CHANGE_LOG_MOST = 10_000

/** The text as a search compares it: lower case, without accents (a Turkish "İlçeler" is found by "ilceler"). */
const folded = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('en')

/** The kinds of record a text names: by their name (`city`), or by their screen's name in any language ("Districts", "İlçeler"). */
export function entitiesNamed(registry: Registry, text: string): string[] {
  const wanted = folded(text.trim())
  if (wanted === '') return registry.map((e) => e.name)
  const says = languages.map((lang) => translator(lang))
  return registry
    .filter((e) => {
      const names = [e.name, ...says.flatMap((t) => [t(e.listTitleKey), t(`${e.labelKey}.one`), t(`${e.labelKey}.other`)])]
      return names.some((name) => folded(name).includes(wanted))
    })
    .map((e) => e.name)
}

const BASIC_ACTIONS = ['create', 'update', 'delete']

/** A change as the log says it: `field: before → after`, each value cut short; what an action was given is the record's history's to show. */
const changesText = sql`(select string_agg(e.key || ': ' || coalesce(left(e.value ->> 0, 60), '—') || ' → ' || coalesce(left(e.value ->> 1, 60), '—'), '; ' order by e.key)
  from jsonb_each(a.changes) e where jsonb_typeof(e.value) = 'array' and e.key not like '\\_%')`

/** Where an entry leads: the record's form — for a line, its document's (while the line is there). */
function formOf(registry: Registry): { entity: RawBuilder<unknown>; id: RawBuilder<unknown> } {
  const lines = registry.filter((e): e is Entity<string, Fields> & { lineOf: string } => e.lineOf !== undefined)
  if (lines.length === 0) return { entity: sql`a.entity`, id: sql`a.entity_id` }
  const entity = lines.map((l) => sql`when ${l.name} then ${l.lineOf}`)
  const id = lines.map((l) => sql`when ${l.name} then (select x.${sql.ref(lineLinkColumn(l))} from ${sql.id(l.name)} x where x.id = a.entity_id)`)
  return { entity: sql`case a.entity ${sql.join(entity, sql` `)} else a.entity end`, id: sql`case a.entity ${sql.join(id, sql` `)} else a.entity_id end` }
}

export const changeLogRows: ReportRun = ({ params, actor, registry }) => {
  // A document's lines go with the document: whoever may list invoices sees their lines' changes.
  const visible = registry.filter((e) => actor === null || can(actor, readPermissionOf(registry, e))).map((e) => e.name)
  const named = typeof params.record === 'string' && params.record.trim() !== '' ? entitiesNamed(registry, params.record) : null
  const kinds = named ? visible.filter((name) => named.includes(name)) : visible
  const isEveryKind = actor?.isAdmin === true && named === null
  // Each condition only when asked: a fixed `(x is null or …)` would keep the planner from the index that serves it.
  const where: RawBuilder<unknown>[] = [isEveryKind ? sql`true` : sql`a.entity = any(${kinds}::text[])`]
  if (params.actor !== undefined && params.actor !== null) where.push(sql`a.actor = ${params.actor}::bigint`)
  if (typeof params.date_after === 'string') where.push(sql`a.at >= ${params.date_after}::date`)
  if (typeof params.date_before === 'string') where.push(sql`a.at < ${params.date_before}::date + 1`)
  if (params.action === 'other_action') where.push(sql`a.action <> all(${BASIC_ACTIONS}::text[])`)
  else if (typeof params.action === 'string') where.push(sql`a.action = ${params.action}`)
  const form = formOf(registry)
  return sql`
    select a.at, u.email as actor, a.entity as record, a.entity_id as record_id, a.action,
      (select string_agg(k, ', ' order by k) from jsonb_object_keys(a.changes) k) as fields,
      ${changesText} as changes, a.source,
      ${form.entity} as form_entity, ${form.id} as form_id
    from (select * from audit_log a where ${sql.join(where, sql` and `)} order by a.at desc, a.id desc limit ${CHANGE_LOG_MOST}) a
    left join "user" u on u.id = a.actor`
}
