import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { paths } from '../../app/paths'
import { useEntities } from '../../engine/entities-context'
import { Icon } from '../../engine/ui/icons'
import { Spinner } from '../../engine/ui/PageSpinner'
import { useFormat } from '../../i18n/useFormat'
import { Drawer } from './Drawer'
import { QuickPanelNotes } from './QuickPanelNotes'
import { useQuickPanelData } from './useQuickPanelData'

/** A figure's list: its path, and the filter its address holds (`?order_date_after=…`). */
function linkOf(href: string): { to: string; search: Record<string, string> } {
  const [to = href, query = ''] = href.split('?')
  return { to, search: Object.fromEntries(new URLSearchParams(query)) }
}

/**
 * The quick panel (spec §2): a drawer at the end side titled Quick Panel, with live content —
 * today and its figures, the caller's unread notifications and own notes (issue 23), then the
 * records they may open and the latest changes to them.
 */
export function QuickPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const format = useFormat()
  const entities = useEntities()
  const query = useQuickPanelData()
  const hasLists = query.isSuccess && Object.keys(query.data.counts).length > 0
  const byListKey = new Map(entities.map((e) => [e.listKey, e]))
  const byName = new Map(entities.map((e) => [e.name, e]))
  const labelOf = (name: string) => {
    const entity = byName.get(name)
    return entity ? t(`${entity.labelKey}.one`) : name
  }

  return (
    <Drawer title={t('quick_panel.title')} onClose={onClose} width="w-80" testId="quick-panel">
      {query.isPending ? (
        <div className="flex justify-center py-10 text-slate-500" role="status">
          <Spinner className="size-6" />
          <span className="sr-only">{t('common.loading')}</span>
        </div>
      ) : query.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {t('quick_panel.unavailable')}
        </p>
      ) : (
        <div className="space-y-6">
          <section>
            <h3 className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">
              <Icon name="calendar" className="size-4" />
              {t('quick_panel.today')}
            </h3>
            <p className="mt-2 text-lg font-semibold" data-testid="quick-panel-date">
              {format.longDate(query.data.date)}
            </p>
            {/* Only the figures of lists the caller may open: the server leaves out the others. */}
            {query.data.figures.length > 0 && (
              <ul className="mt-3 space-y-2" data-testid="quick-panel-figures">
                {query.data.figures.map((figure) => (
                  <li key={figure.key}>
                    <Link
                      {...linkOf(figure.href)}
                      onClick={onClose}
                      className="flex items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm hover:border-indigo-300 hover:bg-indigo-50 dark:border-slate-800 dark:hover:border-indigo-700 dark:hover:bg-indigo-950"
                    >
                      <span>{t(`quick_panel.figure.${figure.key}`, { defaultValue: figure.key })}</span>
                      <span className="text-lg font-semibold tabular-nums">{format.integer(figure.count)}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {query.data.notifications.length > 0 && (
            <section data-testid="quick-panel-notifications">
              <div className="flex items-center justify-between gap-2">
                <h3 className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">
                  <Icon name="bell" className="size-4" />
                  {t('quick_panel.notifications')}
                </h3>
                <Link to={paths.inbox} onClick={onClose} className="text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-400">
                  {t('quick_panel.open_inbox')}
                </Link>
              </div>
              <ol className="mt-2 space-y-3">
                {query.data.notifications.map((notification) => (
                  <li key={notification.id} className="text-sm">
                    <p>{t(notification.message, { ...notification.params, defaultValue: notification.message })}</p>
                    {notification.at && <p className="text-xs text-slate-500 dark:text-slate-400">{format.dateTime(notification.at)}</p>}
                  </li>
                ))}
              </ol>
            </section>
          )}
          <QuickPanelNotes />
          {/* Someone who may open no list (a registered USER) has no records and no changes to them: no empty headings. */}
          {hasLists && (
            <section>
              <h3 className="text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">{t('quick_panel.records')}</h3>
              <dl className="mt-2 grid grid-cols-2 gap-2">
                {Object.entries(query.data.counts).map(([listKey, count]) => {
                  const entity = byListKey.get(listKey)
                  return (
                    <div key={listKey} className="rounded-lg border border-slate-200 px-3 py-2 dark:border-slate-800">
                      <dt className="truncate text-xs text-slate-500 dark:text-slate-400">{entity ? t(entity.listTitleKey) : listKey}</dt>
                      <dd className="text-lg font-semibold tabular-nums">{format.integer(count)}</dd>
                    </div>
                  )
                })}
              </dl>
            </section>
          )}
          {hasLists && (
            <section>
              <h3 className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400">
                <Icon name="clock" className="size-4" />
                {t('quick_panel.recent')}
              </h3>
              {query.data.recent.length === 0 ? (
                <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">{t('quick_panel.no_activity')}</p>
              ) : (
                <ol className="mt-2 space-y-3">
                  {query.data.recent.map((row) => (
                    <li key={`${row.id}-${row.at}`} className="text-sm">
                      <p>
                        {t(`quick_panel.action_${row.action}`, {
                          defaultValue: t('quick_panel.action_other', { action: row.action, actor: row.actor, entity: labelOf(row.entity), id: row.entity_id ?? '' }),
                          actor: row.actor || t('quick_panel.someone'),
                          entity: labelOf(row.entity),
                          id: row.entity_id ?? '',
                        })}
                      </p>
                      <p className="text-xs text-slate-500 dark:text-slate-400">{format.dateTime(row.at)}</p>
                    </li>
                  ))}
                </ol>
              )}
            </section>
          )}
        </div>
      )}
    </Drawer>
  )
}
