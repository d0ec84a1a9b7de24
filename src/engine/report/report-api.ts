import type { Report } from '../../../schema/kit/report'
import { currentLanguage } from '../../i18n'
import { apiRequest, apiToken, ApiError, bodyOf, errorOfBody, NETWORK_ERROR_STATUS, unauthorized } from '../api'
import { queryOfParams } from './report-params'
import type { ParamValue } from './report-search'

/**
 * A report's two calls (server/engine/reports.ts): a run — `GET <base>/?<params>&page=&size=`
 * answering a page of rows, the count and the totals over every row — and the CSV download
 * of every row, `GET <base>/csv?<params>`, which is a file, not JSON, but needs the token
 * and the language like every call.
 */
export type ReportRow = Readonly<Record<string, unknown>>

export type ReportPage = {
  rows: readonly ReportRow[]
  page: number
  size: number
  totalPages: number
  totalElements: number
  /** Sums of the report's total columns as decimal strings (`"77000"`). */
  totals: Readonly<Record<string, string>>
}

export type ReportRun = { params: Readonly<Record<string, ParamValue>>; page: number; size: number }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const numberOr = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback)

export async function fetchReport(report: Report, run: ReportRun, signal?: AbortSignal): Promise<ReportPage> {
  const body = await apiRequest(`${report.api.base}/`, {
    searchParams: { ...queryOfParams(run.params), ...(report.isPaged ? { page: run.page, size: run.size } : {}) },
    signal,
  })
  const answer = isRecord(body) ? body : {}
  const rows = Array.isArray(answer.rows) ? answer.rows.filter(isRecord) : []
  const totals = isRecord(answer.totals) ? Object.fromEntries(Object.entries(answer.totals).map(([k, v]) => [k, String(v)])) : {}
  return {
    rows,
    page: numberOr(answer.page, run.page),
    size: numberOr(answer.size, run.size),
    totalPages: Math.max(1, numberOr(answer.total_pages, 1)),
    totalElements: numberOr(answer.total_elements, rows.length),
    totals,
  }
}

/** Every row of a run as CSV, with the column labels in the interface language. */
export async function fetchReportCsv(report: Report, params: Readonly<Record<string, ParamValue>>, signal?: AbortSignal): Promise<Blob> {
  const url = new URL(`${report.api.base}/csv`, globalThis.location?.origin ?? 'http://localhost')
  for (const [name, value] of Object.entries(queryOfParams(params))) url.searchParams.set(name, value)
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage(), Accept: 'text/csv' }
  const token = apiToken()
  if (token) headers.Authorization = token
  let response: Response
  try {
    response = await fetch(url, { headers, signal })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError({ status: NETWORK_ERROR_STATUS, detail: error instanceof Error ? error.message : undefined })
  }
  if (response.ok) return response.blob()
  const body = await bodyOf(response)
  if (response.status === 401) unauthorized()
  throw errorOfBody(response.status, body)
}

/** Hands a file to the browser's downloads under a name. */
export function saveFile(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = href
  link.download = fileName
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  // The download has taken the file by then; the address only holds memory.
  setTimeout(() => URL.revokeObjectURL(href), 30_000)
}
