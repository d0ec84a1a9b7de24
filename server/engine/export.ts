import { PassThrough, Readable } from 'node:stream'
import { routeDocs } from './route-docs'
import { constants } from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { RawBuilder } from 'kysely'
import type { Entity, Fields, Report } from '../../schema/kit'
import { utcDay } from '../../schema/kit/dates'
import { isEmbedded } from '../db/connect'
import type { Db } from '../db/types'
import { languageOf, translator, type Language } from '../i18n'
import { TooManyRequestsError, ValidationError } from './errors'
import { exportColumnNames, exportColumns, reportColumns, type ExportColumn } from './export-columns'
import { csvChunks, CSV_TYPE } from './export-csv'
import { openQuery, openSnapshot, type Snapshot } from './export-rows'
import { writeXlsx, XLSX_TYPE } from './export-xlsx'
import type { HookRegistry } from './hooks'
import type { Registry } from './list-query'
import { filtersOf, orderingOf, viewFilters } from './request'
import { actionConfig, requestContext } from './routes'

/**
 * `GET {base}/export/?format=csv|xlsx&columns=a,b&q=…&ordering=…&<filters>&view=…`: every
 * row of a list as its screen asks for it — the same search, filters, list view and order as
 * `all/` and `search/`, within the caller's scope, with the entity's LIST as `all/` takes it —
 * as a file streamed while it is read (export-rows.ts: one snapshot, a batch at a time).
 * `X-Total-Count` says how many rows are coming, for the browser's progress. A report's run
 * goes the same way as a workbook (`/api/reports/<name>/xlsx`, beside its CSV).
 *
 * An export holds a database connection while the client downloads: a few run at once (one
 * on the embedded database, whose single connection every request shares, so that one
 * export never queues behind another), the next is a 429 to try again shortly, and a client
 * that stops reading ends its own.
 */
type Deps = { db: Db; mediaDir: string; registry: Registry; hooks?: HookRegistry }

export const EXPORT_FORMATS = { csv: { type: CSV_TYPE }, xlsx: { type: XLSX_TYPE } } as const
export type ExportFormat = keyof typeof EXPORT_FORMATS

/** How long a client may take nothing before its export ends (and its connection is free again). */
export const EXPORT_STALL_MS = 30_000
const MAX_RUNNING = { embedded: 1, server: 4 } as const
const running = new WeakMap<object, number>()

/** A place among the exports running on this database, or a 429; the answer frees it (once). */
function takeSlot(db: Db): () => void {
  const now = running.get(db) ?? 0
  if (now >= (isEmbedded(db) ? MAX_RUNNING.embedded : MAX_RUNNING.server)) throw new TooManyRequestsError({ key: 'detail.export_busy' }, 5)
  running.set(db, now + 1)
  let isFree = false
  return () => {
    if (isFree) return
    isFree = true
    running.set(db, Math.max(0, (running.get(db) ?? 1) - 1))
  }
}

function formatOf(raw: unknown): ExportFormat {
  if (raw === undefined || raw === '') return 'csv'
  const value = String(Array.isArray(raw) ? raw[0] : raw)
  if (value === 'csv' || value === 'xlsx') return value
  throw new ValidationError({ format: [{ key: 'validation.export_format', params: { formats: Object.keys(EXPORT_FORMATS).join(', ') } }] })
}

/**
 * A CSV is compressed as the app's answers are (brotli or gzip), flushed after each batch so
 * the browser sees its rows come (its progress), not when a compressor's block fills; a
 * workbook is a zip already and goes as it is.
 */
const compressEachBatch = {
  encodings: ['br' as const, 'gzip' as const],
  threshold: 1024,
  customTypes: /^text\/csv(;|$)/,
  brotliOptions: { flush: constants.BROTLI_OPERATION_FLUSH, params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } },
  zlibOptions: { flush: constants.Z_SYNC_FLUSH },
}

/** Chunks handed on one at a time; a client that takes none for `stallMs` has its download ended. */
async function* unlessStalled(chunks: AsyncIterable<string>, stallMs: number, onStall: () => void): AsyncGenerator<string> {
  for await (const chunk of chunks) {
    const timer = setTimeout(onStall, stallMs)
    try {
      yield chunk
    } finally {
      clearTimeout(timer)
    }
  }
}

