import { useTranslation } from 'react-i18next'
import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { ChartData, Widget } from '../../../schema/kit/widget'
import { useFormat } from '../../i18n/useFormat'
import { useSettings } from '../../shell/settings/store'

/**
 * A chart widget drawn with recharts — loaded with the dashboard alone (this module is its
 * own chunk). recharts does not mirror itself: in a right-to-left page the time axis runs from
 * the right and the value axis stands on the right. Values on axes and labels carry the
 * spec's k suffix; the tooltip shows them whole. Colours come from the page's own (the
 * slate of the text for axes, so dark mode reads), series from a fixed palette.
 */
const PALETTE = ['#6366f1', '#10b981', '#f59e0b', '#ef4444', '#0ea5e9', '#a855f7', '#14b8a6', '#f97316', '#84cc16', '#ec4899']

export default function WidgetChart({ widget, data }: { widget: Widget; data: ChartData }) {
  const { t } = useTranslation()
  const format = useFormat()
  useSettings()
  const isRtl = typeof document !== 'undefined' && document.documentElement.dir === 'rtl'
  const rows = data.points.map((p) => ({ name: p.translate ? t(p.label) : widget.kind === 'line' ? format.date(p.label) : p.label, value: Number(p.value) }))
  const whole = (v: number) => (widget.format === 'money' ? format.decimal(v.toFixed(2)) : format.integer(v))
  const tick = { fill: 'currentColor', fontSize: 12 }
  if (rows.length === 0) return <p className="py-10 text-center text-sm text-slate-400">{t('dashboard.no_data')}</p>
  return (
    // The SVG is laid out left to right, mirrored by hand above: a right-to-left page would turn its text anchors around.
    <div dir="ltr" className="h-64 text-slate-500 dark:text-slate-400" data-testid={`chart-${widget.name}`}>
      <ResponsiveContainer width="100%" height="100%">
        {widget.kind === 'pie' ? (
          <PieChart>
            <Pie data={rows} dataKey="value" nameKey="name" innerRadius="45%" outerRadius="80%" isAnimationActive={false} label={({ value }) => format.compact(Number(value))}>
              {rows.map((row, i) => (
                <Cell key={row.name} fill={PALETTE[i % PALETTE.length]} />
              ))}
            </Pie>
            <Tooltip formatter={(v) => whole(Number(v))} />
            <Legend wrapperStyle={{ direction: isRtl ? 'rtl' : 'ltr', fontSize: 12 }} />
          </PieChart>
        ) : widget.kind === 'line' ? (
          <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 12 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} />
            <XAxis dataKey="name" tick={tick} reversed={isRtl} minTickGap={24} />
            <YAxis tick={tick} orientation={isRtl ? 'right' : 'left'} tickFormatter={(v: number) => format.compact(v)} width={48} />
            <Tooltip formatter={(v) => whole(Number(v))} />
            <Line type="monotone" dataKey="value" name={t(widget.labelKey)} stroke={PALETTE[0]} strokeWidth={2} dot={false} isAnimationActive={false} />
          </LineChart>
        ) : (
          <BarChart data={rows} layout="vertical" margin={{ top: 8, right: 12, bottom: 0, left: 12 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} horizontal={false} />
            <XAxis type="number" tick={tick} reversed={isRtl} tickFormatter={(v: number) => format.compact(v)} />
            <YAxis type="category" dataKey="name" tick={tick} orientation={isRtl ? 'right' : 'left'} width={110} />
            <Tooltip formatter={(v) => whole(Number(v))} />
            <Bar dataKey="value" name={t(widget.labelKey)} fill={PALETTE[0]} radius={4} isAnimationActive={false} label={{ position: isRtl ? 'left' : 'right', fill: 'currentColor', fontSize: 11, formatter: (v: unknown) => format.compact(Number(v)) }} />
          </BarChart>
        )}
      </ResponsiveContainer>
    </div>
  )
}
