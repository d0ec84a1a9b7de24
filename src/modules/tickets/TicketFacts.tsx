import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useAccess } from '../../engine/access-context'
import type { AnyEntity, Row } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import { useCanPick } from '../../engine/pickable'
import { Banner } from '../../engine/ui/Banner'
import { Icon } from '../../engine/ui/icons'
import { StatusChip } from '../../engine/ui/StatusChip'
import { RefSelect } from '../../engine/widgets/RefSelect'
import { useFormat } from '../../i18n/useFormat'
import { nameOf } from './thread-lines'
import { useTicketAssign } from './useTicketThread'

const muted = 'text-slate-400 dark:text-slate-500'

/** The ticket is past its due time and still not closed. */
export function OverdueFlag() {
  const { t } = useTranslation()
  return (
    <span data-overdue="" className="inline-flex items-center gap-1 rounded-full bg-red-50 px-2.5 py-0.5 text-xs font-medium whitespace-nowrap text-red-800 ring-1 ring-red-600/20 ring-inset dark:bg-red-950 dark:text-red-200 dark:ring-red-400/30">
      <Icon name="clock" className="size-3.5" />
      {t('tickets.overdue')}
    </span>
  )
}

/** A fact by its name; `isStacked`, a control under its name (the assignee's picker needs the width). */
function Fact({ label, children, isStacked = false }: { label: string; children: ReactNode; isStacked?: boolean }) {
  return (
    <div className={`grid gap-x-3 gap-y-1.5 px-4 py-2.5 text-sm ${isStacked ? '' : 'grid-cols-[minmax(0,2fr)_minmax(0,3fr)]'}`}>
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900 dark:text-slate-100">{children}</dd>
    </div>
  )
}

/** A lookup's built-in name (`support`, `high`) in the interface's language; one an admin added, as it is. */
function useLookupName() {
  const { t } = useTranslation()
  return (kind: 'department' | 'priority', name: string | null) => (name === null ? null : t(`tickets.${kind}.${name}`, { defaultValue: name }))
}

/**
 * What is known of the ticket, beside its thread: its number and subject, who asked, where it
 * went, how urgent, where it stands, who has it (chosen here by those who may assign), when it
 * is due — flagged when it is overdue — when it was first answered, and when it was opened.
 */
export function TicketFacts({ entity, row }: { entity: AnyEntity; row: Row }) {
  const { t } = useTranslation()
  const format = useFormat()
  const lookupName = useLookupName()
  const label = (field: string) => t(entity.fieldLabelKey(field))
  const when = (value: unknown) => (typeof value === 'string' && value ? <time dateTime={value}>{format.dateTime(value)}</time> : null)
  const status = entity.workflow ? String(row[entity.workflow.field] ?? '') : ''
  const dash = <span className={muted}>—</span>
  return (
    <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900" data-testid="ticket-facts">
      <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold dark:border-slate-800">{t('tickets.facts')}</h2>
      <dl className="divide-y divide-slate-100 dark:divide-slate-800">
        <Fact label={label('ticket_no')}>
          <bdi dir="ltr">{typeof row.ticket_no === 'string' && row.ticket_no ? row.ticket_no : `#${row.id}`}</bdi>
        </Fact>
        <Fact label={label('subject')}>{typeof row.subject === 'string' && row.subject ? row.subject : dash}</Fact>
        <Fact label={label('user')}>{nameOf(row, 'user') ?? dash}</Fact>
        <Fact label={label('ticket_department')}>{lookupName('department', nameOf(row, 'ticket_department')) ?? dash}</Fact>
        <Fact label={label('ticket_priority')}>{lookupName('priority', nameOf(row, 'ticket_priority')) ?? dash}</Fact>
        <Fact label={label('status')}>{status ? <StatusChip value={status} tones={entity.fields[entity.workflow!.field]!.tones} /> : dash}</Fact>
        <Fact label={label('assignee')} isStacked>
          <AssigneeFact entity={entity} row={row} />
        </Fact>
        <Fact label={label('due_at')}>
          <span className="flex flex-wrap items-center gap-2">
            {when(row.due_at) ?? dash}
            {row.is_overdue === true && <OverdueFlag />}
          </span>
        </Fact>
        <Fact label={label('first_response_at')}>{when(row.first_response_at) ?? <span className={muted}>{t('tickets.not_yet')}</span>}</Fact>
        <Fact label={t('tickets.created')}>{when(row.created_at) ?? dash}</Fact>
      </dl>
    </div>
  )
}

/** The assignee: a picker of users for those who may assign (and list users), else their name. */
function AssigneeFact({ entity, row }: { entity: AnyEntity; row: Row }) {
  const { t } = useTranslation()
  const access = useAccess()
  const canPick = useCanPick()
  const id = useId()
  const action = entity.actions.assign
  const field = action?.input.assignee
  const { assign, isAssigning, error } = useTicketAssign(entity, row.id)
  const name = nameOf(row, 'assignee')
  const assignee = typeof row.assignee === 'number' ? row.assignee : null
  if (!action || !field || !access.canDo(entity, action.name) || !canPick(field)) {
    return name ?? <span className={muted}>{t('tickets.unassigned')}</span>
  }
  return (
    <div className="space-y-2" aria-busy={isAssigning || undefined}>
      <label htmlFor={id} className="sr-only">
        {t(entity.fieldLabelKey('assignee'))}
      </label>
      <RefSelect
        id={id}
        name="assignee"
        field={field}
        label={t(entity.fieldLabelKey('assignee'))}
        value={assignee}
        knownLabels={assignee !== null && name ? { [String(assignee)]: name } : undefined}
        onChange={(next) => {
          const chosen = typeof next === 'number' ? next : null
          if (chosen !== assignee && !isAssigning) assign(chosen)
        }}
        onBlur={() => {}}
        isInvalid={error !== null}
      />
      {error !== null && <Banner kind="error">{errorText(t, error)}</Banner>}
    </div>
  )
}
