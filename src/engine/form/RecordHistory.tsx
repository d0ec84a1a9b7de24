import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { apiRequest } from '../api'
import { useEntities } from '../entities-context'
import type { AnyEntity, Row } from '../entity-api'
import { entityKeys } from '../queries'
import { QueryPanel } from '../ui/QueryPanel'
import { StatusChip } from '../ui/StatusChip'
import { useFormat } from '../../i18n/useFormat'

/**
 * A record's history under its form (registry `history`): who created, changed and moved it
 * and when — a transition with what it was given (an order's confirmation with what was paid),
 * the invoice mailed — and its related rows' (a payment taken, a refund made), newest first,
 * asked again with the record (an action that moved it adds a line).
 */
type Entry = { id: number; at: string; actor: string | null; entity: string; entity_id: number; label: string | null; action: string; changes: Record<string, [unknown, unknown]> }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function entriesOf(body: unknown): Entry[] {
  const list = isRecord(body) && Array.isArray(body.history) ? body.history : []
  return list.filter(isRecord).map((e) => ({
    id: Number(e.id),
    at: String(e.at),
    actor: typeof e.actor === 'string' ? e.actor : null,
    entity: String(e.entity),
    entity_id: Number(e.entity_id),
    label: typeof e.label === 'string' ? e.label : null,
    action: String(e.action),
    changes: isRecord(e.changes) ? (e.changes as Entry['changes']) : {},
  }))
}

/** A value as the history says it: text, a number, yes or no. */
const said = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v))

function EntryText({ entity, entry }: { entity: AnyEntity; entry: Entry }) {
  const { t } = useTranslation()
  const entities = useEntities()
  const of = entry.entity === entity.name ? entity : entities.find((e) => e.name === entry.entity)
  const verb = (action: string) => (['create', 'update', 'delete'].includes(action) ? t(`history.${action}d`) : t(of?.actions[action]?.labelKey ?? `action.${action}`))
  // A move of the status (not its start: a new record's status is where it starts).
  const moved = entity.workflow && entry.entity === entity.name ? entry.changes[entity.workflow.field] : undefined
  const status = moved && moved[0] !== null && moved[0] !== undefined ? moved : undefined
  // What an action was given: the audit keeps it as `_input: [null, {…}]`.
  const input = entry.changes._input
  const given = Array.isArray(input) && isRecord(input[1]) ? Object.entries(input[1]) : []
  const fieldLabel = (name: string) => t(of?.fieldLabelKey(name) ?? `field.${name}`)
  if (entry.entity !== entity.name) {
    const amount = entry.changes.amount
    return (
      <span>
        {t(`${of?.labelKey ?? `entity.${entry.entity}`}.one`)} <span className="font-mono text-xs">{entry.label ?? `#${entry.entity_id}`}</span> — {verb(entry.action)}
        {amount && <span className="tabular-nums"> · {said(amount[1] ?? amount[0])}</span>}
      </span>
    )
  }
  const changed = Object.keys(entry.changes).filter((k) => !k.startsWith('_') && k !== 'updated_at' && (!entity.workflow || k !== entity.workflow.field))
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="font-medium">{verb(entry.action)}</span>
      {status && (
        <span className="inline-flex flex-wrap items-center gap-1">
          <StatusChip value={String(status[0])} tones={entity.workflow!.tones} />
          <span aria-hidden="true" className="flip-rtl">→</span>
          <StatusChip value={String(status[1])} tones={entity.workflow!.tones} />
        </span>
      )}
      {given
        // What was typed (an amount, a transaction id): a picked row's id would say nothing.
        .filter(([k, v]) => v !== null && v !== '' && v !== undefined && of?.actions[entry.action]?.input[k]?.kind !== 'ref')
        .map(([k, v]) => (
          <span key={k} className="text-slate-600 dark:text-slate-300">
            {t(of?.actions[entry.action]?.input[k]?.label ?? `field.${k}`)}: <span className="tabular-nums">{said(v)}</span>
          </span>
        ))}
      {entry.action === 'update' && changed.length > 0 && <span className="text-slate-600 dark:text-slate-300">{changed.map(fieldLabel).join(', ')}</span>}
    </span>
  )
}

export function RecordHistory({ entity, row }: { entity: AnyEntity; row: Row }) {
  const { t } = useTranslation()
  const format = useFormat()
  const history = useQuery({
    // Under the record's own entity: asked again whenever the record is.
    queryKey: [...entityKeys.all(entity.name), 'history', row.id],
    queryFn: async ({ signal }) => entriesOf(await apiRequest(`${entity.api.base}/history/${row.id}`, { signal })),
  })
  return (
    <QueryPanel id={`history-${entity.name}`} title={t('history.title')} query={history}>
      {(entries) =>
        entries.length === 0 ? (
          <p className="px-6 py-4 text-sm text-slate-500">{t('form.related_none')}</p>
        ) : (
          <ol className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="record-history">
            {entries.map((entry) => (
              <li key={entry.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 px-6 py-3 text-sm">
                <time dateTime={entry.at} className="shrink-0 text-xs text-slate-500 tabular-nums sm:w-40 dark:text-slate-400">
                  {format.dateTime(entry.at)}
                </time>
                {/* On a phone the entry has a line of its own, under its time and author. */}
                <span className="order-last min-w-0 basis-full sm:order-none sm:basis-0 sm:flex-1">
                  <EntryText entity={entity} entry={entry} />
                </span>
                <span className="text-xs text-slate-500 dark:text-slate-400">{entry.actor ?? t('history.system')}</span>
              </li>
            ))}
          </ol>
        )
      }
    </QueryPanel>
  )
}
