import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isDeletableRow, isEditableIn } from '../../../schema/kit'
import { useFormat } from '../../i18n/useFormat'
import { useAccess } from '../access-context'
import { apiRequest } from '../api'
import { deleteRecord, deleteRecords, titleOf, type AnyEntity, type ListParams, type Row } from '../entity-api'
import { entityKeys, useEntityList } from '../queries'
import { showAlert } from '../ui/notifications'
import { offerUndoDelete } from '../trash/trash-api'
import { useDebouncedValue } from '../useDebouncedValue'
import { useListLayout } from './column-layout'
import { rememberListOrigin, rememberListView } from './list-return'
import { useSavedViewLink } from './useSavedViewLink'
import {
  ALL_ROWS,
  ALL_ROWS_MAX,
  allRowsRequestOf,
  filterParamsOf,
  listParamsOf,
  listViewOf,
  searchOfView,
  withFilters,
  type FilterParam,
  type ListSize,
  type ListView,
} from '../../../schema/kit/list-view'

export { ALL_ROWS, ALL_ROWS_MAX, isPageSize, pageSizes, type ListSize, type PageSize } from '../../../schema/kit/list-view'

/**
 * The headless list (ra-core's list controller): its view — page, rows per page (30/50/100,
 * or "All" up to 10,000 rows), order, search text, filters and the saved view it was opened
 * with — lives in the address, so opening a record and coming back, Back, a reload or a
 * shared link show the same rows; its columns and density (column-layout.ts), kept per user;
 * selection — of rows, or of every row of the list — and single and bulk delete with a
 * confirmation that says first what the delete would do. The view only renders this state.
 */
export const SEARCH_DEBOUNCE_MS = 300

export type SortDirection = 'asc' | 'desc'

/** What a bulk action applies to: the selected rows, or every row of the list as filtered (Gmail's "Select all N"). */
export type BulkTarget = { kind: 'ids'; ids: number[] } | { kind: 'filter'; params: ListParams; count: number }

/** The most ids a bulk request names (the server's MAX_IDS): past it, every row of the list goes as its filter. */
export const MAX_BULK_IDS = 1000

/** Why "All" rows cannot be shown: the entity serves no unpaged list, or the list holds more than ALL_ROWS_MAX. */
export type AllRowsRefusal = 'unavailable' | 'too_many' | null

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

/** Every row of a list ("All"), at most ALL_ROWS_MAX: `without_pagination/all/` with a limit (schema/kit/list-view.ts). */
async function fetchAllRows(entity: AnyEntity, params: ListParams, signal: AbortSignal): Promise<Row[]> {
  const request = allRowsRequestOf(entity, params)!
  const body = await apiRequest(request.path, { searchParams: request.searchParams, signal })
  const rows = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[entity.listKey] : undefined
  return Array.isArray(rows) ? rows.filter((r): r is Row => typeof r === 'object' && r !== null && typeof (r as Row).id === 'number') : []
}

