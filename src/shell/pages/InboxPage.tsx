import { useTranslation } from 'react-i18next'
import { clearFeedbackHistory, useFeedbackHistory, type HistoryEntry } from '../../engine/ui/feedback-history'
import { Icon, type IconName } from '../../engine/ui/icons'
import { noticeText } from '../../engine/ui/Notifications'
import { useFormat } from '../../i18n/useFormat'
import { PageHeader } from './PageHeader'

const iconOf: Record<HistoryEntry['kind'], IconName> = { success: 'check', error: 'warning', warning: 'warning', info: 'info' }

const toneOf: Record<HistoryEntry['kind'], string> = {
  success: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  error: 'bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300',
  warning: 'bg-amber-100 text-amber-700 dark:bg-amber-950 dark:text-amber-300',
  info: 'bg-sky-100 text-sky-700 dark:bg-sky-950 dark:text-sky-300',
}

/** `/apps/mail` (spec §2, Inbox): the messages of this session, newest first; clearable. */
export function InboxPage() {
  const { t } = useTranslation()
  const format = useFormat()
  const entries = useFeedbackHistory()
  return (
    <div>
      <PageHeader title={t('inbox.title')} subtitle={t('inbox.subtitle', { count: entries.length })}>
        <button
          type="button"
          onClick={clearFeedbackHistory}
          disabled={entries.length === 0}
          className="inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
        >
          <Icon name="trash" className="size-4" />
          {t('inbox.clear')}
        </button>
      </PageHeader>
      {entries.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-white px-6 py-16 text-center dark:border-slate-800 dark:bg-slate-900">
          <div className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-400 dark:bg-slate-800">
            <Icon name="inbox" className="size-6" />
          </div>
          <p className="font-medium">{t('inbox.empty')}</p>
          <p className="max-w-md text-sm text-slate-500 dark:text-slate-400">{t('inbox.empty_text')}</p>
        </div>
      ) : (
        <ol className="divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" aria-label={t('inbox.title')}>
          {entries.map((entry) => (
            <li key={entry.id} className="flex items-start gap-4 px-5 py-4" data-kind={entry.kind}>
              <span className={`flex size-8 shrink-0 items-center justify-center rounded-full ${toneOf[entry.kind]}`}>
                <Icon name={iconOf[entry.kind]} className="size-4" />
                <span className="sr-only">{t(`inbox.kind.${entry.kind}`)}</span>
              </span>
              <div className="min-w-0 flex-1">
                <p className="text-sm text-slate-900 dark:text-slate-100">{noticeText(t, entry)}</p>
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  {t(`inbox.channel.${entry.channel}`)} · <time dateTime={new Date(entry.at).toISOString()}>{format.dateTime(new Date(entry.at).toISOString())}</time>
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
