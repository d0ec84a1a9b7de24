import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../../engine/api'
import { todayIso } from '../../../schema/kit/dates'

/**
 * `GET /api/quick-panel/data` (spec §7): today's date, record counts per list key and the
 * latest changes from the audit log.
 */
export const QUICK_PANEL_PATH = '/api/quick-panel/data'

export const quickPanelKey = ['quick-panel'] as const

export type QuickPanelActivity = { id: number; at: string; actor: string; entity: string; entity_id: number | null; action: string }

export type QuickPanelData = { date: string; counts: Record<string, number>; recent: QuickPanelActivity[] }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Takes what it can use from the answer; anything malformed is left out rather than shown wrong. */
export function quickPanelDataOf(body: unknown): QuickPanelData {
  const value = isRecord(body) ? body : {}
  const counts: Record<string, number> = {}
  if (isRecord(value.counts)) for (const [key, n] of Object.entries(value.counts)) if (typeof n === 'number' && Number.isFinite(n)) counts[key] = n
  const recent = Array.isArray(value.recent)
    ? value.recent.flatMap((row): QuickPanelActivity[] =>
        isRecord(row) && typeof row.at === 'string' && typeof row.entity === 'string' && typeof row.action === 'string'
          ? [
              {
                id: typeof row.id === 'number' ? row.id : 0,
                at: row.at,
                actor: typeof row.actor === 'string' ? row.actor : '',
                entity: row.entity,
                entity_id: typeof row.entity_id === 'number' ? row.entity_id : null,
                action: row.action,
              },
            ]
          : [],
      )
    : []
  return { date: typeof value.date === 'string' ? value.date : todayIso(), counts, recent }
}

/** The panel's content; the dashboard reads its counts from the same answer (one request for every list). */
export function useQuickPanelData(options: { refetchOnMount?: boolean | 'always' } = {}) {
  return useQuery({
    queryKey: quickPanelKey,
    queryFn: async ({ signal }) => quickPanelDataOf(await apiRequest(QUICK_PANEL_PATH, { signal })),
    staleTime: 15_000,
    ...options,
  })
}
