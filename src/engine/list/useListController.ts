import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isDeletableRow } from '../../../schema/kit'
import { deleteRecord, deleteRecords, titleOf, type AnyEntity, type ListParams, type Row } from '../entity-api'
import { entityKeys, useEntityList } from '../queries'
import { showAlert } from '../ui/notifications'
import { useDebouncedValue } from '../useDebouncedValue'
import { rememberListOrigin, rememberListView } from './list-return'
import { filterParamsOf, listParamsOf, listViewOf, searchOfView, withFilters, type FilterParam, type ListView, type PageSize } from '../../../schema/kit/list-view'

export { isPageSize, pageSizes, type PageSize } from '../../../schema/kit/list-view'

/**
 * The headless list (ra-core's list controller): its view — page, rows per page (30/50/100),
 * order, search text and filters — lives in the address, so opening a record and coming
 * back, Back, a reload or a shared link show the same rows; selection, and single and bulk
 * delete with a confirmation that says first what the delete would do. The view only
 * renders this state.
 */
export const SEARCH_DEBOUNCE_MS = 300

export type SortDirection = 'asc' | 'desc'

/** What the confirmation dialog asks about. */
export type PendingDelete = { kind: 'one'; row: Row; label: string } | { kind: 'many'; ids: readonly number[] }

/** A filter in force, as its chip shows it. */
export type ActiveFilter = FilterParam & { value: string }

/** Header clicks cycle a column: ascending → descending → the entity's default order. */
export function nextOrdering(current: string, field: string): string {
  if (current === field) return `-${field}`
  if (current === `-${field}`) return ''
  return field
}

export function directionOf(ordering: string, field: string): SortDirection | null {
  if (ordering === field) return 'asc'
  if (ordering === `-${field}`) return 'desc'
  return null
}

/** Spec: serial = page·size − size + index (+1 so the first row is 1). */
export function serialNumber(page: number, size: number, index: number): number {
  return page * size - size + index + 1
}

