/**
 * A dashboard widget, declared once (issue 22): a figure, a short list or a chart of one
 * query, which a domain module gives (`widgets: { <name>: run }`). The engine derives the
 * contract's route `GET /dashboard/api/v1/<route>/` (for those who may list `reads`), and
 * the dashboard's one request, `GET /dashboard/api/v1/widgets/?dashboard=<name>`, which
 * answers every widget of that dashboard the caller may read — never a request per card.
 * A widget that `links` opens that list, filtered as it counts.
 */
export type WidgetKind = 'figure' | 'list' | 'bar' | 'line' | 'pie'

/** What a column of a list widget, or the values of a chart, are: how they are drawn. */
export type WidgetFormat = 'integer' | 'money' | 'text' | 'date' | 'status'

export type WidgetConfig<N extends string = string> = {
  name: N
  /** The dashboard it is on: `project` (/apps/dashboards/project) or `analytics`. */
  dashboard: 'project' | 'analytics'
  kind: WidgetKind
  /** The entity whose rows it reads: who may list them may see it. */
  reads: string
  /** The contract's route below `/dashboard/api/v1/` (`get_total_count_of_paid_orders`), if it has one. */
  route?: string
  /** The key the contract's route answers its rows or points under (`orders`); a figure answers `{count, amount}`. */
  answerKey?: string
  /** The list it opens: an entity's, or one of its views (`views` of the registry) that filters as the widget counts. */
  link?: { readonly entity: string; readonly view?: string }
  /** A list's columns (keys of its rows) and how each is drawn; a chart's values' format. */
  columns?: Readonly<Record<string, WidgetFormat>>
  format?: WidgetFormat
  /** Place on its dashboard (smaller first). */
  order: number
  /** Columns of the dashboard's grid it spans (1 to 4; default 1 for a figure, 2 otherwise). */
  span?: 1 | 2 | 3 | 4
}

export interface Widget extends Required<Omit<WidgetConfig, 'route' | 'answerKey' | 'link' | 'columns' | 'format'>> {
  readonly route?: string
  readonly answerKey: string
  readonly link?: WidgetConfig['link']
  readonly columns: Readonly<Record<string, WidgetFormat>>
  readonly format: WidgetFormat
  /** i18n key of its title: `widget.<name>`. */
  readonly labelKey: string
}

export const DASHBOARD_API = '/dashboard/api/v1'

export function defineWidget<const N extends string>(config: WidgetConfig<N>): Widget {
  return {
    ...config,
    answerKey: config.answerKey ?? 'rows',
    columns: config.columns ?? {},
    format: config.format ?? 'integer',
    span: config.span ?? (config.kind === 'figure' ? 1 : 2),
    labelKey: `widget.${config.name}`,
  }
}

/**
 * What a widget's query gives, by kind: a figure a count (and an amount); a list its rows;
 * a chart its points (a label — an i18n key when `translate` — and a value).
 */
export type FigureData = { count: number; amount?: string | null }
export type ListData = { rows: ReadonlyArray<Record<string, unknown>> }
export type ChartPoint = { label: string; value: number | string; key?: string | number | null; translate?: boolean }
export type ChartData = { points: readonly ChartPoint[] }
export type WidgetData = FigureData | ListData | ChartData
