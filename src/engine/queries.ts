import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query'
import { isApiError } from './api'
import { fetchDeleteImpact, fetchList, fetchOptions, fetchRecord, type AnyEntity, type DeleteImpact, type ListPage, type ListParams, type OptionFilters, type Row } from './entity-api'

/**
 * Query keys and hooks shared by every screen. Everything about an entity lives under
 * `['entity', name]`, so one invalidation after a write refreshes its lists, records and the
 * selects that point at it. (Record counts come all at once with the quick panel's data.)
 */
export const entityKeys = {
  all: (name: string) => ['entity', name] as const,
  list: (name: string, params: ListParams) => ['entity', name, 'list', params] as const,
  record: (name: string, id: number | string) => ['entity', name, 'record', String(id)] as const,
  options: (name: string, text: string) => ['entity', name, 'options', text] as const,
  deleteImpact: (name: string, target: number | readonly number[]) => ['entity', name, 'delete_impact', target] as const,
}

/** Client errors (4xx) are answers, not glitches: they are not retried. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false
  return failureCount < 1
}

export function useEntityList(entity: AnyEntity, params: ListParams): UseQueryResult<ListPage> {
  return useQuery({
    queryKey: entityKeys.list(entity.name, params),
    queryFn: ({ signal }) => fetchList(entity, params, signal),
    placeholderData: keepPreviousData,
  })
}

export function useEntityRecord(entity: AnyEntity, id: number | string | null): UseQueryResult<Row> {
  return useQuery({
    queryKey: entityKeys.record(entity.name, id ?? ''),
    queryFn: ({ signal }) => fetchRecord(entity, id!, signal),
    enabled: id !== null && id !== '',
    staleTime: 60_000,
  })
}

/** Lookup lists for reference selects are cached for a while: they change rarely. */
export function useEntityOptions(entity: AnyEntity, text: string, size = 20, filters: OptionFilters = {}): UseQueryResult<Row[]> {
  const where = new URLSearchParams(Object.entries(filters).map(([k, v]) => [k, String(v)])).toString()
  return useQuery({
    queryKey: entityKeys.options(entity.name, `${text.trim()}|${size}${where ? `|${where}` : ''}`),
    queryFn: ({ signal }) => fetchOptions(entity, text, size, signal, filters),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  })
}

/** What deleting these records would do, asked each time the confirmation opens (others may have changed things since). */
export function useDeleteImpact(entity: AnyEntity, target: number | readonly number[] | null): UseQueryResult<DeleteImpact> {
  return useQuery({
    queryKey: entityKeys.deleteImpact(entity.name, target ?? []),
    queryFn: ({ signal }) => fetchDeleteImpact(entity, target!, signal),
    enabled: target !== null,
    staleTime: 0,
    gcTime: 0,
  })
}
