import { Link } from '@tanstack/react-router'
import { lazy, Suspense, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyField } from '../../../schema/kit'
import type { Report } from '../../../schema/kit/report'
import { useEntity } from '../entities-context'
import { labelOf, type AnyEntity } from '../entity-api'
import { FieldRow } from '../form/FieldRow'
import { FieldCell, isNumericCell } from '../list/FieldCell'
import { TableFrame } from '../list/TableFrame'
import { useEntityRecord } from '../queries'
import { Banner } from '../ui/Banner'
import { Icon } from '../ui/icons'
import { Spinner } from '../ui/PageSpinner'
import { Pagination } from '../ui/Pagination'
import type { ReportRow } from './report-api'
import { REPORT_PAGE_SIZES, type ParamValue } from './report-search'
import { useReportController, type ReportController } from './useReportController'

// recharts is drawn only where a chart is: its own chunk, fetched when a report with one first runs.
const ReportChart = lazy(() => import('./ReportChart'))

/**
 * The generic report screen of any registry report (`defineReport`): its title, the
 * parameter form (the registry's widgets and rules), Print and the CSV and PDF downloads, its
 * chart when it has one, and the rows in the list's card with the totals row and, for a paged
 * report, the pages; a figure with a drill-down is a link to what it is made of. The behaviour
 * is `useReportController`'s; this file renders. Printing shows the title, the parameters used,
 * the chart and the table (styles.css, `@media print`).
 */
const secondaryButton =
  'inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-700 shadow-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'

export function ReportScreen({ report }: { report: Report }) {
  const { t } = useTranslation()
  const c = useReportController(report)
  const title = t(report.labelKey)
  return (
    <div className="space-y-6" data-report={report.name}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
            {c.hasRun ? t('report.rows', { count: c.totalElements }) : '\u00a0'}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 print:hidden">
          <button type="button" className={secondaryButton} onClick={c.print} disabled={!c.hasRun}>
            <Icon name="printer" className="size-4" />
            {t('report.print')}
          </button>
          <button type="button" className={secondaryButton} onClick={c.downloadCsv} disabled={!c.isRunnable || c.isDownloading} aria-busy={c.isDownloading}>
            {c.isDownloading ? <Spinner className="size-4" /> : <Icon name="download" className="size-4" />}
            {t('report.download_csv')}
          </button>
          <button type="button" className={secondaryButton} onClick={c.downloadPdf} disabled={!c.isRunnable || c.isDownloadingPdf} aria-busy={c.isDownloadingPdf}>
            {c.isDownloadingPdf ? <Spinner className="size-4" /> : <Icon name="download" className="size-4" />}
            {t('report.download_pdf')}
          </button>
        </div>
      </header>

      <ParameterForm controller={c} title={title} />
      <ParametersUsed controller={c} />

      {c.errorMessage && <Banner kind="error">{c.errorMessage}</Banner>}

      {report.chart && c.isRunnable && !c.errorMessage && <ChartPanel controller={c} title={title} />}

      <ReportTable controller={c} />
    </div>
  )
}

function ParameterForm({ controller: c, title }: { controller: ReportController; title: string }) {
  const { t } = useTranslation()
  const { report } = c
  // Enter runs from any parameter: text inputs submit the form by themselves, a select does not.
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Enter' && e.target instanceof HTMLSelectElement) {
      e.preventDefault()
      void c.run()
    }
  }
  return (
    <form
      onSubmit={c.run}
      onKeyDown={onKeyDown}
      noValidate
      aria-label={t('report.parameters_of', { report: title })}
      className="rounded-xl border border-slate-200 bg-white shadow-xs print:hidden dark:border-slate-800 dark:bg-slate-900"
    >
      {c.fieldNames.length > 0 && (
        <div className="grid gap-x-6 gap-y-5 p-6 sm:grid-cols-2 lg:grid-cols-3">
          {c.fieldNames.map((name) => (
            <FieldRow key={name} name={name} field={report.params[name]!} labelKey={report.fieldLabelKey(name)} control={c.form.control} />
          ))}
        </div>
      )}
      <div className={`flex items-center justify-end gap-3 px-6 py-4 ${c.fieldNames.length > 0 ? 'rounded-b-xl border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/60' : ''}`}>
        <button
          type="submit"
          disabled={c.form.formState.isSubmitting}
          className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
        >
          {c.isFetching && c.hasRun && <Spinner className="size-4" />}
          {t('report.run')}
        </button>
      </div>
    </form>
  )
}

