import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useFormat } from '../../i18n/useFormat'
import { useAccess } from '../access-context'
import { titleOf, type AnyEntity } from '../entity-api'
import { errorText } from '../errors'
import { pageSizes } from '../../../schema/kit/list-view'
import { ListSearchBox } from '../list/ListToolbar'
import { SkeletonRows } from '../list/ListSkeleton'
import { pinnedCell, pinnedHeaderCell, TableFrame } from '../list/TableFrame'
import { entityKeys } from '../queries'
import { Banner } from '../ui/Banner'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { Icon } from '../ui/icons'
import { notify } from '../ui/notifications'
import { Pagination } from '../ui/Pagination'
import { useDebouncedValue } from '../useDebouncedValue'
import { fetchTrash, purgeFromTrash, restoreFromTrash, trashKeys, type TrashRow } from './trash-api'

/**
 * The Trash of an entity (`trash` in the registry), beside its list: what was deleted, when
 * and by whom, newest first; found by the list's search. Those who may delete restore rows
 * (one, or the selection); those with `<PREFIX>_PURGE` delete them for good, after a question.
 */
const SEARCH_DEBOUNCE_MS = 300
const checkboxClass =
  'size-4 rounded border-slate-300 text-indigo-600 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600'
const rowButton = 'rounded-md px-2 py-1 text-sm font-medium focus-visible:outline-2 disabled:opacity-50'