export function useListController(entity: AnyEntity) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const address = useSearch({ strict: false }) as Record<string, unknown>
  const view = useMemo(() => listViewOf(entity, address), [entity, address])
  const search = useMemo(() => searchOfView(view), [view])
  const searchKey = JSON.stringify(search)
  const filterParams = useMemo(() => filterParamsOf(entity), [entity])

  // The form returns to the list as it was left (this one: a view of the entity, or its own list).
  useEffect(() => rememberListView(entity.ui.listPath, search), [entity.ui.listPath, searchKey])
  useEffect(() => rememberListOrigin(entity.name, entity.ui.listPath), [entity.name, entity.ui.listPath])

  const viewNow = useRef(view)
  viewNow.current = view
  /** Shows another view: a new entry in the history (Back returns to this one), or in place of it. */
  const show = useCallback(
    (next: ListView, options: { replace?: boolean } = {}) => void navigate({ to: entity.ui.listPath, search: searchOfView(next), replace: options.replace ?? false }),
    [navigate, entity.ui.listPath],
  )

  // The search box: what is typed reaches the address once typing pauses (in place of the
  // entry: one per search, not per key); an address changed otherwise (Back) refills the box.
  const [searchText, setSearchText] = useState(view.q)
  const typed = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS)
  useEffect(() => {
    if (typed !== viewNow.current.q) show({ ...viewNow.current, q: typed, page: 1 }, { replace: true })
  }, [typed, show])
  const [shownQ, setShownQ] = useState(view.q)
  if (shownQ !== view.q) {
    setShownQ(view.q)
    if (searchText.trim() !== view.q) setSearchText(view.q)
  }

  // The selection is of the rows shown: it empties whenever another view is listed.
  const [selection, setSelection] = useState<ReadonlySet<number>>(() => new Set())
  const [listedKey, setListedKey] = useState(searchKey)
  if (listedKey !== searchKey) {
    setListedKey(searchKey)
    setSelection(new Set())
  }
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null)

  const params: ListParams = useMemo(() => listParamsOf(view), [view])
  const query = useEntityList(entity, params)
  const data = query.data
  const rows: readonly Row[] = data?.rows ?? noRows
  // The server clamps a page past the end; show the page it actually returned.
  const shownPage = data?.page ?? view.page
  const totalPages = Math.max(1, data?.totalPages ?? 1)

  const invalidate = useCallback(() => queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) }), [queryClient, entity.name])
  const one = t(`${entity.labelKey}.one`)

  const deleteOne = useMutation({
    mutationFn: (row: Row) => deleteRecord(entity, row.id),
    onSuccess: (_detail, row) => {
      // The screen's own words, in the user's language, with the record's name.
      showAlert({ kind: 'success', key: 'list.deleted_record', params: { entity: one, label: titleOf(entity, row) } })
      setSelection((s) => {
        const next = new Set(s)
        next.delete(row.id)
        return next
      })
      setPendingDelete(null)
      return invalidate()
    },
    // The dialog closes and the list shows why (e.g. 409: a district still has police stations).
    onError: () => setPendingDelete(null),
  })

  const deleteMany = useMutation({
    mutationFn: (ids: readonly number[]) => deleteRecords(entity, ids),
    onSuccess: (_detail, ids) => {
      const other = t(`${entity.labelKey}.other`)
      showAlert({ kind: 'success', key: 'list.deleted_records', params: { count: ids.length, entity: ids.length === 1 ? one : other, one, other } })
      setSelection(new Set())
      setPendingDelete(null)
      return invalidate()
    },
    onError: () => setPendingDelete(null),
  })

  // Built-in rows (the ADMIN role) cannot be deleted: they are never selected for it.
  const selectable = useMemo(() => rows.filter((r) => isDeletableRow(entity, r)), [rows, entity])
  const isAllSelected = selectable.length > 0 && selectable.every((r) => selection.has(r.id))
  const activeFilters: ActiveFilter[] = filterParams.flatMap((p) => (view.filters[p.param] !== undefined ? [{ ...p, value: view.filters[p.param]! }] : []))

  return {
    entity,
    query,
    rows,
    view,
    page: shownPage,
    size: view.size,
    totalPages,
    totalElements: data?.totalElements ?? 0,
    searchText,
    search: view.q,
    ordering: view.ordering,
    filterParams,
    activeFilters,
    selection,
    isAllSelected,
    pendingDelete,
    deleteError: deleteOne.error ?? deleteMany.error,
    isDeleting: deleteOne.isPending || deleteMany.isPending,

    setSearchText,
    setSize: (next: PageSize) => show({ ...view, size: next, page: 1 }),
    goToPage: (next: number) => show({ ...view, page: Math.min(Math.max(1, next), totalPages) }),
    toggleSort: (field: string) => show({ ...view, ordering: nextOrdering(view.ordering, field), page: 1 }),
    sortDirection: (field: string) => directionOf(view.ordering, field),
    serialOf: (index: number) => serialNumber(shownPage, view.size, index),
    /** Sets filter parameters (an empty value removes one); the list starts again at its first page. */
    setFilters: (filters: Readonly<Record<string, string | undefined>>) => show(withFilters(view, filters)),
    removeFilter: (param: string) => show(withFilters(view, { [param]: undefined })),
    clearFilters: () => show({ ...view, filters: {}, page: 1 }),

    toggleRow: (id: number) =>
      setSelection((s) => {
        const next = new Set(s)
        if (next.has(id)) next.delete(id)
        else next.add(id)
        return next
      }),
    toggleAll: () => setSelection(isAllSelected ? new Set() : new Set(selectable.map((r) => r.id))),
    hasSelectable: selectable.length > 0,

    askDelete: (row: Row) => {
      deleteOne.reset()
      deleteMany.reset()
      setPendingDelete({ kind: 'one', row, label: titleOf(entity, row) })
    },
    askDeleteSelected: () => {
      deleteOne.reset()
      deleteMany.reset()
      if (selection.size > 0) setPendingDelete({ kind: 'many', ids: [...selection] })
    },
    cancelDelete: () => {
      setPendingDelete(null)
    },
    confirmDelete: () => {
      if (!pendingDelete) return
      if (pendingDelete.kind === 'one') deleteOne.mutate(pendingDelete.row)
      else deleteMany.mutate(pendingDelete.ids)
    },
    dismissDeleteError: () => {
      deleteOne.reset()
      deleteMany.reset()
    },
  }
}

const noRows: readonly Row[] = []

export type ListController = ReturnType<typeof useListController>
