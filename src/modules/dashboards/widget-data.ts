import { useIsFetching, useQuery } from '@tanstack/react-query'
import { DASHBOARD_API, type ChartPoint, type Widget, type WidgetData } from '../../../schema/kit/widget'
import { apiRequest } from '../../engine/api'
import { navigationKey } from '../../shell/useNavigation'

/**
 * A dashboard's data: every widget its user may read, in one request
 * (`GET /dashboard/api/v1/widgets/?dashboard=…`), asked once the navigation has come — the
 * menu is what a user needs first (issue 20) — and kept a minute.
 */
export type Period = { date_after?: string; date_before?: string }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Takes what a widget of its kind can draw; anything malformed becomes empty rather than wrong. */
export function widgetDataOf(widget: Widget, raw: unknown): WidgetData {
  const value = isRecord(raw) ? raw : {}
  if (widget.kind === 'figure') return { count: typeof value.count === 'number' ? value.count : 0, amount: typeof value.amount === 'string' ? value.amount : null }
  if (widget.kind === 'list') return { rows: Array.isArray(value.rows) ? value.rows.filter(isRecord) : [] }
  const points = Array.isArray(value.points) ? value.points.filter(isRecord) : []
  return {
    points: points.map(
      (p): ChartPoint => ({ label: String(p.label ?? ''), value: typeof p.value === 'number' || typeof p.value === 'string' ? p.value : 0, key: typeof p.key === 'string' || typeof p.key === 'number' ? p.key : null, translate: p.translate === true }),
    ),
  }
}

export function useWidgetData(dashboard: Widget['dashboard'], period: Period) {
  const navigating = useIsFetching({ queryKey: navigationKey })
  return useQuery({
    queryKey: ['dashboard', dashboard, period.date_after ?? null, period.date_before ?? null],
    queryFn: async () => {
      const body = await apiRequest(`${DASHBOARD_API}/widgets/`, { searchParams: { dashboard, ...period } })
      return isRecord(body) && isRecord(body.widgets) ? body.widgets : {}
    },
    enabled: navigating === 0,
    staleTime: 60_000,
  })
}
