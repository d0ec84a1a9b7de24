import type { Fields, NavSpec, Rule } from './entity'

/**
 * A report, declared once: its parameters (field-kit fields, so they validate with the same
 * zod rules and render with the same widgets as any form), its columns (field-kit fields
 * too: each column's cell, label and alignment), the columns totalled, and where it sits
 * in the navigation. The engine derives the route `GET /api/reports/<name>/`, the CSV
 * download, the permission `<PREFIX>_VIEW`, the menu entry and the report screen at
 * `/apps/report-management/<route>`. Its rows come from the server: a domain module
 * gives the query (`reports: { <name>: run }`), which is all a report needs of code.
 */
export type ReportConfig<N extends string, P extends Fields, C extends Fields, H extends Fields = Record<never, never>> = {
  name: N
  module: string
  /** The parameter form, kept in the screen's address. */
  params: P
  columns: C
  /** Columns summed into the totals row (over every row, not the page). */
  totals?: readonly (keyof C & string)[]
  /** Rows come a page at a time (30/50/100) rather than all at once. Default true. */
  paged?: boolean
  /** Order of the rows: columns, `-` for descending. Default: the first column. */
  ordering?: readonly string[]
  /** `/apps/report-management/<route>`. */
  route: string
  nav?: NavSpec | false
  /** Rules across the parameters (a period's start not after its end). */
  rules?: readonly Rule[]
  /** Permission prefix; default the name upper-cased: `LEDGER_REPORT_VIEW`. */
  permission?: string
  /**
   * The original's route of the same rows (api-contract §6), served with the report's
   * parameters and permission: its rows under `key` with the paging keys — or, with `map`,
   * an object of one column's value by another's (`{payment_voucher_summary: {<sub-ledger>: total}}`).
   */
  contract?: { readonly path: string; readonly key: string; readonly map?: { readonly key: string; readonly value: string } }
  /**
   * A chart drawn above the table (and printed): one point per value of the `label` column,
   * each of `values` (number columns) summed over every row with that label — summaries over
   * time (`line`, by a date) or by a sub-ledger (`bar`, `pie`, the largest first).
   */
  chart?: ReportChart<keyof C & string>
  /**
   * Columns the rows carry but no one reads (not on the screen, nor in the CSV or the PDF):
   * what a drill-down needs, a voucher's id. The JSON route answers them apart, under `hidden`.
   */
  hidden?: H
  /** Where a shown column's figure leads (see ReportDrill): its cell becomes a link. */
  drill?: { readonly [column in keyof C & string]?: ReportDrill<(keyof C | keyof H) & string, keyof P & string> }
}

export type ReportChartKind = 'bar' | 'line' | 'pie'

export type ReportChart<K extends string = string> = {
  readonly kind: ReportChartKind
  readonly label: K
  readonly values: readonly [K, ...K[]]
}

/**
 * A figure's drill-down: to a record's screen — of an entity the registry names, or of the
 * one the row names in a column (a ledger line's voucher kind) — by the id in a column; or to
 * another report's screen, with its parameters from this row's columns or this run's
 * parameters (a name that is a column is the row's value, else the parameter's). The target
 * report also gets this run's parameters that it shares by name (the period).
 */
export type ReportDrill<K extends string = string, PK extends string = string> =
  | { readonly entity: string | { readonly fromColumn: K }; readonly id: K }
  | { readonly report: string; readonly params?: { readonly [param: string]: K | PK } }

export interface Report<N extends string = string, P extends Fields = Fields, C extends Fields = Fields> {
  readonly name: N
  readonly module: string
  readonly params: P
  readonly paramNames: readonly string[]
  readonly columns: C
  readonly columnNames: readonly string[]
  /** See ReportConfig.hidden. */
  readonly hidden: Fields
  readonly hiddenNames: readonly string[]
  readonly chart?: ReportChart
  readonly drill: Readonly<Record<string, ReportDrill>>
  readonly totals: readonly string[]
  readonly isPaged: boolean
  readonly ordering: readonly string[]
  readonly nav: NavSpec | null
  readonly rules: readonly Rule[]
  /** `<PREFIX>_VIEW`. */
  readonly permission: string
  /** i18n key of the title. */
  readonly labelKey: string
  readonly fieldLabelKey: (field: string) => string
  readonly api: { readonly base: string }
  /** See ReportConfig.contract. */
  readonly contract?: ReportConfig<string, Fields, Fields>['contract']
  readonly ui: { readonly path: string }
}

export const REPORT_AREA = '/apps/report-management'

export function defineReport<const N extends string, const P extends Fields, const C extends Fields, const H extends Fields = Record<never, never>>(
  config: ReportConfig<N, P, C, H>,
): Report<N, P, C> {
  const columnNames = Object.keys(config.columns)
  const hidden: Fields = config.hidden ?? {}
  const all: Fields = { ...config.params, ...config.columns }
  return {
    name: config.name,
    module: config.module,
    params: config.params,
    paramNames: Object.keys(config.params),
    columns: config.columns,
    columnNames,
    hidden,
    hiddenNames: Object.keys(hidden),
    ...(config.chart ? { chart: config.chart } : {}),
    drill: (config.drill ?? {}) as Readonly<Record<string, ReportDrill>>,
    totals: config.totals ?? [],
    isPaged: config.paged ?? true,
    ordering: config.ordering ?? columnNames.slice(0, 1),
    nav: config.nav === false ? null : (config.nav ?? { group: 'reports', icon: 'assessment' }),
    rules: config.rules ?? [],
    permission: `${config.permission ?? config.name.toUpperCase()}_VIEW`,
    labelKey: `report.${config.name}`,
    fieldLabelKey: (field) => all[field]?.label ?? `field.${field}`,
    api: { base: `/api/reports/${config.name}` },
    contract: config.contract,
    ui: { path: `${REPORT_AREA}/${config.route}` },
  }
}
