import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SavedViewState } from '../../../schema/kit/list-view'
import { createRecord, deleteRecord, fetchList, fetchRecord, updateRecord, type AnyEntity, type Row } from '../entity-api'
import { useEntities } from '../entities-context'
import { entityKeys } from '../queries'

/**
 * Saved views of a list (the registry's `saved_view`, schema/entities/workspace/saved-view.ts):
 * read and written through its generic routes like any entity's records — the server keeps to
 * each caller their own views and those shared with their role. Absent from a registry
 * without it: the screens then offer no views.
 */
export const SAVED_VIEW = 'saved_view'

export type SavedView = {
  id: number
  name: string
  list: string
  state: SavedViewState
  /** Shared with this role (its name as the list rows nest it), or with no one. */
  role: { id: number; name: string } | null
  owner: { id: number; name: string } | null
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
/** A reference as a list row nests it (`{id, name}`) or as a record holds it (an id, its name in `_labels`). */
function refOf(row: Row, field: string): { id: number; name: string } | null {
  const value = row[field]
  if (isRecord(value) && typeof value.id === 'number') return { id: value.id, name: String(value.name ?? '') }
  const labels = isRecord(row._labels) ? row._labels : {}
  return typeof value === 'number' ? { id: value, name: typeof labels[field] === 'string' ? labels[field] : `#${value}` } : null
}

/** A row of the server as a saved view; the server judged its state, this only keeps to its shape. */
export function savedViewOf(row: Row): SavedView {
  return { id: row.id, name: String(row.name ?? ''), list: String(row.list ?? ''), state: isRecord(row.state) ? (row.state as SavedViewState) : {}, role: refOf(row, 'role'), owner: refOf(row, 'owner') }
}

/** The registry's saved-view entity, when it has one. */
export function useSavedViewEntity(): AnyEntity | undefined {
  return useEntities().find((e) => e.name === SAVED_VIEW)
}

/** At most this many views of one list are listed (a person keeps a few). */
const MAX_LISTED = 100

/** The views of a list the caller may see, by name; asked when the menu opens. */
export function useSavedViews(savedEntity: AnyEntity | undefined, list: string, isEnabled: boolean) {
  return useQuery({
    queryKey: [...entityKeys.all(SAVED_VIEW), 'of-list', list],
    queryFn: async ({ signal }) => {
      // `list` is searched as text (contains): the views of exactly this list are kept.
      const page = await fetchList(savedEntity!, { page: 1, size: MAX_LISTED, ordering: 'name', filters: { list } }, signal)
      return page.rows.map(savedViewOf).filter((v) => v.list === list)
    },
    enabled: isEnabled && savedEntity !== undefined,
  })
}

/** One saved view (a link's `?saved=<id>`); an error when the caller may not see it. */
export function useSavedView(savedEntity: AnyEntity | undefined, id: number | undefined) {
  return useQuery({
    queryKey: entityKeys.record(SAVED_VIEW, id ?? ''),
    queryFn: async ({ signal }) => savedViewOf(await fetchRecord(savedEntity!, id!, signal)),
    enabled: savedEntity !== undefined && id !== undefined,
    staleTime: 60_000,
    retry: false,
  })
}

export type SavedViewInput = { name?: string; state?: SavedViewState; role?: number | null }

/** Save, change and delete views; each refreshes the lists of views. */
export function useSavedViewWrites(savedEntity: AnyEntity | undefined, list: string) {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: entityKeys.all(SAVED_VIEW) })
  const create = useMutation({
    mutationFn: async (input: Required<Pick<SavedViewInput, 'name' | 'state'>> & SavedViewInput) => savedViewOf(await createRecord(savedEntity!, { ...input, list })),
    onSuccess: refresh,
  })
  const update = useMutation({
    mutationFn: async ({ id, ...input }: SavedViewInput & { id: number }) => savedViewOf(await updateRecord(savedEntity!, id, input)),
    onSuccess: refresh,
  })
  const remove = useMutation({
    mutationFn: (id: number) => deleteRecord(savedEntity!, id),
    onSuccess: refresh,
  })
  return { create, update, remove }
}
