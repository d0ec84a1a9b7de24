import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyEntity } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import { Banner } from '../../engine/ui/Banner'
import { Icon } from '../../engine/ui/icons'
import { Spinner } from '../../engine/ui/PageSpinner'
import { FileInput } from '../../engine/widgets/FileInput'
import { LazyRichTextInput } from '../../engine/widgets/LazyRichTextInput'
import { useFormat } from '../../i18n/useFormat'
import { attachmentOf, type ThreadLine } from './thread-lines'
import { useThreadLines, useTicketReply } from './useTicketThread'

/** The look of a message's formatted text (the editor's, more compact). */
const messageClass = [
  'text-sm leading-relaxed break-words text-slate-800 dark:text-slate-100',
  '[&_p]:my-1.5 [&_h2]:mt-3 [&_h2]:mb-1.5 [&_h2]:text-base [&_h2]:font-semibold [&_h3]:mt-2 [&_h3]:mb-1 [&_h3]:font-semibold',
  '[&_ul]:my-1.5 [&_ul]:list-disc [&_ul]:ps-5 [&_ol]:my-1.5 [&_ol]:list-decimal [&_ol]:ps-5',
  '[&_blockquote]:my-1.5 [&_blockquote]:border-s-4 [&_blockquote]:border-slate-300 [&_blockquote]:ps-3 dark:[&_blockquote]:border-slate-600',
  '[&_a]:text-indigo-600 [&_a]:underline dark:[&_a]:text-indigo-400 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 dark:[&_code]:bg-slate-800',
  '[&>:first-child]:mt-0 [&>:last-child]:mb-0',
].join(' ')

/** The thread, oldest first: the customer's messages at the start side, the staff's at the end, the system's lines between them. */
export function TicketThread({ ticketDetail, ticketId }: { ticketDetail: AnyEntity; ticketId: number }) {
  const { t } = useTranslation()
  const thread = useThreadLines(ticketDetail, ticketId)
  if (thread.isPending) {
    return (
      <div className="flex justify-center py-8 text-slate-400">
        <Spinner className="size-5" />
        <span className="sr-only">{t('common.loading')}</span>
      </div>
    )
  }
  if (thread.isError) return <Banner kind="error">{errorText(t, thread.error)}</Banner>
  if (thread.data.length === 0) return <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{t('tickets.no_messages')}</p>
  return (
    <ol className="space-y-4" aria-label={t('tickets.thread')}>
      {thread.data.map((line) => (
        <li key={line.id} data-kind={line.kind} data-internal={line.isInternal || undefined}>
          {line.kind === 'system' ? <SystemLine line={line} /> : <Message line={line} />}
        </li>
      ))}
    </ol>
  )
}

function When({ at }: { at: string | null }) {
  const format = useFormat()
  return at ? <time dateTime={at}>{format.dateTime(at)}</time> : null
}

function Message({ line }: { line: ThreadLine }) {
  const { t } = useTranslation()
  const isStaff = line.kind === 'staff'
  const tone = line.isInternal
    ? 'border-amber-300 bg-amber-50 dark:border-amber-700/60 dark:bg-amber-950/60'
    : isStaff
      ? 'border-indigo-200 bg-indigo-50 dark:border-indigo-900 dark:bg-indigo-950/60'
      : 'border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900'
  return (
    <article className={`flex ${isStaff ? 'justify-end' : 'justify-start'}`} aria-label={t(line.isInternal ? 'tickets.note_by' : 'tickets.message_by', { name: line.author ?? t(`option.${line.kind}`) })}>
      <div className={`max-w-[min(40rem,92%)] min-w-0 rounded-2xl border px-4 py-3 shadow-xs ${isStaff ? 'rounded-se-sm' : 'rounded-ss-sm'} ${tone}`}>
        <header className="mb-1.5 flex flex-wrap items-baseline gap-x-2 gap-y-1 text-xs">
          <span className="font-semibold text-slate-900 dark:text-slate-100">{line.author ?? t(`option.${line.kind}`)}</span>
          <span className="text-slate-500 dark:text-slate-400">{t(`option.${line.kind}`)}</span>
          {line.isInternal && (
            <span className="inline-flex items-center gap-1 rounded-full bg-amber-200/70 px-2 py-0.5 font-medium text-amber-900 dark:bg-amber-900/70 dark:text-amber-100">
              <Icon name="lock" className="size-3" />
              {t('tickets.internal_note')}
            </span>
          )}
          <span className="text-slate-500 dark:text-slate-400">
            <When at={line.createdAt} />
          </span>
        </header>
        {/* Formatted text the server sanitised before storing it. */}
        <div className={messageClass} dangerouslySetInnerHTML={{ __html: line.message }} />
        {line.file && <Attachment url={line.file} />}
      </div>
    </article>
  )
}

function Attachment({ url }: { url: string }) {
  const { t } = useTranslation()
  const file = attachmentOf(url)
  return (
    <div className="mt-3">
      <a href={file.href} target="_blank" rel="noreferrer" className="group inline-flex max-w-full items-center gap-2 rounded-lg text-sm text-indigo-700 hover:underline dark:text-indigo-300" aria-label={t('tickets.attachment', { name: file.name })}>
        {file.thumbnail ? (
          <img
            src={file.thumbnail}
            alt=""
            loading="lazy"
            decoding="async"
            className="max-h-40 max-w-full rounded-lg object-contain ring-1 ring-slate-200 dark:ring-slate-700"
            // An upload older than thumbnails has only its original.
            onError={(e) => {
              if (e.currentTarget.src.endsWith('.thumb.webp')) e.currentTarget.src = file.href
            }}
          />
        ) : (
          <>
            <Icon name="document" className="size-4 shrink-0" />
            <span className="truncate" dir="ltr">
              {file.name}
            </span>
          </>
        )}
      </a>
    </div>
  )
}

