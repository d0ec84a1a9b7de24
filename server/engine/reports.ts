import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql, type RawBuilder } from 'kysely'
import { storageOf, type AnyField, type Report } from '../../schema/kit'
import type { ControlledTransaction } from 'kysely'
import type { Database, Db, Executor } from '../db/types'
import { languageOf, translator, type Language } from '../i18n'
import type { Actor } from './hooks'
import type { Registry } from './list-query'
import { pdfLanguageOf, tablePdf } from './pdf'
import { sendReportXlsx } from './export'
import { pageOf } from './request'
import { validateShape, type Values } from './validate'

/**
 * Reports (`defineReport` in the registry): the domain gives each its rows as one SQL query
 * over the validated parameters; the engine derives the rest from the declaration — the
 * route `GET /api/reports/<name>/` (a page of rows, the total count, the totals row over
 * every row, and whatever else the query's author adds), `GET /api/reports/<name>/csv`,
 * every row streamed through a cursor with the column labels in the caller's language,
 * `GET /api/reports/<name>/pdf`, the run as a PDF in that language (its first 10,000 rows,
 * and a warning when there were more), and for a report with a chart
 * `GET /api/reports/<name>/chart`, its points summed over every row.
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

/** A report's rows with more said of each (`select r.*, … from (<its query>) r`): what it knows besides is kept. */
export function withMoreColumns(source: ReportSource, more: RawBuilder<unknown>): ReportQuery {
  const s = sourceOf(source)
  return { ...s, query: sql`select r.*, ${more} from (${s.query}) r` }
}

/** ORDER BY of the report's declared ordering, over the query's columns. */
function orderOf(report: Report): RawBuilder<unknown> {
  const keys = report.ordering.map((o) => (o.startsWith('-') ? sql`r.${id(o.slice(1))} desc` : sql`r.${id(o)} asc`))
  return keys.length > 0 ? sql`order by ${sql.join(keys)}` : sql``
}

/** A report's parameters as a record shape to validate (`withRules: false`: its fields alone, for a route that judges their combination itself). */
export const paramsShape = (report: Report, withRules = true) => ({ fields: report.params, fieldNames: report.paramNames, rules: withRules ? report.rules : [], linesFieldNames: [], fieldLabelKey: report.fieldLabelKey })

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
  let isDone = false
  try {
    await sql`declare report_rows no scroll cursor for select * from (${query}) r ${orderOf(report)}`.execute(trx)
    for (;;) {
      const batch = await sql<Record<string, unknown>>`fetch forward ${sql.raw(String(CSV_BATCH))} from report_rows`.execute(trx)
      if (batch.rows.length > 0) yield batch.rows.map((row) => report.columnNames.map((c, i) => csvValue(row[c], isText[i]!)).join(',')).join('\r\n') + '\r\n'
      if (batch.rows.length < CSV_BATCH) break
    }
    await trx.commit().execute()
    isDone = true
  } finally {
    // Also when the client goes away mid-download (the generator is returned, no error thrown):
    // an open transaction would hold the embedded database's only connection.
    if (!isDone) await trx.rollback().execute()
  }
}

/** Rows a PDF prints at most: some 250 pages, beyond which the CSV is what serves. */
export const PDF_ROWS = 10_000

/** Points a chart shows at most: a bar or pie chart sums the rest into one, a line chart stops. */
export const CHART_POINTS = { bar: 20, pie: 8, line: 500 } as const

export type ChartPoint = { label: string | null; values: Record<string, string>; is_other: boolean }

/**
 * A chart's points: the rows grouped by the label column, each value column summed — the
 * largest first for a bar or pie chart (the rest summed into one point, `is_other`), in the
 * label's order for a line chart (`is_cut` when it had more points than it shows).
 */
async function chartPoints(db: Executor, report: Report, query: RawBuilder<unknown>): Promise<{ points: ChartPoint[]; is_cut: boolean }> {
  const { kind, label, values } = report.chart!
  const most = CHART_POINTS[kind]
  const inner = values.map((v) => sql`coalesce(sum(r.${id(v)}), 0) as ${id(v)}`)
  const outer = values.map((v) => sql`sum(g.${id(v)})::text as ${id(v)}`)
  const order = kind === 'line' ? sql`r.${id(label)} asc nulls last` : sql`coalesce(sum(r.${id(values[0])}), 0) desc, r.${id(label)} asc nulls last`
  const r = await sql<Record<string, unknown>>`
    select (array_agg(g.label))[1] as label, count(*) > 1 as is_other, ${sql.join(outer)}
    from (
      select r.${id(label)}::text as label, ${sql.join(inner)}, row_number() over (order by ${order}) as rn
      from (${query}) r group by r.${id(label)}
    ) g
    group by least(g.rn, ${sql.lit(most + 1)}) order by least(g.rn, ${sql.lit(most + 1)})`.execute(db)
  const points = r.rows.map((row) => ({
    label: row.label === null || row.label === undefined ? null : String(row.label),
    values: Object.fromEntries(values.map((v) => [v, String(row[v] ?? '0')])),
    is_other: kind !== 'line' && row.is_other === true,
  }))
  const isCut = kind === 'line' && points.length > most
  return { points: isCut ? points.slice(0, most) : points, is_cut: isCut }
}

