import { useParams } from '@tanstack/react-router'
import { useId, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { useAccess } from '../../engine/access-context'
import { RecordActions } from '../../engine/actions/RecordActions'
import { isApiError } from '../../engine/api'
import { useEntity } from '../../engine/entities-context'
import type { AnyEntity, Row } from '../../engine/entity-api'
import { BackLink, FormRoute, LoadError, NotFound } from '../../engine/form/FormScreen'
import { useEntityRecord } from '../../engine/queries'
import { PageSpinner } from '../../engine/ui/PageSpinner'
import { StatusChip } from '../../engine/ui/StatusChip'
import { OverdueFlag, TicketFacts } from './TicketFacts'
import { ReplyBox, TicketThread } from './TicketThread'
import { ticketFormExtension } from './ticket-form'
import { useThreadRefresh } from './useTicketThread'

/**
 * A ticket's screen (issue 23), at the entity's form address and each department's thread
 * address (its views' `route.form`): `new` opens one on the generic form; a stored one shows
 * its thread — the customer's messages on one side, the staff's replies on the other, what
 * happened to it between them — the reply box, the workflow's moves, its assignee and its facts.
 */
export function TicketScreen({ entity }: { entity: AnyEntity }) {
  const params: { id?: string } = useParams({ strict: false })
  const id = params.id ?? ''
  const access = useAccess()
  // Staff who may open tickets open them for a customer; a customer opens theirs (`own`).
  const picksRequester = access.can(entity.permissions.CREATE)
  const extension = useMemo(() => ticketFormExtension({ picksRequester }), [picksRequester])
  if (id === 'new') return <FormRoute entity={entity} extension={extension} />
  return <StoredTicket key={id} entity={entity} id={id} />
}

function StoredTicket({ entity, id }: { entity: AnyEntity; id: string }) {
  const isValidId = /^\d{1,15}$/.test(id) && Number(id) > 0
  const record = useEntityRecord(entity, isValidId ? id : null)
  if (!isValidId || (isApiError(record.error) && record.error.status === 404)) return <NotFound entity={entity} />
  if (record.isPending) return <PageSpinner />
  if (record.isError) return <LoadError entity={entity} error={record.error} />
  return <TicketThreadScreen entity={entity} row={record.data} />
}

function TicketThreadScreen({ entity, row }: { entity: AnyEntity; row: Row }) {
  const { t } = useTranslation()
  const access = useAccess()
  const ticketDetail = useEntity('ticket_detail')
  const threadTitle = useId()
  const refreshThread = useThreadRefresh(row.id)
  // The moves of its workflow by the title, as on any form; its assignee is chosen beside the thread.
  const moves = useMemo(() => ({ ...entity, actions: Object.fromEntries(Object.entries(entity.actions).filter(([name]) => name !== 'assign')) }), [entity])
  const status = entity.workflow ? String(row[entity.workflow.field] ?? '') : ''
  const number = typeof row.ticket_no === 'string' && row.ticket_no ? row.ticket_no : `#${row.id}`
  const one = t(`${entity.labelKey}.one`)
  const subject = typeof row.subject === 'string' ? row.subject : ''
  // Staff write internal notes (and read them: the server shows them to those who list every line).
  const canNote = ticketDetail !== undefined && access.can(ticketDetail.permissions.LIST)
  const canReply = ticketDetail !== undefined && access.canDo(ticketDetail, 'CREATE')

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0 space-y-3">
          <BackLink entity={entity} />
          <div>
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="text-2xl font-semibold tracking-tight">{t('form.numbered_title', { entity: one, number })}</h1>
              {status && <StatusChip value={status} tones={entity.fields[entity.workflow!.field]!.tones} />}
              {row.is_overdue === true && <OverdueFlag />}
            </div>
            {subject && <p className="mt-1 text-sm break-words text-slate-500 dark:text-slate-400">{subject}</p>}
          </div>
        </div>
        <RecordActions entity={moves} row={row} onDone={refreshThread} />
      </div>

      {/* On a phone the facts come first, then the thread; from lg the facts stand beside it (at the end side). */}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_34rem]">
        <aside aria-label={t('tickets.facts')} className="min-w-0 lg:col-start-2 lg:row-start-1">
          <TicketFacts entity={entity} row={row} />
        </aside>
        <section aria-labelledby={threadTitle} className="min-w-0 space-y-4 lg:col-start-1 lg:row-start-1">
          <h2 id={threadTitle} className="text-base font-semibold text-slate-900 dark:text-slate-100">
            {t('tickets.conversation')}
          </h2>
          {ticketDetail ? <TicketThread ticketDetail={ticketDetail} ticketId={row.id} /> : null}
          {ticketDetail && canReply && <ReplyBox ticketDetail={ticketDetail} ticketId={row.id} canNote={canNote} isClosed={status === 'closed'} />}
        </section>
      </div>
    </div>
  )
}
