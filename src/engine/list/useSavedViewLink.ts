import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { DEFAULT_PAGE_SIZE, viewOfSavedState, type ListView } from '../../../schema/kit/list-view'
import type { AnyEntity } from '../entity-api'
import { entityKeys } from '../queries'
import type { ListLayout } from './column-layout'
import { SAVED_VIEW, useSavedView, useSavedViewEntity, type SavedView } from './saved-views'

/** Whether the address says nothing of the list but the saved view (`?saved=5` typed or cut short). */
const isBare = (view: ListView) => view.q === '' && view.ordering === '' && Object.keys(view.filters).length === 0 && view.size === DEFAULT_PAGE_SIZE && view.page === 1

/**
 * A list opened with a saved view (`?saved=<id>`, its state beside it in the address: a link
 * anyone it is shared with can open): the view is read, its columns and density applied once
 * — and its search, order, filters and rows per page too when the address carries none. A
 * view the opener may not see (not theirs, not shared with their role, deleted) is said so.
 */
export function useSavedViewLink(entity: AnyEntity, view: ListView, layout: ListLayout, show: (next: ListView, options?: { replace?: boolean }) => void) {
  const queryClient = useQueryClient()
  const savedEntity = useSavedViewEntity()
  const query = useSavedView(savedEntity, view.saved)
  const applied = useRef<number | undefined>(undefined)
  const current = query.data !== undefined && query.data.id === view.saved ? query.data : undefined

  useEffect(() => {
    if (!current || applied.current === current.id) return
    applied.current = current.id
    layout.apply(current.state)
    if (isBare(view)) show(viewOfSavedState(entity, current.state, current.id), { replace: true })
  }, [current, layout, view, entity, show])

  return {
    /** Whether the registry keeps saved views (the menu is offered). */
    isAvailable: savedEntity !== undefined,
    savedEntity,
    /** The saved view the list was opened with, once read. */
    current,
    /** The address names a view the caller cannot open (`query.error` says why). */
    isMissing: view.saved !== undefined && query.isError,
    error: query.error,
    /** Shows a saved view: its list state in the address (a new history entry), its columns and density. */
    apply: (saved: SavedView) => {
      queryClient.setQueryData(entityKeys.record(SAVED_VIEW, saved.id), saved)
      applied.current = saved.id
      layout.apply(saved.state)
      show(viewOfSavedState(entity, saved.state, saved.id))
    },
    /** The list without the saved view it named (after it was deleted, or could not be opened). */
    forget: () => {
      applied.current = undefined
      show({ ...view, saved: undefined }, { replace: true })
    },
    /** The list as it is, now said to be this view (just saved). */
    adopt: (saved: SavedView) => {
      queryClient.setQueryData(entityKeys.record(SAVED_VIEW, saved.id), saved)
      applied.current = saved.id
      show({ ...view, saved: saved.id }, { replace: true })
    },
  }
}

export type SavedViewLink = ReturnType<typeof useSavedViewLink>
