import type { Report } from '../../../schema/kit/report'
import { apiRequest } from '../api'
import { openApiResponse } from '../api-response'
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
  const response = await openApiResponse(`${report.api.base}/${kind}`, { searchParams: queryOfParams(params), headers: { Accept: fileTypes[kind] }, signal })
  return response.blob()
}

export { saveFile } from '../api-response'
