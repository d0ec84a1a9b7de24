import { useTranslation } from 'react-i18next'
import type { AnyField } from '../../../schema/kit'
import type { Report } from '../../../schema/kit/report'
import { useFormat, type Formatters } from '../../i18n/useFormat'
import Chart from '../chart/Chart'
import type { ReportChartData } from './report-api'

/**
 * A report's chart (`chart` of defineReport) from its points (every row of the run, summed by
 * label on the server): each value column a series named as its column, each label shown as
 * its column shows it (a day, a choice's name). Loaded lazily with recharts: its own chunk.
 */
type Translate = (key: string, options?: Record<string, unknown>) => string

function labelText(field: AnyField | undefined, label: string, t: Translate, format: Formatters): string {
  switch (field?.cell) {
    case 'date':
      return format.date(label)
    case 'datetime':
      return format.dateTime(label)
    case 'enum':
    case 'status':
      return t(`option.${label}`, { defaultValue: label })
    case 'boolean':
      return t(label === 'true' ? 'list.true' : 'list.false')
    case 'number':
      return /^-?\d+$/.test(label) ? format.integer(Number(label)) : label
    default:
      return label
  }
}

/** A value's key in a point: apart from the point's `name`, whatever the columns are called. */
const keyOf = (column: string) => `v_${column}`

export default function ReportChart({ report, data }: { report: Report; data: ReportChartData }) {
  const { t } = useTranslation()
  const format = useFormat()
  const { kind, label, values } = report.chart!
  const points = data.points.map((p) => ({
    name: p.isOther ? t('report.chart_other') : p.label === null ? '—' : labelText(report.columns[label], p.label, t, format),
    ...Object.fromEntries(values.map((v) => [keyOf(v), Number(p.values[v] ?? 0)])),
  }))
  const series = values.map((v) => ({ key: keyOf(v), name: t(report.fieldLabelKey(v)), isMoney: report.columns[v]?.cell === 'money' }))
  return <Chart kind={kind} points={points} series={series} emptyText={t('report.empty')} testId={`report-chart-${report.name}`} />
}