export function TrashScreen({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  const format = useFormat()
  const access = useAccess()
  const queryClient = useQueryClient()
  const canPurge = entity.trash !== undefined && access.can(entity.trash.purgePermission)
  const [page, setPage] = useState(1)
  const [size, setSize] = useState<number>(pageSizes[0])
  const [searchText, setSearchText] = useState('')
  const q = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS)
  const [shownQ, setShownQ] = useState(q)
  if (shownQ !== q) {
    setShownQ(q)
    setPage(1)
  }
  const params = { page, size, q }
  const query = useQuery({ queryKey: trashKeys.page(entity.name, params), queryFn: ({ signal }) => fetchTrash(entity, params, signal), placeholderData: keepPreviousData })
  const rows = query.data?.rows ?? []
  const [selection, setSelection] = useState<ReadonlySet<number>>(new Set())
  const [purging, setPurging] = useState<readonly number[] | null>(null)
  const one = t(`${entity.labelKey}.one`)
  const other = t(`${entity.labelKey}.other`)
  const nameOf = (count: number) => (count === 1 ? one : other)

  const settled = (ids: readonly number[]) => {
    setSelection((s) => new Set([...s].filter((id) => !ids.includes(id))))
    // The entity's lists, records and pickers, and its Trash, all live under its key.
    return queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) })
  }
  const restore = useMutation({
    mutationFn: (ids: readonly number[]) => restoreFromTrash(entity, { ids }),
    onSuccess: ({ ids }) => {
      notify({ kind: 'success', key: 'trash.restored', params: { count: ids.length, entity: nameOf(ids.length) } })
      return settled(ids)
    },
  })
  const purge = useMutation({
    mutationFn: (ids: readonly number[]) => purgeFromTrash(entity, ids),
    onSuccess: (_detail, ids) => {
      notify({ kind: 'success', key: 'trash.purged', params: { count: ids.length, entity: nameOf(ids.length) } })
      setPurging(null)
      return settled(ids)
    },
    onError: () => setPurging(null),
  })
  const failure = restore.error ?? purge.error
  const isBusy = restore.isPending || purge.isPending
  const isAllSelected = rows.length > 0 && rows.every((r) => selection.has(r.id))
  const toggle = (id: number) =>
    setSelection((s) => {
      const next = new Set(s)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const totalPages = Math.max(1, query.data?.totalPages ?? 1)
  const shownPage = query.data?.page ?? page

  return (
    <div className="min-w-0 space-y-4">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <Link to={entity.ui.listPath} className="inline-flex items-center gap-1 text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">
            <Icon name="chevronStart" className="flip-rtl size-4" />
            {t('trash.back', { entity: t(entity.listTitleKey) })}
          </Link>
          <h1 className="mt-1 text-2xl font-semibold tracking-tight">{t('trash.title', { entity: other })}</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
            {query.data ? t('trash.count', { count: query.data.totalElements }) : t('trash.intro')}
          </p>
        </div>
        <ListSearchBox label={t('list.search', { entity: other })} value={searchText} onChange={setSearchText} isBusy={query.isFetching && !query.isPending} />
      </header>

      {query.isError && <Banner kind="error">{errorText(t, query.error)}</Banner>}
      {failure && (
        <Banner
          kind="error"
          onDismiss={() => {
            restore.reset()
            purge.reset()
          }}
          dismissLabel={t('common.dismiss')}
        >
          {errorText(t, failure)}
        </Banner>
      )}

      <TableFrame
        isBusy={query.isFetching}
        label={t('trash.title', { entity: other })}
        above={
          selection.size > 0 && (
            <div className="flex flex-wrap items-center justify-between gap-3 border-b border-indigo-100 bg-indigo-50 px-4 py-2 text-sm dark:border-indigo-900 dark:bg-indigo-950/50">
              <span className="font-medium text-indigo-900 dark:text-indigo-200">{t('list.selected', { count: selection.size })}</span>
              <div className="flex flex-wrap gap-2">
                <button type="button" disabled={isBusy} onClick={() => restore.mutate([...selection])} className={`${rowButton} text-indigo-700 hover:bg-indigo-100 dark:text-indigo-300 dark:hover:bg-indigo-900`}>
                  {t('trash.restore_selected')}
                </button>
                {canPurge && (
                  <button type="button" disabled={isBusy} onClick={() => setPurging([...selection])} className={`${rowButton} text-red-700 hover:bg-red-100 dark:text-red-300 dark:hover:bg-red-950`}>
                    {t('trash.purge_selected')}
                  </button>
                )}
              </div>
            </div>
          )
        }
        below={
          <>
            {!query.isPending && !query.isError && rows.length === 0 && (
              <div className="flex flex-col items-center gap-3 px-6 py-16 text-center">
                <div className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-400 dark:bg-slate-800">
                  <Icon name={q ? 'search' : 'trash'} className="size-6" />
                </div>
                <p className="font-medium">{q ? t('list.empty_search', { text: q }) : t('trash.empty')}</p>
              </div>
            )}
            <Pagination
              paging={{
                page: shownPage,
                size,
                totalElements: query.data?.totalElements ?? 0,
                totalPages,
                setSize: (n) => {
                  setSize(n)
                  setPage(1)
                },
                goToPage: (n) => setPage(Math.min(Math.max(1, n), totalPages)),
              }}
              sizes={pageSizes}
            />
          </>
        }
        head={
          <tr>
            <th scope="col" className="w-12 px-4 py-3">
              <input
                type="checkbox"
                className={checkboxClass}
                checked={isAllSelected}
                disabled={rows.length === 0}
                onChange={() => setSelection(isAllSelected ? new Set() : new Set(rows.map((r) => r.id)))}
                aria-label={t('list.select_all')}
              />
            </th>
            <th scope="col" className="px-4 py-3 text-start">
              {t('trash.record')}
            </th>
            <th scope="col" className="whitespace-nowrap px-4 py-3 text-start">
              {t('trash.deleted_at')}
            </th>
            <th scope="col" className="whitespace-nowrap px-4 py-3 text-start">
              {t('trash.deleted_by')}
            </th>
            <th scope="col" className={`w-16 px-4 py-3 text-end ${pinnedHeaderCell}`}>
              <span className="sr-only">{t('list.actions')}</span>
            </th>
          </tr>
        }
      >
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {query.isPending && <SkeletonRows columns={5} />}
          {rows.map((row) => (
            <TrashTableRow
              key={row.id}
              row={row}
              label={titleOf(entity, row)}
              when={format.dateTime(row.deleted_at)}
              isSelected={selection.has(row.id)}
              isBusy={isBusy}
              canPurge={canPurge}
              onToggle={() => toggle(row.id)}
              onRestore={() => restore.mutate([row.id])}
              onPurge={() => setPurging([row.id])}
            />
          ))}
        </tbody>
      </TableFrame>

      <ConfirmDialog
        isOpen={purging !== null}
        title={t('trash.confirm_purge_title')}
        confirmLabel={t('trash.purge')}
        cancelLabel={t('common.cancel')}
        isBusy={purge.isPending}
        onConfirm={() => purging && purge.mutate(purging)}
        onCancel={() => setPurging(null)}
      >
        <p>{t('trash.confirm_purge_text', { count: purging?.length ?? 0, entity: nameOf(purging?.length ?? 0) })}</p>
      </ConfirmDialog>
    </div>
  )
}

function TrashTableRow({
  row,
  label,
  when,
  isSelected,
  isBusy,
  canPurge,
  onToggle,
  onRestore,
  onPurge,
}: {
  row: TrashRow
  label: string
  when: string
  isSelected: boolean
  isBusy: boolean
  canPurge: boolean
  onToggle: () => void
  onRestore: () => void
  onPurge: () => void
}) {
  const { t } = useTranslation()
  return (
    <tr aria-selected={isSelected} className="group hover:bg-slate-50 aria-selected:bg-indigo-50/60 dark:hover:bg-slate-800/60 dark:aria-selected:bg-indigo-950/30">
      <td className="px-4 py-3">
        <input type="checkbox" className={checkboxClass} checked={isSelected} onChange={onToggle} aria-label={t('list.select_row', { label })} />
      </td>
      <td className="px-4 py-3 font-medium text-slate-900 dark:text-slate-100">{label}</td>
      <td className="whitespace-nowrap px-4 py-3 tabular-nums text-slate-600 dark:text-slate-300">
        <time dateTime={row.deleted_at}>{when}</time>
      </td>
      <td className="px-4 py-3 text-slate-600 dark:text-slate-300">{row.deleted_by ?? '—'}</td>
      <td className={`px-4 py-3 ${pinnedCell}`}>
        <div className="flex items-center justify-end gap-1">
          <button type="button" disabled={isBusy} onClick={onRestore} aria-label={t('trash.restore_row', { label })} className={`${rowButton} whitespace-nowrap text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950`}>
            {t('trash.restore')}
          </button>
          {canPurge && (
            <button
              type="button"
              disabled={isBusy}
              onClick={onPurge}
              aria-label={t('trash.purge_row', { label })}
              className="rounded-md p-1.5 text-slate-400 hover:bg-red-50 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-red-500 disabled:opacity-50 dark:hover:bg-red-950 dark:hover:text-red-400"
            >
              <Icon name="trash" className="size-4.5" />
            </button>
          )}
        </div>
      </td>
    </tr>
  )
}
