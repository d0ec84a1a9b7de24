import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { showAlert, showSnackbar, notify } from '../../engine/ui/notifications'
import { useFormat } from '../../i18n/useFormat'
import { PageHeader } from './PageHeader'
import { todayIso } from '../../../schema/kit/dates'

/**
 * `/example` (spec §2): the demo page of the shell — a header, a content toolbar and
 * content — which also shows the feedback API every screen uses.
 */
export function ExamplePage() {
  const { t } = useTranslation()
  const format = useFormat()
  const [isCompact, setIsCompact] = useState(false)
  const today = todayIso()
  const button = 'rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'
  return (
    <div>
      <PageHeader title={t('example.title')} subtitle={format.longDate(today)} />
      <div className="mb-4 flex flex-wrap items-center gap-2 rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900" role="toolbar" aria-label={t('example.toolbar')}>
        <button type="button" className={button} onClick={() => showAlert({ kind: 'success', key: 'example.alert_text' })}>
          {t('example.show_alert')}
        </button>
        <button type="button" className={button} onClick={() => showSnackbar({ key: 'example.snackbar_text' })}>
          {t('example.show_snackbar')}
        </button>
        <button type="button" className={button} onClick={() => notify({ kind: 'info', key: 'example.notification_text' })}>
          {t('example.show_notification')}
        </button>
        <div className="flex-1" />
        <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
          <input type="checkbox" checked={isCompact} onChange={(e) => setIsCompact(e.target.checked)} className="size-4 accent-indigo-600" />
          {t('example.compact')}
        </label>
      </div>
      <div className={`grid gap-4 ${isCompact ? 'sm:grid-cols-3' : 'sm:grid-cols-2'}`}>
        {(['layouts', 'themes', 'languages'] as const).map((topic) => (
          <article key={topic} className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900">
            <h2 className="flex items-center gap-2 text-base font-semibold">
              <Icon name={topic === 'layouts' ? 'columns' : topic === 'themes' ? 'swatch' : 'language'} className="size-5 text-indigo-600 dark:text-indigo-400" />
              {t(`example.${topic}_title`)}
            </h2>
            <p className="mt-2 text-sm leading-relaxed text-slate-600 dark:text-slate-300">{t(`example.${topic}_text`)}</p>
          </article>
        ))}
      </div>
    </div>
  )
}