export function useListController(entity: AnyEntity) {
  const { t } = useTranslation()
  const format = useFormat()
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

  const access = useAccess()
  // By permission, or to their own rows by the entity's `own` (the server lists them theirs alone).
  const canDelete = access.canDo(entity, 'DELETE') && entity.routes.delete !== false
  const canBulkDelete = canDelete && entity.routes.delete_multiple !== false
  const canBulkUpdate = access.canDo(entity, 'UPDATE') && entity.routes.update !== false
  /** Rows are selected for what may be done to several at once: deleting them, or changing them (SelectionTools). */
  const canSelect = canBulkDelete || canBulkUpdate

  // The selection is of the rows shown: it empties whenever another view is listed.
  const [selection, setSelection] = useState<ReadonlySet<number>>(() => new Set())
  const [isAllMatching, setIsAllMatching] = useState(false)
  const [listedKey, setListedKey] = useState(searchKey)
  if (listedKey !== searchKey) {
    setListedKey(searchKey)
    setSelection(new Set())
    setIsAllMatching(false)
  }
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null)

  const layout = useListLayout(entity)
  const params: ListParams = useMemo(() => listParamsOf(view), [view])
  const query = useEntityList(entity, params)
  const data = query.data

  // "All": the first page says how many rows there are; up to ALL_ROWS_MAX are then asked at once.
  const isAll = view.size === ALL_ROWS
  const canAskAll = allRowsRequestOf(entity, params) !== undefined
  const count = data && !query.isPlaceholderData ? data.totalElements : undefined
  const countRefusal: AllRowsRefusal = !canAskAll ? 'unavailable' : (data?.totalElements ?? 0) > ALL_ROWS_MAX ? 'too_many' : null
  const allQuery = useQuery({
    queryKey: [...entityKeys.all(entity.name), 'all-rows', params],
    queryFn: ({ signal }) => fetchAllRows(entity, params, signal),
    enabled: isAll && canAskAll && count !== undefined && count <= ALL_ROWS_MAX,
    placeholderData: keepPreviousData,
  })
  // "More than N" (a search the server counted only so far) says too little: as many rows as "All" may ask came back, so there may be more.
  const allRefusal: AllRowsRefusal = countRefusal ?? (data?.totalIsLowerBound && (allQuery.data?.length ?? 0) >= ALL_ROWS_MAX ? 'too_many' : null)
  const showsAll = isAll && allRefusal === null && allQuery.data !== undefined
  const rows: readonly Row[] = (showsAll ? allQuery.data : data?.rows) ?? noRows
  // The server clamps a page past the end; show the page it actually returned.
  const shownPage = isAll ? 1 : (data?.page ?? view.page)
  const pageSize = typeof view.size === 'number' ? view.size : Math.max(rows.length, 1)
  const totalPages = isAll ? 1 : Math.max(1, data?.totalPages ?? 1)
  const totalElements = data?.totalElements ?? 0

  // A link to "All" of a list that holds more says so and shows pages instead.
  useEffect(() => {
    if (!isAll || count === undefined || allRefusal === null) return
    showAlert({ kind: 'warning', key: allRefusal === 'too_many' ? 'list.all_too_many' : 'list.all_unavailable', params: { max: format.integer(ALL_ROWS_MAX) } })
    show({ ...viewNow.current, size: 100, page: 1 }, { replace: true })
  }, [isAll, count, allRefusal, show, format])

  const savedLink = useSavedViewLink(entity, view, layout, show)

  const invalidate = useCallback(() => queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) }), [queryClient, entity.name])
  const one = t(`${entity.labelKey}.one`)

  const deleteOne = useMutation({
    mutationFn: (row: Row) => deleteRecord(entity, row.id),
    onSuccess: (answer, row) => {
      // What went to the Trash says so, and can come back at once; otherwise the screen's own words, with the record's name.
      if (entity.trash && answer.batch) offerUndoDelete(entity, answer.batch, 1, { onRestored: invalidate })
      else showAlert({ kind: 'success', key: 'list.deleted_record', params: { entity: one, label: titleOf(entity, row) } })
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
    onSuccess: (answer, ids) => {
      const other = t(`${entity.labelKey}.other`)
      if (entity.trash && answer.batch) offerUndoDelete(entity, answer.batch, ids.length, { onRestored: invalidate })
      else showAlert({ kind: 'success', key: 'list.deleted_records', params: { count: ids.length, entity: ids.length === 1 ? one : other, one, other } })
      setSelection(new Set())
      setIsAllMatching(false)
      setPendingDelete(null)
      return invalidate()
    },
    onError: () => setPendingDelete(null),
  })

  // Built-in rows (the ADMIN role) cannot be deleted: they are never selected for it; a row its
  // status locks (a confirmed order) is selected for nothing.
  const selectable = useMemo(() => rows.filter((r) => (canBulkDelete ? isDeletableRow(entity, r) : isEditableIn(entity, r))), [rows, entity, canBulkDelete])
  const isAllSelected = selectable.length > 0 && selectable.every((r) => selection.has(r.id))
  const activeFilters: ActiveFilter[] = filterParams.flatMap((p) => (view.filters[p.param] !== undefined ? [{ ...p, value: view.filters[p.param]! }] : []))
  /** More rows in the list than on the page, every one of the page selected: Gmail's "Select all N rows of this list". */
  // Not when the total is a lower bound (a broad search): "all N" would not be N, and a change of more than one knows is no change to offer.
  const canSelectAllMatching = canSelect && !isAll && isAllSelected && totalElements > rows.length && data?.totalIsLowerBound !== true
  const listTarget = { kind: 'filter' as const, params, count: totalElements }
  // Every row of "All" selected, past what one request may name: the list goes as its filter.
  const isWholeList = isAllMatching || (isAll && isAllSelected && selection.size > MAX_BULK_IDS && selection.size >= totalElements)
  const bulkTarget: BulkTarget | null = isWholeList ? listTarget : selection.size > 0 ? { kind: 'ids', ids: [...selection] } : null
  const clearSelection = () => {
    setSelection(new Set())
    setIsAllMatching(false)
  }

  return {
    entity,
    query,
    /** The request of every row ("All"), once the count allows it. */
    allQuery,
    rows,
    view,
    /** What the list asks the server (its filters, search text and order): an export's, a bulk change's. */
    params,
    page: shownPage,
    size: pageSize,
    /** Rows per page as the address says: 30, 50, 100 or "all". */
    listSize: view.size as ListSize,
    isAll,
    /** Why "All" cannot be chosen now, or null. */
    allRefusal,
    isLoadingAll: isAll && allRefusal === null && (allQuery.isPending || allQuery.isPlaceholderData),
    totalPages,
    totalElements,
    /** The list holds more than `totalElements`: said "more than". */
    totalIsLowerBound: data?.totalIsLowerBound === true,
    searchText,
    search: view.q,
    ordering: view.ordering,
    filterParams,
    activeFilters,

    layout,
    /** The columns shown, in their order (the export's columns). */
    visibleColumns: layout.visibleColumns,
    savedLink,

    canSelect,
    canDelete,
    canBulkDelete,
    canBulkUpdate,
    selection,
    isAllSelected,
    /** Every row of the list is the target, not just those selected on the page. */
    isAllMatching: isWholeList,
    canSelectAllMatching: canSelectAllMatching && !isAllMatching,
    bulkTarget,
    pendingDelete,
    deleteError: deleteOne.error ?? deleteMany.error,
    isDeleting: deleteOne.isPending || deleteMany.isPending,

    setSearchText,
    setSize: (next: ListSize) => show({ ...view, size: next, page: 1 }),
    goToPage: (next: number) => show({ ...view, page: Math.min(Math.max(1, next), totalPages) }),
    toggleSort: (field: string) => show({ ...view, ordering: nextOrdering(view.ordering, field), page: 1 }),
    sortDirection: (field: string) => directionOf(view.ordering, field),
    serialOf: (index: number) => serialNumber(shownPage, pageSize, index),
    /** Sets filter parameters (an empty value removes one); the list starts again at its first page. */
    setFilters: (filters: Readonly<Record<string, string | undefined>>) => show(withFilters(view, filters)),
    removeFilter: (param: string) => show(withFilters(view, { [param]: undefined })),
    clearFilters: () => show({ ...view, filters: {}, page: 1 }),
    /** Shows another list state (a saved view applied). */
    show,

    toggleRow: (id: number) => {
      setIsAllMatching(false)
      setSelection((s) => {
        const next = new Set(s)
        if (next.has(id)) next.delete(id)
        else next.add(id)
        return next
      })
    },
    toggleAll: () => {
      setIsAllMatching(false)
      setSelection(isAllSelected ? new Set() : new Set(selectable.map((r) => r.id)))
    },
    selectAllMatching: () => setIsAllMatching(true),
    clearSelection,
    hasSelectable: selectable.length > 0,

    askDelete: (row: Row) => {
      deleteOne.reset()
      deleteMany.reset()
      setPendingDelete({ kind: 'one', row, label: titleOf(entity, row) })
    },
    askDeleteSelected: () => {
      deleteOne.reset()
      deleteMany.reset()
      if (selection.size > 0 && !isWholeList) setPendingDelete({ kind: 'many', ids: [...selection] })
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