/** The parameters of the run shown, as text: what a printed report says it was made of. */
function ParametersUsed({ controller: c }: { controller: ReportController }) {
  const { t } = useTranslation()
  const { report } = c
  const used = report.paramNames.filter((name) => c.params[name] !== undefined)
  return (
    <section className="hidden text-sm print:block" aria-label={t('report.parameters')}>
      <h2 className="font-semibold">{t('report.parameters')}</h2>
      {used.length === 0 ? (
        <p>{t('report.no_parameters')}</p>
      ) : (
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5">
          {used.map((name) => (
            <div key={name} className="contents">
              <dt className="font-medium">{t(report.fieldLabelKey(name))}</dt>
              <dd>
                <ParameterText field={report.params[name]!} value={c.params[name]!} />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}

function ParameterText({ field, value }: { field: AnyField; value: ParamValue }) {
  if (field.ref && typeof value === 'number') return <ReferenceName target={field.ref.target} id={value} />
  return <FieldCell field={field} value={value} />
}

/** A reference parameter by its name (the select that chose it has already asked for it). */
function ReferenceName({ target, id }: { target: string; id: number }) {
  const entity = useEntity(target)
  return entity ? <RecordName entity={entity} id={id} /> : <>#{id}</>
}

function RecordName({ entity, id }: { entity: AnyEntity; id: number }) {
  const record = useEntityRecord(entity, id)
  return <>{record.data ? labelOf(entity, record.data) : `#${id}`}</>
}

const chartFrame = 'rounded-xl border border-slate-200 bg-white p-4 shadow-xs break-inside-avoid dark:border-slate-800 dark:bg-slate-900'

/** The report's chart over every row of the run, above the table; nothing when the run has no rows. */
function ChartPanel({ controller: c, title }: { controller: ReportController; title: string }) {
  const { t } = useTranslation()
  const skeleton = <div className="h-64 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
  if (c.isChartFailed) return <p className="text-sm text-slate-500 dark:text-slate-400">{t('report.chart_failed')}</p>
  if (c.chart && c.chart.points.length === 0) return null
  return (
    <figure className={chartFrame} aria-label={t('report.chart_of', { report: title })} aria-busy={!c.chart}>
      {c.chart ? (
        <Suspense fallback={skeleton}>
          <ReportChart report={c.report} data={c.chart} />
        </Suspense>
      ) : (
        skeleton
      )}
      {c.chart?.isCut && <figcaption className="mt-2 text-xs text-slate-500 dark:text-slate-400">{t('report.chart_cut', { count: c.chart.points.length })}</figcaption>}
    </figure>
  )
}

const drillClass = 'text-indigo-600 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600 dark:text-indigo-400'

/** A row's value in a column: a link when the figure leads to what it is made of (the report's `drill`). */
function ReportCell({ controller: c, name, row }: { controller: ReportController; name: string; row: ReportRow }) {
  const cell = <FieldCell field={c.report.columns[name]!} value={row[name]} />
  const link = row[name] === null || row[name] === undefined || row[name] === '' ? null : c.linkOf(name, row)
  if (!link) return cell
  return (
    <Link to={link.to} search={link.search} className={drillClass}>
      {cell}
    </Link>
  )
}

/** The numbers of a totals row come as decimal strings; whole counts are shown as the column's numbers are. */
function totalValue(field: AnyField, text: string): string | number {
  if (field.cell === 'number' && /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return Number(text)
  return text
}

function ReportTable({ controller: c }: { controller: ReportController }) {
  const { t } = useTranslation()
  const { report } = c
  const columns = report.columnNames
  const fieldOf = (name: string) => report.columns[name]!
  const alignOf = (name: string) => (isNumericCell(fieldOf(name)) ? 'text-end tabular-nums' : 'text-start')
  // A row reads on one line (the card scrolls sideways on a narrow screen); only text wraps, the
  // first column's within a sensible width, so that the amounts — the decisive columns, the
  // closing balance last — stay in view at 1280 px. Headers wrap between words instead.
  const isKeptWhole = (name: string) => fieldOf(name).cell !== 'text'
  const headerClass = (name: string) => (fieldOf(name).kind === 'decimal' ? 'min-w-24' : '')
  const isEmpty = c.hasRun && c.rows.length === 0
  const hasTotals = report.totals.length > 0 && c.totals !== null && c.rows.length > 0
  return (
    <TableFrame
      isBusy={c.isFetching}
      head={
        <tr>
          {columns.map((name) => (
            <th key={name} scope="col" className={`${headerClass(name)} px-3 py-3 first:ps-4 ${alignOf(name)}`}>
              {t(report.fieldLabelKey(name))}
            </th>
          ))}
        </tr>
      }
      below={
        <>
          {!c.isRunnable && <StateMessage icon="report" text={t('report.not_run')} />}
          {isEmpty && <StateMessage icon="folder" text={t('report.empty')} />}
          {report.isPaged && c.hasRun && !isEmpty && <Pagination paging={c} sizes={REPORT_PAGE_SIZES} />}
        </>
      }
    >
      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
        {c.isLoading &&
          Array.from({ length: 6 }, (_, i) => (
            <tr key={`skeleton-${i}`} aria-hidden="true">
              {columns.map((name, j) => (
                <td key={name} className="px-4 py-3.5">
                  <div className="h-4 animate-pulse rounded bg-slate-100 dark:bg-slate-800" style={{ width: `${40 + ((i * 7 + j * 13) % 50)}%` }} />
                </td>
              ))}
            </tr>
          ))}
        {c.rows.map((row, i) => (
          <tr key={i} className="hover:bg-slate-50 dark:hover:bg-slate-800/60">
            {columns.map((name, j) => (
              <td key={name} className={`px-3 py-3 first:ps-4 ${alignOf(name)} ${isKeptWhole(name) ? 'whitespace-nowrap' : ''} ${j === 0 ? 'font-medium text-slate-900 dark:text-slate-100' : 'text-slate-600 dark:text-slate-300'}`}>
                {j === 0 && !isKeptWhole(name) ? (
                  <div className="min-w-36 max-w-64">
                    <ReportCell controller={c} name={name} row={row} />
                  </div>
                ) : (
                  <ReportCell controller={c} name={name} row={row} />
                )}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      {hasTotals && (
        <tfoot className="border-t-2 border-slate-300 bg-slate-50 font-semibold text-slate-900 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-100">
          <tr>
            {columns.map((name, j) => {
              const total = c.totals?.[name]
              if (report.totals.includes(name) && total !== undefined) {
                return (
                  <td key={name} className={`whitespace-nowrap px-3 py-3 first:ps-4 ${alignOf(name)}`}>
                    <FieldCell field={fieldOf(name)} value={totalValue(fieldOf(name), total)} />
                  </td>
                )
              }
              return j === 0 ? (
                <th key={name} scope="row" className="px-3 py-3 ps-4 text-start">
                  {t('report.total')}
                </th>
              ) : (
                <td key={name} className="px-3 py-3" />
              )
            })}
          </tr>
        </tfoot>
      )}
    </TableFrame>
  )
}

function StateMessage({ icon, text }: { icon: 'report' | 'folder'; text: string }) {
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-400 dark:bg-slate-800">
        <Icon name={icon} className="size-6" />
      </div>
      <p className="font-medium">{text}</p>
    </div>
  )
}
