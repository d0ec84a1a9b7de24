import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useEffect, useMemo } from 'react'
import { useForm, type Resolver } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useMessagesInLanguage } from '../form/useMessagesInLanguage'
import type { Report } from '../../../schema/kit/report'
import { isApiError } from '../api'
import { errorText } from '../errors'
import type { FormValues, SubmitValues } from '../form/form-values'
import { showAlert } from '../ui/notifications'
import { fetchReport, fetchReportChart, fetchReportFile, saveFile, type ReportFileKind, type ReportPage, type ReportRow } from './report-api'
import { checkParams, formValuesOf, paramsKey } from './report-params'
import { DEFAULT_REPORT_PAGE_SIZE, searchOfReport, splitReportSearch, type ParamValue } from './report-search'
import { useCanPick } from '../pickable'
import { screenRequirement } from '../../auth/access'
import { useAccess } from '../../auth/useAccess'
import { useEntities, useReports } from '../entities-context'
import { drillLink, type DrillContext } from './report-drill'

/**
 * The headless report screen (ra-core's controller): the parameters live in the address —
 * the form starts from it and Run (or Enter) writes it — so a reload or a shared link shows
 * the same report. A report whose parameters in the address pass the registry's rules runs
 * at once; otherwise the fields say what is wrong and nothing is asked of the server. The
 * server's field errors (400) go onto their fields. Paging, the chart (of every row, asked for
 * once per set of parameters, whatever the page), the CSV and PDF downloads and printing act on
 * the run the address describes. The view only renders this state.
 */
export const reportKeys = {
  all: (name: string) => ['report', name] as const,
  run: (name: string, params: Readonly<Record<string, ParamValue>>, page: number, size: number) => ['report', name, 'run', paramsKey(params), page, size] as const,
  chart: (name: string, params: Readonly<Record<string, ParamValue>>) => ['report', name, 'chart', paramsKey(params)] as const,
}

const failedKeys: Record<ReportFileKind, string> = { csv: 'report.download_failed', pdf: 'report.pdf_failed' }

/** A file of the run (`<report>.csv`, `<report>.pdf`) into the browser's downloads; what went wrong in an alert. */
function useDownload(report: Report, params: Readonly<Record<string, ParamValue>>, kind: ReportFileKind) {
  const { t } = useTranslation()
  return useMutation({
    mutationFn: () => fetchReportFile(report, kind, params),
    onSuccess: (blob) => saveFile(blob, `${report.name}.${kind}`),
    onError: (e) => {
      showAlert({ kind: 'error', text: `${t(failedKeys[kind])} ${errorText(t, e)}` })
    },
  })
}

const noRows: readonly ReportRow[] = []

