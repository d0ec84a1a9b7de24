import { useTranslation } from 'react-i18next'
import type { ChartData, Widget } from '../../../schema/kit/widget'
import Chart from '../../engine/chart/Chart'
import { useFormat } from '../../i18n/useFormat'

/**
 * A chart widget: its points drawn by the engine's chart (src/engine/chart/Chart.tsx, the
 * reports' too) — loaded with the dashboard alone (this module is its own chunk). A point's
 * label is an i18n key when it says so, a day on a line chart, or shown as it is.
 */
export default function WidgetChart({ widget, data }: { widget: Widget; data: ChartData }) {
  const { t } = useTranslation()
  const format = useFormat()
  const points = data.points.map((p) => ({ name: p.translate ? t(p.label) : widget.kind === 'line' ? format.date(p.label) : p.label, value: Number(p.value) }))
  const kind = widget.kind === 'line' || widget.kind === 'pie' ? widget.kind : 'bar'
  return (
    <Chart
      kind={kind}
      points={points}
      series={[{ key: 'value', name: t(widget.labelKey), isMoney: widget.format === 'money' }]}
      emptyText={t('dashboard.no_data')}
      testId={`chart-${widget.name}`}
    />
  )
}
