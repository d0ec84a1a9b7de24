import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../../engine/api'
import { todayIso } from '../../../schema/kit/dates'

/**
 * `GET /api/quick-panel/data` (spec §7): today's date, record counts per list key, the
 * latest changes from the audit log, today's figures (each with the list it opens) and the
 * caller's newest unread notifications (issue 23).
 */
export const QUICK_PANEL_PATH = '/api/quick-panel/data'

export const quickPanelKey = ['quick-panel'] as const

export type QuickPanelActivity = { id: number; at: string; actor: string; entity: string; entity_id: number | null; action: string }

/** A figure of today: its key (`quick_panel.figure.<key>`), its count and the list it opens, filtered. */
export type QuickPanelFigure = { key: string; count: number; href: string }

/** An unread notification: `message` is an i18n key said with `params`. */
export type QuickPanelNotification = { id: number; kind: string; message: string; params: Record<string, unknown>; at: string }

export type QuickPanelData = { date: string; counts: Record<string, number>; recent: QuickPanelActivity[]; figures: QuickPanelFigure[]; notifications: QuickPanelNotification[] }

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
  const figures = Array.isArray(value.figures)
    ? value.figures.flatMap((f): QuickPanelFigure[] =>
        isRecord(f) && typeof f.key === 'string' && typeof f.count === 'number' && Number.isFinite(f.count) && typeof f.href === 'string' && f.href.startsWith('/')
          ? [{ key: f.key, count: f.count, href: f.href }]
          : [],
      )
    : []
  const notifications = Array.isArray(value.notifications)
    ? value.notifications.flatMap((n): QuickPanelNotification[] =>
        isRecord(n) && typeof n.id === 'number' && typeof n.message === 'string'
          ? [{ id: n.id, kind: typeof n.kind === 'string' ? n.kind : '', message: n.message, params: isRecord(n.params) ? n.params : {}, at: typeof n.at === 'string' ? n.at : '' }]
          : [],
      )
    : []
  return { date: typeof value.date === 'string' ? value.date : todayIso(), counts, recent, figures, notifications }
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
