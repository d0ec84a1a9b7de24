import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql, type RawBuilder } from 'kysely'
import type { Report } from '../../schema/kit'
import type { ControlledTransaction } from 'kysely'
import type { Database, Db, Executor } from '../db/types'
import { languageOf, translator } from '../i18n'
import type { Actor } from './hooks'
import type { Registry } from './list-query'
import { pageOf } from './request'
import { validateShape, type Values } from './validate'

/**
 * Reports (`defineReport` in the registry): the domain gives each its rows as one SQL query
 * over the validated parameters; the engine derives the rest from the declaration — the
 * route `GET /api/reports/<name>/` (a page of rows, the total count, the totals row over
 * every row, and whatever else the query's author adds), and `GET /api/reports/<name>/csv`,
 * every row streamed through a cursor with the column labels in the caller's language.
 */
export type ReportSource = RawBuilder<unknown> | ReportQuery

/**
 * A report that knows its number of rows and its totals without reading its rows (the ledger
 * report, from the day totals the database keeps) gives them as `summary`, and its query then
 * gives the rows of one page alone: `run` is passed the page asked for (`page`, to be clamped
 * to the last page as the engine does), and the engine only orders what the query gives.
 */
export type ReportSummary = { count: number; totals: Record<string, string> }
type ReportQuery = { query: RawBuilder<unknown>; extra?: Record<string, unknown>; summary?: ReportSummary }

export type ReportRun = (args: { db: Executor; params: Values; actor: Actor | null; registry: Registry; page?: { page: number; size: number } }) => ReportSource | Promise<ReportSource>

/** The domain's queries of the registry's reports, by report name. */
export type ReportRuns = ReadonlyMap<string, ReportRun>

const id = sql.id

const sourceOf = (s: ReportSource): ReportQuery => ('query' in s && !('compile' in s) ? s : { query: s as RawBuilder<unknown>, extra: undefined })

/** ORDER BY of the report's declared ordering, over the query's columns. */
function orderOf(report: Report): RawBuilder<unknown> {
  const keys = report.ordering.map((o) => (o.startsWith('-') ? sql`r.${id(o.slice(1))} desc` : sql`r.${id(o)} asc`))
  return keys.length > 0 ? sql`order by ${sql.join(keys)}` : sql``
}

const paramsShape = (report: Report) => ({ fields: report.params, fieldNames: report.paramNames, rules: report.rules, linesFieldNames: [], fieldLabelKey: report.fieldLabelKey })

/**
 * One value of a CSV file. Text is always quoted, and whatever a spreadsheet would start a
 * formula with is made inert — at the start, and after anything a spreadsheet may split cells
 * on: a Turkish Excel reads `;` as the separator, so `x;=1+1` would start a cell there.
 */
export function csvValue(value: unknown, isText: boolean): string {
  if (value === null || value === undefined) return ''
  let s = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value)
  if (!isText) return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
  s = s.replace(/(^|[,;\t\r\n])([=+\-@\t\r])/g, "$1'$2")
  return `"${s.replace(/"/g, '""')}"`
}

const CSV_BATCH = 2_000

async function* csvLines(db: Db, report: Report, query: RawBuilder<unknown>, header: string): AsyncGenerator<string> {
  yield `\ufeff${header}\r\n`
  // Numbers, dates and flags are written as they are; everything else is text, quoted and made inert.
  const isText = report.columnNames.map((c) => !['integer', 'decimal', 'date', 'datetime', 'boolean'].includes(report.columns[c]!.kind))
  // A cursor reads every row without holding them all; its transaction keeps them consistent.
  const trx: ControlledTransaction<Database> = await db.startTransaction().execute()
  try {
    await sql`declare report_rows no scroll cursor for select * from (${query}) r ${orderOf(report)}`.execute(trx)
    for (;;) {
      const batch = await sql<Record<string, unknown>>`fetch forward ${sql.raw(String(CSV_BATCH))} from report_rows`.execute(trx)
      if (batch.rows.length > 0) yield batch.rows.map((row) => report.columnNames.map((c, i) => csvValue(row[c], isText[i]!)).join(',')).join('\r\n') + '\r\n'
      if (batch.rows.length < CSV_BATCH) break
    }
    await trx.commit().execute()
  } catch (e) {
    await trx.rollback().execute()
    throw e
  }
}

export function registerReportRoutes(app: FastifyInstance, deps: { db: Db; registry: Registry; reports: readonly Report[]; runs: ReportRuns }): void {
  for (const report of deps.reports) {
    const run = deps.runs.get(report.name)
    if (!run) throw new Error(`The report '${report.name}' has no query: a domain module must give one (reports: { ${report.name}: … })`)
    const config = { permission: report.permission }
    const prepare = async (query: Values, actor: Actor | null, page?: { page: number; size: number }) => {
      const params = validateShape(paramsShape(report), query)
      return sourceOf(await run({ db: deps.db, params, actor, registry: deps.registry, page }))
    }

    const answer = async (request: FastifyRequest<{ Querystring: Values }>) => {
      const { query, extra, summary: known } = await prepare(request.query, request.principal ?? null, report.isPaged ? pageOf(request.query) : undefined)
      const totals = report.totals.map((c) => sql`coalesce(sum(r.${id(c)}), 0)::text as ${id(c)}`)
      const summary = known
        ? { rows: [{ __count: String(known.count), ...known.totals }] }
        : await sql<Record<string, string>>`select ${sql.join([sql`count(*) as __count`, ...totals])} from (${query}) r`.execute(deps.db)
      const total = Number(summary.rows[0]?.__count ?? 0)
      const { page: asked, size } = report.isPaged ? pageOf(request.query) : { page: 1, size: Math.max(1, total) }
      const totalPages = Math.max(1, Math.ceil(total / size))
      const page = Math.min(asked, totalPages)
      const limit = report.isPaged && !known ? sql`limit ${size} offset ${(page - 1) * size}` : sql``
      const rows = await sql<Record<string, unknown>>`select * from (${query}) r ${orderOf(report)} ${limit}`.execute(deps.db)
      const { __count: _, ...sums } = summary.rows[0] ?? {}
      return { rows: rows.rows, page, size, total_pages: totalPages, total_elements: total, totals: sums, ...extra }
    }
    app.get<{ Querystring: Values }>(`${report.api.base}/`, { config }, answer)

    // The contract's route of the same rows (`contract` of the report): its key, or a map of one column's value by another's.
    const contract = report.contract
    if (contract) {
      app.get<{ Querystring: Values }>(contract.path, { config }, async (request) => {
        const { rows, totals: _totals, ...paging } = await answer(request)
        const listed = contract.map ? Object.fromEntries(rows.map((r) => [String(r[contract.map!.key] ?? ''), r[contract.map!.value]])) : rows
        return { [contract.key]: listed, ...paging }
      })
    }

    app.get<{ Querystring: Values }>(`${report.api.base}/csv`, { config }, async (request, reply) => {
      const { query } = await prepare(request.query, request.principal ?? null)
      const t = translator(languageOf(request.headers['accept-language']))
      const header = report.columnNames.map((c) => csvValue(t(report.fieldLabelKey(c)), true)).join(',')
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${report.name}.csv"`)
        .send(Readable.from(csvLines(deps.db, report, query, header)))
    })
  }
}
