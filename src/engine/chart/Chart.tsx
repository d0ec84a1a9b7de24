import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { useFormat } from '../../i18n/useFormat'
import { useSettings } from '../../shell/settings/store'

/**
 * A chart drawn with recharts, shared by the dashboard's widgets and the reports — loaded
 * only where one is drawn (this module and recharts are a chunk of their own: import it
 * lazily). recharts does not mirror itself: in a right-to-left page the category axis runs
 * from the right and the value axis stands on the right. Values on axes and labels carry the
 * spec's k suffix; the tooltip shows them whole (money with its two places). Colours come
 * from the page's own (the slate of the text for axes, so dark mode reads), series from a
 * fixed palette; a pie colours its slices, and draws the first series alone.
 */
export type ChartKind = 'bar' | 'line' | 'pie'

/** One series of values: its key in the points, its name (legend, tooltip), and whether it is money. */
export type ChartSeries = { readonly key: string; readonly name: string; readonly isMoney: boolean }

/** One point: its name (on the category axis, or a slice's) and a number per series. */
export type ChartPoint = { readonly name: string } & Readonly<Record<string, number | string>>

export type ChartProps = {
  kind: ChartKind
  points: readonly ChartPoint[]
  series: readonly ChartSeries[]
  /** Said instead of the chart when there are no points. */
  emptyText: string
  testId?: string
  /** More classes of the chart's frame. */
  className?: string
}

export const CHART_PALETTE = ['#6366f1', '#10b981', '#f59e0b', '#ef4444', '#0ea5e9', '#a855f7', '#14b8a6', '#f97316', '#84cc16', '#ec4899']

/**
 * A printed page is narrower than the screen the chart was drawn for, and is laid out before
 * recharts could measure it again: the drawing is scaled down to the page (its SVG keeps its
 * view box) within the height it had.
 */
const printable = 'print:[&_.recharts-responsive-container>div]:w-full! print:[&_.recharts-wrapper]:w-full! print:[&_.recharts-wrapper>svg]:h-auto! print:[&_.recharts-wrapper>svg]:w-full!'

/** A bar chart lays its bars across: each needs a line of its own. */
const barHeight = (points: number, series: number) => Math.max(256, points * (14 + 10 * series) + 48)

export default function Chart({ kind, points, series, emptyText, testId, className = '' }: ChartProps) {
  const format = useFormat()
  useSettings()
  const isRtl = typeof document !== 'undefined' && document.documentElement.dir === 'rtl'
  if (points.length === 0 || series.length === 0) return <p className="py-10 text-center text-sm text-slate-400">{emptyText}</p>
  const byKey = new Map(series.map((s) => [s.key, s]))
  const whole = (v: unknown, key: unknown) => (byKey.get(String(key))?.isMoney ? format.decimal(Number(v).toFixed(2)) : format.integer(Number(v)))
  const tooltip = <Tooltip formatter={(v, _name, item) => whole(v, item.dataKey)} />
  const tick = { fill: 'currentColor', fontSize: 12 }
  const hasLegend = series.length > 1
  // In the series' order, not recharts' alphabetical one.
  const legend = hasLegend ? <Legend itemSorter={null} wrapperStyle={{ direction: isRtl ? 'rtl' : 'ltr', fontSize: 12 }} /> : null
  const height = kind === 'bar' ? barHeight(points.length, series.length) : 256
  const data = points as ChartPoint[]
  return (
    // The SVG is laid out left to right, mirrored by hand above: a right-to-left page would turn its text anchors around.
    <div dir="ltr" className={`text-slate-500 dark:text-slate-400 ${printable} ${className}`} style={{ height }} data-testid={testId}>
      <ResponsiveContainer width="100%" height="100%">
        {kind === 'pie' ? (
          <PieChart>
            <Pie data={data} dataKey={series[0]!.key} nameKey="name" innerRadius="45%" outerRadius="80%" isAnimationActive={false} label={({ value }) => format.compact(Number(value))}>
              {data.map((point, i) => (
                <Cell key={`${point.name}-${i}`} fill={CHART_PALETTE[i % CHART_PALETTE.length]} />
              ))}
            </Pie>
            {tooltip}
            <Legend itemSorter={null} wrapperStyle={{ direction: isRtl ? 'rtl' : 'ltr', fontSize: 12 }} />
          </PieChart>
        ) : kind === 'line' ? (
          <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 12 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} />
            <XAxis dataKey="name" tick={tick} reversed={isRtl} minTickGap={24} />
            <YAxis tick={tick} orientation={isRtl ? 'right' : 'left'} tickFormatter={(v: number) => format.compact(v)} width={48} />
            {tooltip}
            {legend}
            {series.map((s, i) => (
              <Line key={s.key} type="monotone" dataKey={s.key} name={s.name} stroke={CHART_PALETTE[i % CHART_PALETTE.length]} strokeWidth={2} dot={points.length <= 1} isAnimationActive={false} />
            ))}
          </LineChart>
        ) : (
          <BarChart data={data} layout="vertical" margin={{ top: 8, right: 12, bottom: 0, left: 12 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.15} horizontal={false} />
            <XAxis type="number" tick={tick} reversed={isRtl} tickFormatter={(v: number) => format.compact(v)} />
            <YAxis type="category" dataKey="name" tick={tick} orientation={isRtl ? 'right' : 'left'} width={110} />
            {tooltip}
            {legend}
            {series.map((s, i) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.name}
                fill={CHART_PALETTE[i % CHART_PALETTE.length]}
                radius={4}
                isAnimationActive={false}
                label={hasLegend ? false : { position: isRtl ? 'left' : 'right', fill: 'currentColor', fontSize: 11, formatter: (v: unknown) => format.compact(Number(v)) }}
              />
            ))}
          </BarChart>
        )}
      </ResponsiveContainer>
    </div>
  )
}
