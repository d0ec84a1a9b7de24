import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyEntity } from '../../engine/entity-api'
import { useEntity } from '../../engine/entities-context'
import { ListScreen } from '../../engine/list/ListScreen'
import { GroupTree } from './GroupTree'

type View = 'list' | 'tree'

/**
 * The groups screen: the generic list (search, filters, paging, safe deletes), or the chart
 * of accounts as a tree under the primary groups. The list is the default: it is where a
 * group is found, opened and deleted; the tree shows where each one stands.
 */
export function GroupList({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  const primaryGroup = useEntity('primary_group')
  const [view, setView] = useState<View>('list')
  const tab = (v: View) => (
    <button
      type="button"
      role="tab"
      aria-selected={view === v}
      onClick={() => setView(v)}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ${view === v ? 'bg-white shadow-sm dark:bg-slate-700' : 'text-slate-600 hover:text-slate-900 dark:text-slate-300'}`}
    >
      {t(`accounting.view_${v}`)}
    </button>
  )
  const switcher = (
    <div role="tablist" aria-label={t('accounting.view')} className="inline-flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
      {tab('list')}
      {tab('tree')}
    </div>
  )
  if (view === 'tree' && primaryGroup) {
    return (
      <div className="space-y-4">
        <header className="flex flex-wrap items-end justify-between gap-4">
          <h1 className="text-2xl font-semibold tracking-tight">{t(entity.listTitleKey)}</h1>
          {switcher}
        </header>
        <GroupTree group={entity} primaryGroup={primaryGroup} />
      </div>
    )
  }
  return <ListScreen entity={entity} headerExtra={switcher} />
}
