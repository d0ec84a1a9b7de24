import { Link } from '@tanstack/react-router'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useEntities } from '../../engine/entities-context'
import { errorText } from '../../engine/errors'
import { Icon } from '../../engine/ui/icons'
import { Spinner } from '../../engine/ui/PageSpinner'
import { useFormat } from '../../i18n/useFormat'
import type { Notification } from '../inbox/notifications-api'
import { useInbox } from '../inbox/useInbox'
import { useUnreadCount } from '../inbox/useUnreadCount'
import { PageHeader } from './PageHeader'

const buttonClass =
  'inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'

/**
 * `/apps/mail` (spec §2, Inbox; issue 23): the caller's notifications from the server, newest
 * first, the unread ones marked; narrowed to one kind; each opens the record it is about and
 * is marked read as it does; "Mark all as read"; more on demand.
 */
export function InboxPage() {
  const { t } = useTranslation()
  const filterId = useId()
  const inbox = useInbox()
  const unread = useUnreadCount()
  const { pages, notifications } = inbox
  return (
    <div>
      <PageHeader title={t('inbox.title')} subtitle={unread ? t('inbox.unread', { count: unread }) : t('inbox.subtitle')}>
        <button type="button" className={buttonClass} onClick={() => inbox.markAll.mutate()} disabled={!unread || inbox.markAll.isPending}>
          <Icon name="check" className="size-4" />
          {t('inbox.mark_all_read')}
        </button>
      </PageHeader>
      <div className="mb-4 flex items-center gap-2">
        <label htmlFor={filterId} className="text-sm text-slate-600 dark:text-slate-400">
          {t('inbox.kind_filter')}
        </label>
        <select
          id={filterId}
          value={inbox.kind}
          onChange={(e) => inbox.setKind(e.target.value)}
          className="min-w-0 rounded-md border border-slate-300 bg-white py-1.5 ps-2 pe-7 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          <option value="">{t('inbox.all_kinds')}</option>
          {inbox.kinds.map((kind) => (
            <option key={kind} value={kind}>
              {t(`option.${kind}`, { defaultValue: kind })}
            </option>
          ))}
        </select>
      </div>
      {!inbox.entity || pages.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {pages.isError ? `${t('inbox.unavailable')} ${errorText(t, pages.error)}` : t('inbox.unavailable')}
        </p>
      ) : pages.isPending ? (
        <div className="flex justify-center py-10 text-slate-500" role="status">
          <Spinner className="size-6" />
          <span className="sr-only">{t('common.loading')}</span>
        </div>
      ) : notifications.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-white px-6 py-16 text-center dark:border-slate-800 dark:bg-slate-900">
          <div className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-400 dark:bg-slate-800">
            <Icon name="inbox" className="size-6" />
          </div>
          <p className="font-medium">{inbox.kind ? t('inbox.empty_kind') : t('inbox.empty')}</p>
          {!inbox.kind && <p className="max-w-md text-sm text-slate-500 dark:text-slate-400">{t('inbox.empty_text')}</p>}
        </div>
      ) : (
        <>
          <ol className="divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" aria-label={t('inbox.title')}>
            {notifications.map((n) => (
              <NotificationRow key={n.id} notification={n} onOpen={() => !n.isRead && inbox.markOne.mutate(n.id)} onMarkRead={() => inbox.markOne.mutate(n.id)} />
            ))}
          </ol>
          {pages.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <button type="button" className={buttonClass} onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
                {pages.isFetchingNextPage && <Spinner className="size-4" />}
                {t('inbox.load_more')}
              </button>
            </div>
          )}
        </>
      )}
    </div>
  )
}

/**
 * What a notification's words are said with, in a right-to-left sentence: each text (a
 * subject, a product's name, a number) isolated, keeping its own direction and its place.
 */
const isolated = (params: Record<string, unknown>) => Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? `\u2068${v}\u2069` : v]))

/** One notification: what it says, its kind and when; a link to its record when it names one. */
function NotificationRow({ notification: n, onOpen, onMarkRead }: { notification: Notification; onOpen: () => void; onMarkRead: () => void }) {
  const { t, i18n } = useTranslation()
  const format = useFormat()
  const entities = useEntities()
  const entity = n.entity ? entities.find((e) => e.name === n.entity) : undefined
  const href = entity && n.recordId !== null ? `${entity.ui.formPath}/${n.recordId}` : undefined
  const body = (
    <>
      <span className={`mt-1.5 size-2.5 shrink-0 rounded-full ${n.isRead ? 'bg-transparent' : 'bg-indigo-600 dark:bg-indigo-400'}`} aria-hidden="true" />
      <span className="min-w-0 flex-1">
        {!n.isRead && <span className="sr-only">{t('inbox.unread_marker')}: </span>}
        <span className={`block text-sm break-words ${n.isRead ? 'text-slate-700 dark:text-slate-300' : 'font-semibold text-slate-900 dark:text-slate-100'}`}>{t(n.message, { ...(i18n.dir() === 'rtl' ? isolated(n.params) : n.params), defaultValue: n.message })}</span>
        <span className="mt-1 block text-xs text-slate-500 dark:text-slate-400">
          {n.kind && t(`option.${n.kind}`, { defaultValue: n.kind })}
          {n.at && (
            <>
              {' · '}
              <time dateTime={n.at}>{format.dateTime(n.at)}</time>
            </>
          )}
        </span>
      </span>
    </>
  )
  return (
    <li className={`flex items-start gap-2 ${n.isRead ? '' : 'bg-indigo-50/60 dark:bg-indigo-950/30'}`} data-unread={n.isRead ? undefined : 'true'}>
      {href ? (
        <Link to={href} onClick={onOpen} className="flex min-w-0 flex-1 items-start gap-3 px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 sm:px-5 dark:hover:bg-slate-800">
          {body}
        </Link>
      ) : (
        <div className="flex min-w-0 flex-1 items-start gap-3 px-4 py-3 sm:px-5">{body}</div>
      )}
      {!n.isRead && (
        <button type="button" onClick={onMarkRead} className="me-2 mt-2 shrink-0 rounded-md p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-700 sm:me-3 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-200" aria-label={t('inbox.mark_read')} title={t('inbox.mark_read')}>
          <Icon name="check" className="size-4" />
        </button>
      )}
    </li>
  )
}