/** How the PDF says values: in the reader's language and locale, each format made once for every cell. */
type Format = {
  t: (key: string, params?: Record<string, string | number>) => string
  count: (n: number | string) => string
  amount: (value: string, scale: number) => string
  date: (d: Date) => string
  dateTime: (d: Date) => string
}

function formatOf(language: Language): Format {
  const t = translator(language)
  const integer = new Intl.NumberFormat(language, { maximumFractionDigits: 0 })
  const amounts = new Map<number, Intl.NumberFormat>()
  const dates = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' })
  const dateTimes = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
  return {
    t,
    // From the decimal string itself (Intl formats numeric strings exactly): money never passes through a float.
    count: (n) => integer.format(String(n) as `${number}`),
    amount: (value, scale) => {
      let format = amounts.get(scale)
      if (!format) amounts.set(scale, (format = new Intl.NumberFormat(language, { minimumFractionDigits: scale, maximumFractionDigits: scale })))
      return format.format(value as `${number}`)
    },
    date: (d) => dates.format(d),
    dateTime: (d) => dateTimes.format(d),
  }
}

/** A value as the PDF prints it: numbers in the reader's locale, dates, choices by their label, references by their name. */
function cellText(field: AnyField, value: unknown, format: Format): string {
  if (value === null || value === undefined || value === '') return ''
  const text = String(value)
  switch (field.cell) {
    case 'number':
      return /^-?\d+$/.test(text) ? format.count(text) : text
    case 'money':
    case 'decimal':
      return /^-?\d+(\.\d+)?$/.test(text) ? format.amount(text, field.cell === 'money' ? 2 : (field.scale ?? text.split('.')[1]?.length ?? 0)) : text
    case 'date': {
      const d = new Date(`${text.slice(0, 10)}T00:00:00Z`)
      return Number.isNaN(d.getTime()) ? text : format.date(d)
    }
    case 'datetime': {
      const d = value instanceof Date ? value : new Date(text)
      return Number.isNaN(d.getTime()) ? text : format.dateTime(d)
    }
    case 'boolean':
      return format.t(value === true ? 'option.yes' : 'option.no')
    case 'enum':
    case 'status':
      return format.t(`option.${text}`, { defaultValue: text })
    default:
      return nameOf(value)
  }
}

/** A reference as the rows give it (`{id, name}`), a list of them or of names, or plain text. */
function nameOf(value: unknown): string {
  if (Array.isArray(value)) return value.map(nameOf).join(', ')
  if (typeof value === 'object' && value !== null) return 'name' in value ? String(value.name) : JSON.stringify(value)
  return String(value)
}

const isNumberCell = (field: AnyField) => field.cell === 'number' || field.cell === 'money' || field.cell === 'decimal'

/** The parameters of a run as the PDF says them: a reference by its row's name. */
async function paramFacts(db: Executor, registry: Registry, report: Report, params: Values, format: Format): Promise<Array<[string, string]>> {
  const facts: Array<[string, string]> = []
  for (const name of report.paramNames) {
    const value = params[name]
    if (value === null || value === undefined || value === '' || value === false || (Array.isArray(value) && value.length === 0)) continue
    const field = report.params[name]!
    const target = field.ref ? registry.find((e) => e.name === field.ref!.target) : undefined
    let text: string
    if (target) {
      const ids = (Array.isArray(value) ? value : [value]).map(Number).filter(Number.isSafeInteger)
      const r = await sql<{ id: number; label: string | null }>`
        select x.id, x.${id(target.labelField)}::text as label from ${id(storageOf(target, target.labelField).name)} x where x.id = any(${ids}::bigint[])`.execute(db)
      text = ids.map((i) => r.rows.find((row) => Number(row.id) === i)?.label ?? `#${i}`).join(', ')
    } else {
      text = cellText(field, value, format)
    }
    facts.push([format.t(report.fieldLabelKey(name)), text])
  }
  return facts
}

/** The rows without their hidden columns, and those apart (a row each): a drill-down's, not a reader's. */
function splitHidden(report: Report, rows: Record<string, unknown>[]): { rows: Record<string, unknown>[]; hidden?: Record<string, unknown>[] } {
  const names = report.hiddenNames
  if (names.length === 0) return { rows }
  const shown = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !names.includes(k))))
  return { rows: shown, hidden: rows.map((row) => Object.fromEntries(names.map((k) => [k, row[k] ?? null]))) }
}

