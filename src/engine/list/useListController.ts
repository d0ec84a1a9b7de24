import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useState } from 'react'
import { deleteRecord, deleteRecords, labelOf, type AnyEntity, type ListParams, type Row } from '../entity-api'
import { entityKeys, useEntityList } from '../queries'
import { showAlert } from '../ui/notifications'
import { useDebouncedValue } from '../useDebouncedValue'

/**
 * The headless list (ra-core's list controller): server paging 30/50/100, search through
 * the contract's `search/?<first search field>=`, ordering from header clicks, selection,
 * single and bulk delete with a confirmation step. The view only renders this state.
 */
export const pageSizes = [30, 50, 100] as const
export const isPageSize = (n: number): n is PageSize => (pageSizes as readonly number[]).includes(n)
export type PageSize = (typeof pageSizes)[number]
export const SEARCH_DEBOUNCE_MS = 300

export type SortDirection = 'asc' | 'desc'

/** What the confirmation dialog asks about. */
export type PendingDelete = { kind: 'one'; row: Row; label: string } | { kind: 'many'; ids: readonly number[] }

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
  const queryClient = useQueryClient()
  const [page, setPage] = useState(1)
  const [size, setSizeState] = useState<PageSize>(30)
  const [searchText, setSearchTextState] = useState('')
  const [ordering, setOrdering] = useState('')
  const [selection, setSelection] = useState<ReadonlySet<number>>(() => new Set())
  const [pendingDelete, setPendingDelete] = useState<PendingDelete | null>(null)
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS)

  // The page and selection restart whenever what is listed changes.
  const [listedSearch, setListedSearch] = useState(search)
  if (listedSearch !== search) {
    setListedSearch(search)
    setPage(1)
    setSelection(new Set())
  }

  const params: ListParams = useMemo(
    () => ({ page, size, ...(ordering ? { ordering } : {}), ...(search ? { search } : {}) }),
    [page, size, ordering, search],
  )
  const query = useEntityList(entity, params)
  const data = query.data
  const rows: readonly Row[] = data?.rows ?? noRows
  // The server clamps a page past the end; show the page it actually returned.
  const shownPage = data?.page ?? page
  const totalPages = Math.max(1, data?.totalPages ?? 1)

  const invalidate = useCallback(() => queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) }), [queryClient, entity.name])

  const deleteOne = useMutation({
    mutationFn: (id: number) => deleteRecord(entity, id),
    onSuccess: (detail, id) => {
      showAlert({ kind: 'success', ...(detail ? { text: detail } : { key: 'list.deleted' }) })
      setSelection((s) => {
        const next = new Set(s)
        next.delete(id)
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
    onSuccess: (detail) => {
      showAlert({ kind: 'success', ...(detail ? { text: detail } : { key: 'list.deleted' }) })
      setSelection(new Set())
      setPendingDelete(null)
      return invalidate()
    },
    onError: () => setPendingDelete(null),
  })

  const changeListing = (apply: () => void) => {
    apply()
    setPage(1)
    setSelection(new Set())
  }

  const isAllSelected = rows.length > 0 && rows.every((r) => selection.has(r.id))

  return {
    entity,
    query,
    rows,
    page: shownPage,
    size,
    totalPages,
    totalElements: data?.totalElements ?? 0,
    searchText,
    search,
    ordering,
    selection,
    isAllSelected,
    pendingDelete,
    deleteError: deleteOne.error ?? deleteMany.error,
    isDeleting: deleteOne.isPending || deleteMany.isPending,

    setSearchText: setSearchTextState,
    setSize: (next: PageSize) => changeListing(() => setSizeState(next)),
    goToPage: (next: number) => {
      setPage(Math.min(Math.max(1, next), totalPages))
      setSelection(new Set())
    },
    toggleSort: (field: string) => changeListing(() => setOrdering((current) => nextOrdering(current, field))),
    sortDirection: (field: string) => directionOf(ordering, field),
    serialOf: (index: number) => serialNumber(shownPage, size, index),

    toggleRow: (id: number) =>
      setSelection((s) => {
        const next = new Set(s)
        if (next.has(id)) next.delete(id)
        else next.add(id)
        return next
      }),
    toggleAll: () => setSelection(isAllSelected ? new Set() : new Set(rows.map((r) => r.id))),

    askDelete: (row: Row) => {
      deleteOne.reset()
      deleteMany.reset()
      setPendingDelete({ kind: 'one', row, label: labelOf(entity, row) })
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
      if (pendingDelete.kind === 'one') deleteOne.mutate(pendingDelete.row.id)
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
