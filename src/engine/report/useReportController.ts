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
import { fetchReport, fetchReportCsv, saveFile, type ReportPage, type ReportRow } from './report-api'
import { checkParams, formValuesOf, paramsKey } from './report-params'
import { DEFAULT_REPORT_PAGE_SIZE, searchOfReport, splitReportSearch, type ParamValue } from './report-search'
import { useCanPick } from '../pickable'

/**
 * The headless report screen (ra-core's controller): the parameters live in the address —
 * the form starts from it and Run (or Enter) writes it — so a reload or a shared link shows
 * the same report. A report whose parameters in the address pass the registry's rules runs
 * at once; otherwise the fields say what is wrong and nothing is asked of the server. The
 * server's field errors (400) go onto their fields. Paging, the CSV download and printing
 * act on the run the address describes. The view only renders this state.
 */
export const reportKeys = {
  all: (name: string) => ['report', name] as const,
  run: (name: string, params: Readonly<Record<string, ParamValue>>, page: number, size: number) => ['report', name, 'run', paramsKey(params), page, size] as const,
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
    if (paramsKey(next) === key) await query.refetch()
    else await go({ params: next, size: search.size })
  })

  const csv = useMutation({
    mutationFn: () => fetchReportCsv(report, params),
    onSuccess: (blob) => saveFile(blob, `${report.name}.csv`),
    onError: (e) => {
      showAlert({ kind: 'error', text: `${t('report.download_failed')} ${errorText(t, e)}` })
    },
  })

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
  }
}

export type ReportController = ReturnType<typeof useReportController>