export function registerReportRoutes(app: FastifyInstance, deps: { db: Db; registry: Registry; reports: readonly Report[]; runs: ReportRuns }): void {
  for (const report of deps.reports) {
    const run = deps.runs.get(report.name)
    if (!run) throw new Error(`The report '${report.name}' has no query: a domain module must give one (reports: { ${report.name}: … })`)
    const config = { permission: report.permission }
    const prepare = async (query: Values, actor: Actor | null, page?: { page: number; size: number }) => {
      const params = validateShape(paramsShape(report), query)
      return { ...sourceOf(await run({ db: deps.db, params, actor, registry: deps.registry, page })), params }
    }

    /** A run: its page of rows (`window`; null: every row), its count and its totals over every row. */
    const read = async (input: Values, actor: Actor | null, window: { page: number; size: number } | null) => {
      const { query, extra, summary: known, params } = await prepare(input, actor, report.isPaged && window ? window : undefined)
      const totals = report.totals.map((c) => sql`coalesce(sum(r.${id(c)}), 0)::text as ${id(c)}`)
      const summary = known
        ? { rows: [{ __count: String(known.count), ...known.totals }] }
        : await sql<Record<string, string>>`select ${sql.join([sql`count(*) as __count`, ...totals])} from (${query}) r`.execute(deps.db)
      const total = Number(summary.rows[0]?.__count ?? 0)
      const size = window?.size ?? Math.max(1, total)
      const totalPages = Math.max(1, Math.ceil(total / size))
      const page = Math.min(window?.page ?? 1, totalPages)
      const limit = window && !known ? sql`limit ${size} offset ${(page - 1) * size}` : sql``
      const found = await sql<Record<string, unknown>>`select * from (${query}) r ${orderOf(report)} ${limit}`.execute(deps.db)
      // A report that knows its summary gives a paged run's page itself; an unpaged one gives every row.
      const rows = window && known && !report.isPaged ? found.rows.slice((page - 1) * size, page * size) : found.rows
      const { __count: _, ...sums } = summary.rows[0] ?? {}
      return { rows, page, size, totalPages, total, totals: sums, extra, params }
    }

    const answer = async (request: FastifyRequest<{ Querystring: Values }>) => {
      const run = await read(request.query, request.principal ?? null, report.isPaged ? pageOf(request.query) : null)
      return { ...splitHidden(report, run.rows), page: run.page, size: run.size, total_pages: run.totalPages, total_elements: run.total, totals: run.totals, ...run.extra }
    }
    app.get<{ Querystring: Values }>(`${report.api.base}/`, { config }, answer)

    // The contract's route of the same rows (`contract` of the report): its key, or a map of one column's value by another's.
    const contract = report.contract
    if (contract) {
      app.get<{ Querystring: Values }>(contract.path, { config }, async (request) => {
        const { rows, totals: _totals, hidden: _hidden, ...paging } = await answer(request)
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

    // The same rows as a workbook (server/engine/export.ts: typed cells, streamed from one snapshot).
    app.get<{ Querystring: Values }>(`${report.api.base}/xlsx`, { config }, async (request, reply) => {
      const { query } = await prepare(request.query, request.principal ?? null)
      return sendReportXlsx(deps.db, request, reply, report, sql`select * from (${query}) r ${orderOf(report)}`)
    })

    app.get<{ Querystring: Values }>(`${report.api.base}/pdf`, { config }, async (request, reply) => {
      const format = formatOf(pdfLanguageOf(languageOf(request.headers['accept-language'])))
      const { t } = format
      const run = await read(request.query, request.principal ?? null, { page: 1, size: PDF_ROWS })
      const title = t(report.labelKey)
      const columns = report.columnNames.map((c) => ({ name: c, field: report.columns[c]! }))
      const pdf = await tablePdf({
        title,
        factsLabel: t('report.parameters'),
        facts: await paramFacts(deps.db, deps.registry, report, run.params, format),
        noFacts: t('report.no_parameters'),
        columns: columns.map(({ name, field }) => ({ label: t(report.fieldLabelKey(name)), align: isNumberCell(field) ? 'right' : 'left', isWhole: field.cell !== 'text' || field.format === 'code' })),
        rows: run.rows.map((row) => columns.map(({ name, field }) => cellText(field, row[name], format))),
        empty: t('report.empty'),
        totals: report.totals.length > 0 ? columns.map(({ name, field }, i) => (report.totals.includes(name) ? cellText(field, run.totals[name], format) : i === 0 ? t('report.total') : '')) : null,
        ...(run.total > run.rows.length ? { warning: t('report.pdf_cut', { shown: format.count(run.rows.length), total: format.count(run.total) }) } : {}),
        footer: (page, pages) => `${title} · ${t('report.page_of', { page, pages })}`,
      })
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="${report.name}.pdf"`).send(pdf)
    })

    if (report.chart) {
      app.get<{ Querystring: Values }>(`${report.api.base}/chart`, { config }, async (request) => {
        const { query } = await prepare(request.query, request.principal ?? null)
        return chartPoints(deps.db, report, query)
      })
    }
  }
}