/** What happened to the ticket, said between the messages: "Status changed from Open to Processing by Jane", "Assigned to Sam". */
function SystemLine({ line }: { line: ThreadLine }) {
  const { t } = useTranslation()
  const by = line.author
  const sentences = [
    ...(line.status
      ? [t(by ? 'tickets.status_changed_by' : 'tickets.status_changed', { from: t(`option.${line.status.before}`), to: t(`option.${line.status.after}`), name: by })]
      : []),
    ...(line.assignee
      ? [
          line.assignee.after
            ? t(by ? 'tickets.assigned_by' : 'tickets.assigned', { assignee: line.assignee.after, name: by })
            : t(by ? 'tickets.unassigned_by' : 'tickets.unassigned_line', { name: by }),
        ]
      : []),
  ]
  // A line of the system's own words (none of the above): its text, without its markup.
  const words = sentences.length > 0 ? sentences.join(' · ') : (new DOMParser().parseFromString(line.message, 'text/html').body.textContent ?? '').trim()
  return (
    <div className="flex items-center gap-3 text-xs text-slate-500 dark:text-slate-400">
      <span aria-hidden="true" className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
      <p className="max-w-[80%] text-center">
        <span>{words}</span>
        {line.createdAt && (
          <>
            {' · '}
            <When at={line.createdAt} />
          </>
        )}
      </p>
      <span aria-hidden="true" className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
    </div>
  )
}

/**
 * The reply under the thread: formatted text, an attachment and — for staff — whether it is an
 * internal note the customer does not see. Ctrl/Cmd+Enter sends it, as it saves a form.
 */
export function ReplyBox({ ticketDetail, ticketId, canNote, isClosed }: { ticketDetail: AnyEntity; ticketId: number; canNote: boolean; isClosed: boolean }) {
  const { t } = useTranslation()
  const reply = useTicketReply({ ticketDetail, ticketId, canNote })
  const [messageId, errorId, fileId, fileErrorId, noteId, hintId] = [useId(), useId(), useId(), useId(), useId(), useId()]
  const messageField = ticketDetail.fields.message!
  const fileField = ticketDetail.fields.file!
  const isNote = canNote && reply.draft.isInternal
  return (
    <form
      noValidate
      aria-label={t('tickets.reply')}
      onSubmit={(e) => {
        e.preventDefault()
        reply.submit()
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey) {
          e.preventDefault()
          if (!reply.isSending) reply.submit()
        }
      }}
      className={`space-y-4 rounded-xl border p-4 shadow-xs sm:p-5 ${isNote ? 'border-amber-300 bg-amber-50/60 dark:border-amber-700/60 dark:bg-amber-950/30' : 'border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900'}`}
    >
      <div className="space-y-1.5">
        <label htmlFor={messageId} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
          {t(isNote ? 'tickets.note_label' : 'tickets.reply_label')}
        </label>
        <LazyRichTextInput
          id={messageId}
          name="message"
          field={messageField}
          label={t(isNote ? 'tickets.note_label' : 'tickets.reply_label')}
          value={reply.draft.message}
          onChange={(value) => reply.change({ message: typeof value === 'string' ? value : '' })}
          onBlur={() => {}}
          isInvalid={reply.messageError !== null}
          describedBy={[reply.messageError ? errorId : '', isClosed && !canNote ? hintId : ''].filter(Boolean).join(' ') || undefined}
        />
        {reply.messageError && (
          <p id={errorId} className="text-sm text-red-600 dark:text-red-400">
            {reply.messageError}
          </p>
        )}
        {isClosed && !canNote && (
          <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
            {t('tickets.reopens_hint')}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0 flex-1 basis-64 space-y-1.5">
          <span className="block text-sm font-medium text-slate-700 dark:text-slate-200" aria-hidden="true">
            {t(ticketDetail.fieldLabelKey('file'))}
          </span>
          <FileInput
            id={fileId}
            name="file"
            field={fileField}
            label={t(ticketDetail.fieldLabelKey('file'))}
            value={reply.draft.file}
            onChange={(value) => reply.change({ file: value instanceof File ? value : null })}
            onBlur={() => {}}
            isInvalid={reply.fileError !== null}
            describedBy={reply.fileError ? fileErrorId : undefined}
          />
          {reply.fileError && (
            <p id={fileErrorId} className="text-sm text-red-600 dark:text-red-400">
              {reply.fileError}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-4">
          {canNote && (
            <label htmlFor={noteId} className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
              <input
                id={noteId}
                type="checkbox"
                checked={reply.draft.isInternal}
                onChange={(e) => reply.change({ isInternal: e.target.checked })}
                className="size-4 rounded border-slate-300 accent-amber-600 dark:border-slate-600"
              />
              <Icon name="lock" className="size-4 text-amber-600 dark:text-amber-400" />
              {t('tickets.internal_note')}
            </label>
          )}
          <button
            type="submit"
            disabled={reply.isSending}
            className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
          >
            {reply.isSending && <Spinner className="size-4" />}
            {t(isNote ? 'tickets.add_note' : 'tickets.send')}
          </button>
        </div>
      </div>
      {reply.error && <Banner kind="error">{errorText(t, reply.error)}</Banner>}
    </form>
  )
}
