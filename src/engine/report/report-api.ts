import type { Report } from '../../../schema/kit/report'
import { currentLanguage } from '../../i18n'
import { apiRequest, apiToken, ApiError, bodyOf, errorOfBody, NETWORK_ERROR_STATUS, unauthorized } from '../api'
import { queryOfParams } from './report-params'
import type { ParamValue } from './report-search'

/**
 * A report's calls (server/engine/reports.ts): a run — `GET <base>/?<params>&page=&size=`
 * answering a page of rows, the count and the totals over every row (and apart, the rows'
 * hidden columns, which join their rows here) — its chart's points, `GET <base>/chart?<params>`,
 * and its files, the CSV of every row and the PDF, `GET <base>/csv|pdf?<params>`, which are
 * not JSON but need the token and the language like every call.
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
  const hidden = Array.isArray(answer.hidden) ? answer.hidden : []
  // What a drill-down needs is in the row it leads from; the row's own columns win a clash.
  const rows = Array.isArray(answer.rows) ? answer.rows.filter(isRecord).map((row, i) => (isRecord(hidden[i]) ? { ...hidden[i], ...row } : row)) : []
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

/** A chart's point: its label (null: none; `is_other`: the rest summed), and its values as decimal strings. */
export type ReportChartPoint = { label: string | null; values: Readonly<Record<string, string>>; isOther: boolean }
export type ReportChartData = { points: readonly ReportChartPoint[]; isCut: boolean }

export async function fetchReportChart(report: Report, params: Readonly<Record<string, ParamValue>>, signal?: AbortSignal): Promise<ReportChartData> {
  const body = await apiRequest(`${report.api.base}/chart`, { searchParams: queryOfParams(params), signal })
  const answer = isRecord(body) ? body : {}
  const points = (Array.isArray(answer.points) ? answer.points.filter(isRecord) : []).map((p) => ({
    label: typeof p.label === 'string' ? p.label : null,
    values: isRecord(p.values) ? Object.fromEntries(Object.entries(p.values).map(([k, v]) => [k, String(v)])) : {},
    isOther: p.is_other === true,
  }))
  return { points, isCut: answer.is_cut === true }
}

export type ReportFileKind = 'csv' | 'pdf'
const fileTypes: Record<ReportFileKind, string> = { csv: 'text/csv', pdf: 'application/pdf' }

/** A run as a file: every row as CSV, or the PDF the server draws, in the interface language. */
export async function fetchReportFile(report: Report, kind: ReportFileKind, params: Readonly<Record<string, ParamValue>>, signal?: AbortSignal): Promise<Blob> {
  const url = new URL(`${report.api.base}/${kind}`, globalThis.location?.origin ?? 'http://localhost')
  for (const [name, value] of Object.entries(queryOfParams(params))) url.searchParams.set(name, value)
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage(), Accept: fileTypes[kind] }
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
