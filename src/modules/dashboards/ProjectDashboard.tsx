import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { useAccess } from '../../auth/useAccess'
import { useEntities } from '../../engine/entities-context'
import type { AnyEntity } from '../../engine/entity-api'
import { useFormat } from '../../i18n/useFormat'
import { Icon } from '../../engine/ui/icons'
import { useQuickPanelData } from '../../shell/panels/useQuickPanelData'
import { Welcome } from './Welcome'
import { dashboardWidgets } from '../../../schema/dashboards'
import { paths } from '../../app/paths'
import { useReadableWidgets, WidgetDashboard } from './WidgetDashboard'

type Count = { isPending: true } | { isPending: false; value: number | undefined }

function EntityCard({ entity, count }: { entity: AnyEntity; count: Count }) {
  const { t } = useTranslation()
  const format = useFormat()
  const title = t(entity.listTitleKey)
  return (
    <li>
      <Link
        to={entity.ui.listPath}
        className="group flex h-full flex-col justify-between gap-6 rounded-xl border border-slate-200 bg-white p-5 shadow-xs transition hover:border-indigo-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-700"
        aria-label={t('dashboard.open', { entity: title })}
      >
        <div className="flex items-start justify-between gap-3">
          <h2 className="text-sm font-medium text-slate-600 dark:text-slate-300">{title}</h2>
          <Icon name="chevronEnd" className="flip-rtl size-4 text-slate-300 transition group-hover:text-indigo-500 dark:text-slate-600" />
        </div>
        <div>
          {count.isPending ? (
            <div className="h-9 w-20 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
          ) : count.value === undefined ? (
            <p className="text-sm text-slate-400">{t('dashboard.unavailable')}</p>
          ) : (
            <>
              <p className="text-3xl font-semibold tracking-tight tabular-nums" data-testid={`count-${entity.name}`}>
                {format.integer(count.value)}
              </p>
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t('dashboard.records', { count: count.value })}</p>
            </>
          )}
        </div>
      </Link>
    </li>
  )
}

/**
 * A card per list the user may open, with its record count. The counts come in one request,
 * the quick panel's (issue 20: one per list queued the sidebar's menu behind some fifty), so
 * the two always agree — and the server counts as each list totals (a voucher once, not per line).
 */
function RecordCounts({ entities }: { entities: AnyEntity[] }) {
  const { t } = useTranslation()
  // Always asked again on arrival: the counts move with every write, and the panel's copy may be older.
  const counts = useQuickPanelData({ refetchOnMount: 'always' })
  const countOf = (entity: AnyEntity): Count =>
    counts.isPending ? { isPending: true } : { isPending: false, value: counts.isError ? undefined : counts.data.counts[entity.listKey] }
  return (
    <div>
      <header className="mb-6">
        <h1 className="text-2xl font-semibold tracking-tight">{t('dashboard.title')}</h1>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('dashboard.subtitle')}</p>
      </header>
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {entities.map((entity) => (
          <EntityCard key={entity.name} entity={entity} count={countOf(entity)} />
        ))}
      </ul>
    </div>
  )
}

/**
 * `/apps/dashboards/project`: the shop's figures, lists and charts (the registry's widgets) the
 * user may read; for someone who may read none, the records of every list they may open; for
 * someone the back-office gives no list (a registered USER), a welcome to what is theirs.
 */
export function ProjectDashboard() {
  const { t } = useTranslation()
  const access = useAccess()
  const widgets = useReadableWidgets(dashboardWidgets, 'project')
  const entities = useEntities().filter((entity) => !entity.isLine && access.can(entity.permissions.LIST))
  if (widgets.length > 0) {
    return (
      <div>
        <header className="mb-6 flex flex-wrap items-end justify-between gap-3">
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">{t('dashboard.title')}</h1>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('dashboard.shop_subtitle')}</p>
          </div>
          <Link to={paths.analytics} className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
            {t('dashboard.analytics_title')}
          </Link>
        </header>
        <WidgetDashboard widgets={widgets} dashboard="project" period={NO_PERIOD} />
      </div>
    )
  }
  return entities.length === 0 ? <Welcome /> : <RecordCounts entities={entities} />
}

const NO_PERIOD = {}