export type ExportSpec = {
  readonly format: ExportFormat
  readonly columns: readonly ExportColumn[]
  /** The list's (or report's) name: the workbook's sheet. */
  readonly title: string
  /** The file's name before its date and extension (`cities` → `cities-2026-05-04.csv`). */
  readonly fileStem: string
  readonly language: Language
}

/** Streams the rows `open` reads as the file `spec` describes, holding a place among the running exports until it ends. */
export async function sendExport(db: Db, reply: FastifyReply, spec: ExportSpec, open: () => Promise<Snapshot>): Promise<FastifyReply> {
  const free = takeSlot(db)
  let snapshot: Snapshot
  try {
    snapshot = await open()
  } catch (e) {
    free()
    throw e
  }
  const close = async () => {
    await snapshot.close()
    free()
  }
  // The rows' own end (the last batch, a failure) frees the place too.
  const batches = (async function* () {
    try {
      yield* snapshot.batches
    } finally {
      await close()
    }
  })()

  reply
    .type(EXPORT_FORMATS[spec.format].type)
    .header('content-disposition', `attachment; filename="${spec.fileStem}-${utcDay()}.${spec.format}"`)
    .header('access-control-expose-headers', 'X-Total-Count, Content-Disposition')
    .header('cache-control', 'no-store')
  if (snapshot.total !== undefined) reply.header('x-total-count', String(snapshot.total))
  // A HEAD asks how many rows would come: answered without reading them.
  if (reply.request.method === 'HEAD') {
    await close()
    return reply.send()
  }

  if (spec.format === 'csv') {
    // Bytes, not objects: the stream reads one batch ahead of the client at most.
    const stream: Readable = Readable.from(
      unlessStalled(csvChunks(spec.columns, batches), EXPORT_STALL_MS, () => stream.destroy(new Error('export stalled'))),
      { objectMode: false },
    )
    stream.once('close', () => void close())
    return reply.send(stream)
  }
  const out = new PassThrough()
  out.once('close', () => void close())
  writeXlsx(out, { title: spec.title, rightToLeft: spec.language === 'ar' }, spec.columns, batches, EXPORT_STALL_MS).catch((e: unknown) => {
    out.destroy(e instanceof Error ? e : new Error(String(e)))
  })
  return reply.send(out)
}

const languageOfRequest = (req: FastifyRequest): Language => {
  const header = req.headers['accept-language']
  return languageOf(Array.isArray(header) ? header[0] : header)
}

export function registerExportRoutes(app: FastifyInstance, entity: Entity<string, Fields>, deps: Deps): void {
  if (entity.isLine || entity.routes.all !== 'generic') return

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const { format: rawFormat, columns: rawColumns, ...query } = req.query as Record<string, unknown>
    const format = formatOf(rawFormat)
    const names = exportColumnNames(entity, rawColumns)
    // As `search/` reads them: a filter it does not know is refused, never an export of everything.
    const filters = [...viewFilters(entity, query.view), ...filtersOf(entity, query, { unknown: 'refuse' })]
    const ordering = orderingOf(entity, query)
    const language = languageOfRequest(req)
    const view = typeof query.view === 'string' ? entity.views[query.view] : undefined
    const spec: ExportSpec = { format, columns: exportColumns(entity, names, language), title: translator(language)(view?.label ?? entity.listTitleKey), fileStem: entity.listKey, language }
    return sendExport(deps.db, reply, spec, () => openSnapshot({ ...requestContext(deps, entity, req), db: deps.db }, { filters, ordering }))
  }

  for (const base of entity.api.bases) {
    if (entity.api.except[base]?.includes('all')) continue
    app.get(`${base}/export/`, { config: { ...actionConfig(entity, 'LIST'), openapi: routeDocs.export(entity) }, compress: compressEachBatch }, handler)
  }
}

/** A report's run as a workbook: `ordered` is its query with its order, run by a caller its route has checked. */
export function sendReportXlsx(db: Db, request: FastifyRequest, reply: FastifyReply, report: Report, ordered: RawBuilder<unknown>): Promise<FastifyReply> {
  const language = languageOfRequest(request)
  const spec: ExportSpec = { format: 'xlsx', columns: reportColumns(report, language), title: translator(language)(report.labelKey), fileStem: report.name, language }
  return sendExport(db, reply, spec, () => openQuery(db, ordered))
}
