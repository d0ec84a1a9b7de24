import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { apiRequest, isApiError } from '../../engine/api'
import { createRecord, runEntityAction, type AnyEntity, type Row } from '../../engine/entity-api'
import { toPayload } from '../../engine/form/form-values'
import { entityKeys } from '../../engine/queries'
import { showAlert } from '../../engine/ui/notifications'
import { isBlankMessage, threadLineOf, threadOf, type ThreadLine } from './thread-lines'

/**
 * A ticket's thread, headless: its lines (`get_all_by_ticket_id/{ticket}`), the reply being
 * written and its sending, and the assignee's change. Kept under the thread entity's key, so a
 * write to either a ticket or its lines reads it again.
 */
export const threadKey = (ticketId: number) => [...entityKeys.all('ticket_detail'), 'thread', String(ticketId)] as const

export function useThreadLines(ticketDetail: AnyEntity, ticketId: number) {
  return useQuery({
    queryKey: threadKey(ticketId),
    queryFn: ({ signal }) => apiRequest(`${ticketDetail.api.base}/get_all_by_ticket_id/${ticketId}`, { signal }).then(threadOf),
  })
}

/** A staff reply or a customer's message moves the ticket (processing, reopened, first response): the ticket and its thread are read again. */
function useRefreshTicket(ticketId: number) {
  const queryClient = useQueryClient()
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: entityKeys.all('ticket') }), queryClient.invalidateQueries({ queryKey: threadKey(ticketId) })])
}

export type ReplyDraft = { message: string; file: File | null; isInternal: boolean }

const blankDraft: ReplyDraft = { message: '', file: null, isInternal: false }

/**
 * The reply box: its message (formatted text), attachment and — for staff (`canNote`) — whether
 * it is an internal note. A blank message is refused before it is sent, as the registry's rule
 * would; the server's field messages are shown by their field.
 */
export function useTicketReply({ ticketDetail, ticketId, canNote }: { ticketDetail: AnyEntity; ticketId: number; canNote: boolean }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const refresh = useRefreshTicket(ticketId)
  const [draft, setDraft] = useState<ReplyDraft>(blankDraft)
  const [blankError, setBlankError] = useState(false)
  const send = useMutation({
    mutationFn: (reply: ReplyDraft) =>
      createRecord(
        ticketDetail,
        toPayload(ticketDetail, { ticket: ticketId, message: reply.message, ...(canNote ? { is_internal: reply.isInternal } : {}), ...(reply.file ? { file: reply.file } : {}) }),
      ),
    onSuccess: async (saved: Row) => {
      // The reply shows at once, below the rest; the thread read again brings what the server added with it.
      const line = threadLineOf(saved)
      if (line) queryClient.setQueryData<ThreadLine[]>(threadKey(ticketId), (lines) => (lines && !lines.some((l) => l.id === line.id) ? [...lines, line] : lines))
      setDraft(blankDraft)
      showAlert({ kind: 'success', key: line?.isInternal ? 'tickets.note_added' : 'tickets.reply_sent' })
      await refresh()
    },
  })
  const fieldErrors = isApiError(send.error) ? send.error.fieldErrors : undefined
  return {
    draft,
    change: (next: Partial<ReplyDraft>) => {
      if (next.message !== undefined && !isBlankMessage(next.message)) setBlankError(false)
      setDraft((current) => ({ ...current, ...next }))
    },
    submit: () => {
      if (isBlankMessage(draft.message)) return setBlankError(true)
      send.mutate(draft)
    },
    isSending: send.isPending,
    /** The message's own error: blank, or the server's words for it. */
    messageError: blankError ? t('validation.message_required') : (fieldErrors?.message?.[0] ?? null),
    fileError: fieldErrors?.file?.[0] ?? null,
    /** Anything else the server refused the reply for. */
    error: send.error && !fieldErrors?.message && !fieldErrors?.file ? send.error : null,
  }
}

/** Gives the ticket to a member of staff, or takes it back (`null`): the registry's `assign` action. */
export function useTicketAssign(ticket: AnyEntity, ticketId: number) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const refresh = useRefreshTicket(ticketId)
  const assign = useMutation({
    mutationFn: (assignee: number | null) => runEntityAction(ticket, ticketId, 'assign', { assignee }),
    onSuccess: async (after) => {
      if (after && typeof after.id === 'number') queryClient.setQueryData(entityKeys.record(ticket.name, after.id), after)
      showAlert({ kind: 'success', key: 'action.done', params: { action: t('action.assign'), entity: t(`${ticket.labelKey}.one`) } })
      await refresh()
    },
  })
  return { assign: (assignee: number | null) => assign.mutate(assignee), isAssigning: assign.isPending, error: assign.error }
}

/** After a move of the ticket's status (RecordActions): its thread has a new line. */
export function useThreadRefresh(ticketId: number) {
  const queryClient = useQueryClient()
  return () => void queryClient.invalidateQueries({ queryKey: threadKey(ticketId) })
}
