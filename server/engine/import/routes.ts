import { PassThrough } from 'node:stream'
import { routeDocs } from '../route-docs'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { renderMessage, type Entity, type Fields, type Message } from '../../../schema/kit'
import { languageOf, translator } from '../../i18n'
import { BusinessError, HttpError, UnauthorizedError, ValidationError } from '../errors'
import { actionConfig, requestContext, type EngineDeps } from '../routes'
import { autoMapping, importFields, isImportable, mappingOf } from './fields'
import { openRejected, sweepImportFiles } from './files'
import { importModes, runImport, type ImportMode, type ImportResult } from './run'
import { cellText, columnsOf, isBlankRow, readSheet, surveySheet } from './sheet'
import { receiveUpload } from './upload'

/**
 * Import of a CSV or XLSX file into an entity, for those who may create its records
 * (its CREATE, as `create/`), at each of its bases whose `create/` is the engine's:
 *
 * - `POST …/import/preview/` (multipart `file`): the file's columns, each matched to the
 *   field it names, the importable fields and the first rows.
 * - `POST …/import/` (multipart `file`, `mapping`, `mode`): the import, answered as NDJSON —
 *   `{"progress": {"rows", "total"}}` as it goes, then `{"result": …}` (run.ts). What is
 *   wrong with the request itself (its file, mapping or mode) is a 400 before any row is read.
 * - `GET …/import/rejected/{token}`: the rejected rows of an import in batches, with the
 *   reasons, for the user who imported them, for an hour.
 */
const PREVIEW_ROWS = 5

const line = (value: unknown) => `${JSON.stringify(value)}\n`

function modeOf(raw: string | undefined): ImportMode {
  if (!(importModes as readonly string[]).includes(raw ?? '')) throw new ValidationError({ mode: [{ key: 'validation.import_mode' }] })
  return raw as ImportMode
}

export function registerImportRoutes(app: FastifyInstance, entity: Entity<string, Fields>, deps: EngineDeps): void {
  if (!isImportable(entity)) return
  const config = actionConfig(entity, 'CREATE')

  const preview = async (req: FastifyRequest) => {
    const language = languageOf(req.headers['accept-language'])
    const upload = await receiveUpload(req)
    try {
      let columns: string[] | undefined
      const sample: string[][] = []
      for await (const { cells } of readSheet(upload)) {
        if (isBlankRow(cells)) continue
        if (!columns) columns = columnsOf(cells)
        else sample.push(columns.map((_, i) => cellText(cells[i] ?? null)))
        if (sample.length >= PREVIEW_ROWS) break
      }
      if (!columns) throw new BusinessError({ key: 'detail.import_no_header' })
      return { columns, mapping: autoMapping(entity, columns), fields: importFields(entity, language), sample, format: upload.format }
    } finally {
      await upload.discard()
    }
  }

  const importFile = async (req: FastifyRequest, reply: FastifyReply) => {
    void sweepImportFiles()
    const language = languageOf(req.headers['accept-language'])
    const upload = await receiveUpload(req)
    let isAnswering = false
    try {
      const mode = modeOf(upload.fields.mode)
      const { columns, rows: total } = await surveySheet(upload)
      const mapping = mappingOf(entity, upload.fields.mapping, columns)
      const ctx = requestContext(deps, entity, req)
      const out = new PassThrough()
      // The caller gone (the page closed): the run stops, and what it would still say goes nowhere.
      let isGone = false
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) isGone = true
      })
      out.on('error', () => {})
      const tell = (value: unknown, isLast = false) => {
        if (out.destroyed || out.writableEnded) return
        if (isLast) out.end(line(value))
        else out.write(line(value))
      }
      tell({ progress: { rows: 0, total } })
      const finish = async () => {
        try {
          const result: ImportResult = await runImport({
            ctx,
            upload,
            columns,
            mapping,
            mode,
            language,
            onProgress: (rows) => tell({ progress: { rows, total } }),
            isAborted: () => isGone,
            onUnexpected: (error) => {
              req.log.error({ err: error, request_id: req.id }, 'import row failed')
              return req.id
            },
          })
          tell({ result }, true)
        } catch (e) {
          // The answer has begun: what went wrong is its last line, as an error body would say it.
          const detail: string | Message = e instanceof HttpError && 'detail' in e ? (e as HttpError & { detail: string | Message }).detail : { key: 'detail.internal_quote_id', params: { request_id: req.id } }
          if (!(e instanceof HttpError)) req.log.error({ err: e, request_id: req.id }, 'import failed')
          tell({ error: { detail: typeof detail === 'string' ? detail : renderMessage(translator(language), detail) } }, true)
        } finally {
          await upload.discard()
        }
      }
      isAnswering = true
      void finish()
      return reply.type('application/x-ndjson; charset=utf-8').header('cache-control', 'no-store').send(out)
    } finally {
      if (!isAnswering) await upload.discard()
    }
  }

  const rejected = async (req: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
    const caller = req.principal
    if (!caller) throw new UnauthorizedError({ key: 'detail.no_credentials' })
    const file = await openRejected(req.params.token, { user: caller.id, entity: entity.name })
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${entity.name}-rejected.csv"`)
      .header('cache-control', 'no-store')
      .send(file)
  }

  for (const base of entity.api.bases) {
    if (entity.api.except[base]?.includes('create')) continue
    app.post(`${base}/import/preview/`, { config: { ...config, openapi: routeDocs.importPreview(entity) } }, preview)
    app.post(`${base}/import/`, { config: { ...config, openapi: routeDocs.importRun(entity) } }, importFile)
    app.get<{ Params: { token: string } }>(`${base}/import/rejected/:token`, { config: { ...config, openapi: routeDocs.importRejected(entity) } }, rejected)
  }
}
