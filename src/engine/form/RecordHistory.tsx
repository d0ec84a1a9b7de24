import { useInfiniteQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { apiRequest } from '../api'
import type { AnyEntity, Row } from '../entity-api'
import { errorText } from '../errors'
import { entityKeys } from '../queries'
import { Banner } from '../ui/Banner'
import { Spinner } from '../ui/PageSpinner'
import { HistoryGroupItem } from './history-entry'
import { groupHistory, historyPageSchema, type HistoryPage } from './history-model'

/**
 * A record's history (registry `history`, on for every entity with a form), the form's History
 * tab: each save — who, when, what they did, from which screen — with its changes field by
 * field and its lines', a transition with what it was given, its related rows' (a payment
 * taken), newest first, a page at a time ("Show older"). Asked again with the record (a save
 * or an action adds an entry).
 */
export const HISTORY_PAGE_SIZE = 50

export const historyKey = (entity: AnyEntity, id: number) => [...entityKeys.all(entity.name), 'history', id] as const

async function fetchHistory(entity: AnyEntity, id: number, before: number | null, signal: AbortSignal): Promise<HistoryPage> {
  const searchParams: Record<string, string | number> = { size: HISTORY_PAGE_SIZE }
  if (before !== null) searchParams.before = before
  return historyPageSchema.parse(await apiRequest(`${entity.api.base}/history/${id}`, { signal, searchParams }))
}

export function RecordHistory({ entity, row }: { entity: AnyEntity; row: Row }) {
  const { t } = useTranslation()
  const history = useInfiniteQuery({
    // Under the record's own entity: asked again whenever the record is.
    queryKey: historyKey(entity, row.id),
    queryFn: ({ pageParam, signal }) => fetchHistory(entity, row.id, pageParam, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next,
  })
  const groups = useMemo(() => groupHistory(history.data?.pages.flatMap((p) => p.history) ?? []), [history.data])
  return (
    <section aria-label={t('history.title')} className="rounded-xl border border-slate-200 bg-white shadow-xs print:hidden dark:border-slate-800 dark:bg-slate-900">
      {history.isPending && (
        <div className="flex justify-center p-6">
          <Spinner className="size-5" />
        </div>
      )}
      {history.isError && (
        <div className="p-6">
          <Banner kind="error">{errorText(t, history.error)}</Banner>
        </div>
      )}
      {history.isSuccess &&
        (groups.length === 0 ? (
          <p className="px-6 py-4 text-sm text-slate-500 dark:text-slate-400">{t('history.empty')}</p>
        ) : (
          <ol className="divide-y divide-slate-100 dark:divide-slate-800" data-testid="record-history">
            {groups.map((group) => (
              <HistoryGroupItem key={group.key} entity={entity} group={group} />
            ))}
          </ol>
        ))}
      {history.hasNextPage && (
        <div className="flex justify-center border-t border-slate-200 px-6 py-3 dark:border-slate-800">
          <button
            type="button"
            onClick={() => void history.fetchNextPage()}
            disabled={history.isFetchingNextPage}
            aria-busy={history.isFetchingNextPage}
            className="inline-flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-700 shadow-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
          >
            {history.isFetchingNextPage && <Spinner className="size-4" />}
            {t('history.show_older')}
          </button>
        </div>
      )}
    </section>
  )
}