export function useReportController(report: Report) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const rawSearch = useSearch({ strict: false }) as Record<string, unknown>
  const search = useMemo(() => splitReportSearch(report, rawSearch), [report, rawSearch])
  const key = paramsKey(search.params)
  // One identity per set of parameters, whatever else changes in the address.
  const params = useMemo(() => search.params, [key])
  const page = search.page ?? 1
  const size = search.size ?? DEFAULT_REPORT_PAGE_SIZE
  const hasParams = Object.keys(params).length > 0

  // An optional reference whose target the user may not list has nothing to pick from: left out, as the form does.
  const canPick = useCanPick()
  const fieldNames = useMemo(() => report.paramNames.filter((name) => report.params[name]!.isRequired || canPick(report.params[name]!)), [report, canPick])

  const addressValues = useMemo(() => formValuesOf(report, params), [report, params])
  const addressCheck = useMemo(() => checkParams(report, addressValues, t), [report, addressValues, t])
  const isRunnable = addressCheck.success

  const resolver = useMemo<Resolver<FormValues, unknown, SubmitValues>>(
    () => async (values) => {
      const check = checkParams(report, values, t)
      if (check.success) return { values: check.params, errors: {} }
      return { values: {}, errors: Object.fromEntries(Object.entries(check.errors).map(([field, message]) => [field, { type: 'validate', message }])) }
    },
    [report, t],
  )
  const form = useForm<FormValues, unknown, SubmitValues>({ resolver, defaultValues: addressValues, mode: 'onSubmit', reValidateMode: 'onChange' })

  // The address changed (a run, Back, a link): the form shows it, and what is wrong with it.
  const { reset, setError } = form
  useEffect(() => {
    reset(addressValues)
    if (!addressCheck.success && hasParams) for (const [field, message] of Object.entries(addressCheck.errors)) setError(field, { type: 'validate', message })
    // Only a new set of parameters resets the form: not a new page, nor a new language.
  }, [key])

  useMessagesInLanguage(form, fieldNames)

  const query = useQuery({
    queryKey: reportKeys.run(report.name, params, page, size),
    queryFn: ({ signal }) => fetchReport(report, { params, page, size }, signal),
    enabled: isRunnable,
    placeholderData: keepPreviousData,
  })
  const data: ReportPage | undefined = isRunnable ? query.data : undefined

  const chart = useQuery({
    queryKey: reportKeys.chart(report.name, params),
    queryFn: ({ signal }) => fetchReportChart(report, params, signal),
    enabled: isRunnable && report.chart !== undefined,
    placeholderData: keepPreviousData,
  })

  // The server judged the parameters otherwise (400 with a field map): its words go onto the fields.
  const error = isRunnable ? query.error : null
  useEffect(() => {
    if (!isApiError(error) || !error.fieldErrors) return
    let isFirst = true
    for (const [field, messages] of Object.entries(error.fieldErrors)) {
      if (!fieldNames.includes(field)) continue
      setError(field, { type: 'server', message: messages.join(' ') }, { shouldFocus: isFirst })
      isFirst = false
    }
  }, [error, fieldNames, setError])
  const errorMessage = useMemo(() => {
    if (!error) return null
    if (isApiError(error) && error.fieldErrors) {
      const other = Object.entries(error.fieldErrors).filter(([field]) => !fieldNames.includes(field))
      return other.length > 0 ? other.flatMap(([, messages]) => messages).join(' ') : t('report.fix_params')
    }
    return errorText(t, error)
  }, [error, fieldNames, t])

  const go = (next: { params: Readonly<Record<string, ParamValue>>; page?: number; size?: number }) =>
    navigate({ to: report.ui.path, search: searchOfReport(report, next) })

  const run = form.handleSubmit(async (values) => {
    const next = values as Record<string, ParamValue>
    // The same parameters again: run them again (the data may have changed), on the same page.
    if (paramsKey(next) === key) await Promise.all([query.refetch(), ...(report.chart ? [chart.refetch()] : [])])
    else await go({ params: next, size: search.size })
  })

  // A figure's drill-down, to what the user may open.
  const entities = useEntities()
  const reports = useReports()
  const access = useAccess()
  const drill = useMemo<DrillContext>(
    () => ({
      entityOf: (name) => entities.find((e) => e.name === name),
      reportOf: (name) => reports.find((r) => r.name === name),
      mayOpenRecord: (entity) => access.meets(screenRequirement(entity, 'record')),
      mayOpenReport: (target) => access.can(target.permission),
    }),
    [entities, reports, access],
  )

  const csv = useDownload(report, params, 'csv')
  const pdf = useDownload(report, params, 'pdf')

  const totalPages = Math.max(1, data?.totalPages ?? 1)
  return {
    report,
    form,
    fieldNames,
    params,
    /** The run the address asks for can be made (its parameters pass the rules). */
    isRunnable,
    /** The first answer of this run is on its way (no rows to show yet). */
    isLoading: isRunnable && query.isPending,
    isFetching: query.isFetching,
    rows: data?.rows ?? noRows,
    totals: data?.totals ?? null,
    hasRun: data !== undefined,
    errorMessage,
    page: data?.page ?? page,
    size,
    totalPages,
    totalElements: data?.totalElements ?? 0,

    run,
    goToPage: (next: number) => go({ params, page: Math.min(Math.max(1, next), totalPages), size: search.size }),
    setSize: (next: number) => go({ params, size: next }),
    print: () => window.print(),
    downloadCsv: () => csv.mutate(),
    isDownloading: csv.isPending,
    downloadPdf: () => pdf.mutate(),
    isDownloadingPdf: pdf.isPending,
    /** The chart's points (every row of the run), when the report has a chart and they have come. */
    chart: isRunnable ? chart.data : undefined,
    isChartFailed: isRunnable && chart.isError,
    /** Where a row's figure in `column` leads (the report's `drill`), or null. */
    linkOf: (column: string, row: ReportRow) => drillLink(report, column, row, params, drill),
  }
}

export type ReportController = ReturnType<typeof useReportController>
