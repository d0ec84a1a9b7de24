import { Link } from '@tanstack/react-router'
import { lazy, Suspense, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChartData, FigureData, ListData, Widget } from '../../../schema/kit/widget'
import { useAccess } from '../../auth/useAccess'
import { useEntities } from '../../engine/entities-context'
import type { AnyEntity } from '../../engine/entity-api'
import { Icon } from '../../engine/ui/icons'
import { StatusChip } from '../../engine/ui/StatusChip'
import { useFormat } from '../../i18n/useFormat'
import { useWidgetData, widgetDataOf, type Period } from './widget-data'

// recharts is the dashboard's alone: its own chunk, fetched when a chart is first drawn.
const WidgetChart = lazy(() => import('./WidgetChart'))

/** The widgets of a dashboard its user may read (their entity's LIST), in their order. */
export function useReadableWidgets(all: readonly Widget[], dashboard: Widget['dashboard']): Widget[] {
  const entities = useEntities()
  const access = useAccess()
  return all
    .filter((w) => w.dashboard === dashboard)
    .filter((w) => {
      const entity = entities.find((e) => e.name === w.reads)
      return entity !== undefined && access.can(entity.permissions.LIST)
    })
    .sort((a, b) => a.order - b.order)
}

/** Where a widget leads: its entity's list, or the view that filters as it counts. */
function linkOf(entities: readonly AnyEntity[], widget: Widget): { list: string; form: string } | null {
  const entity = widget.link && entities.find((e) => e.name === widget.link!.entity)
  if (!entity) return null
  const view = widget.link!.view ? entity.views[widget.link!.view] : undefined
  return { list: view?.ui.listPath ?? entity.ui.listPath, form: entity.ui.formPath }
}

const spanClass = { 1: '', 2: 'sm:col-span-2', 3: 'sm:col-span-2 xl:col-span-3', 4: 'sm:col-span-2 xl:col-span-4' } as const

function Card({ widget, children, action }: { widget: Widget; children: ReactNode; action?: ReactNode }) {
  const { t } = useTranslation()
  return (
    <section aria-label={t(widget.labelKey)} data-testid={`widget-${widget.name}`} className={`flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-xs dark:border-slate-800 dark:bg-slate-900 ${spanClass[widget.span]}`}>
      <header className="mb-3 flex items-start justify-between gap-3">
        <h2 className="text-sm font-medium text-slate-600 dark:text-slate-300">{t(widget.labelKey)}</h2>
        {action}
      </header>
      {children}
    </section>
  )
}

function FigureCard({ widget, data, to }: { widget: Widget; data: FigureData; to: string | null }) {
  const { t } = useTranslation()
  const format = useFormat()
  const body = (
    <div>
      <p className="text-3xl font-semibold tracking-tight tabular-nums" data-testid={`figure-${widget.name}`}>
        {format.integer(data.count)}
      </p>
      {data.amount !== null && data.amount !== undefined && (
        <p className="mt-1 text-sm text-slate-500 tabular-nums dark:text-slate-400" data-testid={`amount-${widget.name}`}>
          {format.decimal(data.amount)}
        </p>
      )}
    </div>
  )
  return (
    <Card widget={widget}>
      {to ? (
        <Link to={to} className="group -m-2 flex items-end justify-between rounded-lg p-2 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800/60" aria-label={t('dashboard.open', { entity: t(widget.labelKey) })}>
          {body}
          <Icon name="chevronEnd" className="flip-rtl size-4 text-slate-300 transition group-hover:text-indigo-500 dark:text-slate-600" />
        </Link>
      ) : (
        body
      )}
    </Card>
  )
}

function ListCard({ widget, data, link }: { widget: Widget; data: ListData; link: { list: string; form: string } | null }) {
  const { t } = useTranslation()
  const format = useFormat()
  const columns = Object.entries(widget.columns)
  const cell = (kind: string, value: unknown) => {
    if (value === null || value === undefined || value === '') return '—'
    if (kind === 'money') return format.decimal(String(value))
    if (kind === 'integer') return format.integer(Number(value))
    if (kind === 'date') return format.date(String(value))
    if (kind === 'status') return <StatusChip value={String(value)} />
    return String(value)
  }
  return (
    <Card
      widget={widget}
      action={
        link && (
          <Link to={link.list} className="text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-400">
            {t('dashboard.see_all')}
          </Link>
        )
      }
    >
      {data.rows.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-400">{t('dashboard.no_data')}</p>
      ) : (
        <div className="-mx-2 overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr className="text-start text-xs text-slate-500 dark:text-slate-400">
                {columns.map(([key, kind]) => (
                  <th key={key} scope="col" className={`px-2 py-1.5 font-medium ${kind === 'money' || kind === 'integer' ? 'text-end' : 'text-start'}`}>
                    {t(`field.${key}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {data.rows.map((row, i) => (
                <tr key={String(row.id ?? i)}>
                  {columns.map(([key, kind], c) => (
                    <td key={key} className={`px-2 py-1.5 whitespace-nowrap ${kind === 'money' || kind === 'integer' ? 'text-end tabular-nums' : ''}`}>
                      {c === 0 && link && row.id !== undefined && widget.link?.entity === widget.reads ? (
                        <Link to={`${link.form}/${String(row.id)}`} className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
                          {cell(kind, row[key])}
                        </Link>
                      ) : (
                        cell(kind, row[key])
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  )
}

function Skeleton({ widget }: { widget: Widget }) {
  return (
    <Card widget={widget}>
      <div className={`${widget.kind === 'figure' ? 'h-9 w-20' : 'h-40 w-full'} animate-pulse rounded bg-slate-100 dark:bg-slate-800`} />
    </Card>
  )
}

/**
 * A dashboard of the registry's widgets (schema/dashboards/): the figures, lists and charts
 * its user may read, all from one request; each figure and list opens its list.
 */
export function WidgetDashboard({ widgets, dashboard, period }: { widgets: readonly Widget[]; dashboard: Widget['dashboard']; period: Period }) {
  const { t } = useTranslation()
  const entities = useEntities()
  const data = useWidgetData(dashboard, period)
  if (data.isError) return <p className="rounded-lg border border-red-200 p-4 text-sm text-red-700 dark:border-red-900 dark:text-red-300">{t('dashboard.unavailable')}</p>
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      {widgets.map((widget) => {
        if (!data.data) return <Skeleton key={widget.name} widget={widget} />
        const value = widgetDataOf(widget, data.data[widget.name])
        const link = linkOf(entities, widget)
        if ('count' in value) return <FigureCard key={widget.name} widget={widget} data={value} to={link?.list ?? null} />
        if ('rows' in value) return <ListCard key={widget.name} widget={widget} data={value} link={link} />
        return (
          <Card key={widget.name} widget={widget}>
            <Suspense fallback={<div className="h-64 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />}>
              <WidgetChart widget={widget} data={value as ChartData} />
            </Suspense>
          </Card>
        )
      })}
    </div>
  )
}
