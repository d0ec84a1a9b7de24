import type { Report } from '../../../schema/kit/report'

/**
 * A report's address: its parameters and, for a paged report, the page and its size, as
 * the router keeps them in the search part (`?branch=3&is_active=yes&page=2`). The route
 * keeps only these, so a reload or a shared link shows the same report. Pure and small:
 * the route tree validates the address with it before the screen's code is loaded.
 *
 * Values are what the router reads from the address (numbers stay numbers, so an id is
 * written `branch=3`, not `branch="3"`); absent or empty parameters are left out.
 */
export type ParamValue = string | number | boolean | readonly number[]

export type ReportSearch = {
  readonly params: Readonly<Record<string, ParamValue>>
  readonly page?: number
  readonly size?: number
}

/** Rows per page of a paged report, as the lists have them. */
export const REPORT_PAGE_SIZES = [30, 50, 100] as const
export const DEFAULT_REPORT_PAGE_SIZE = 30

type Shape = Pick<Report, 'paramNames' | 'isPaged'>

function paramValueOf(value: unknown): ParamValue | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (value === true) return true
  if (Array.isArray(value) && value.length > 0 && value.every((v) => Number.isSafeInteger(v))) return value as number[]
  return undefined
}

const positiveInteger = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : undefined
}

/** The address's search made a report's: its parameters only, and a valid page and size. */
export function reportSearchOf(report: Shape, raw: Record<string, unknown>): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {}
  for (const name of report.paramNames) {
    const value = paramValueOf(raw[name])
    if (value !== undefined) out[name] = value
  }
  if (report.isPaged) {
    const page = positiveInteger(raw.page)
    const size = positiveInteger(raw.size)
    if (page !== undefined && page > 1) out.page = page
    if (size !== undefined && size !== DEFAULT_REPORT_PAGE_SIZE && (REPORT_PAGE_SIZES as readonly number[]).includes(size)) out.size = size
  }
  return out
}

/** The search as the screen reads it: the parameters apart from the page and size. */
export function splitReportSearch(report: Shape, search: Record<string, unknown>): ReportSearch {
  const clean = reportSearchOf(report, search)
  const params: Record<string, ParamValue> = {}
  for (const name of report.paramNames) if (clean[name] !== undefined) params[name] = clean[name]
  const page = typeof clean.page === 'number' ? clean.page : undefined
  const size = typeof clean.size === 'number' ? clean.size : undefined
  return { params, ...(page ? { page } : {}), ...(size ? { size } : {}) }
}

/** The address of a report's search: the parameters, then the page and size when not the first and the default. */
export function searchOfReport(report: Shape, search: ReportSearch): Record<string, ParamValue> {
  return reportSearchOf(report, { ...search.params, page: search.page, size: search.size })
}
