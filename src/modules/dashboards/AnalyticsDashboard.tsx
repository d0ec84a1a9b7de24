import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { dashboardWidgets } from '../../../schema/dashboards'
import { todayIso } from '../../../schema/kit/dates'
import { Welcome } from './Welcome'
import { useReadableWidgets, WidgetDashboard } from './WidgetDashboard'

/** The periods the analytics offer: the last N days, today included. */
const RANGES = [7, 30, 90, 365] as const

const daysBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10)

/** `/apps/dashboards/analytics`: sales over time, by category and by status, over a chosen period. */
export function AnalyticsDashboard() {
  const { t } = useTranslation()
  const widgets = useReadableWidgets(dashboardWidgets, 'analytics')
  const [days, setDays] = useState<(typeof RANGES)[number]>(30)
  if (widgets.length === 0) return <Welcome />
  const today = todayIso()
  const period = { date_after: daysBefore(today, days - 1), date_before: today }
  return (
    <div>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t('dashboard.analytics_title')}</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('dashboard.analytics_subtitle')}</p>
        </div>
        <div role="radiogroup" aria-label={t('dashboard.period')} className="inline-flex rounded-lg border border-slate-200 p-0.5 dark:border-slate-700">
          {RANGES.map((n) => (
            <button
              key={n}
              type="button"
              role="radio"
              aria-checked={days === n}
              onClick={() => setDays(n)}
              className={`rounded-md px-3 py-1 text-sm ${days === n ? 'bg-indigo-600 text-white' : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'}`}
            >
              {t('dashboard.last_days', { count: n })}
            </button>
          ))}
        </div>
      </header>
      <WidgetDashboard widgets={widgets} dashboard="analytics" period={period} />
    </div>
  )
}
