import { stringify } from 'csv-stringify/sync'
import type { z } from 'zod'
import type { Entity, Fields, Message } from '../../schema/kit'
import { bulkSettableFields, MAX_BULK_FIELDS } from '../../schema/kit/bulk'
import { messageFor } from '../i18n'
import type { Row } from '../db/types'
import { exportColumnNames, exportColumns, exportableNames, MAX_EXPORT_COLUMNS, type ExportColumn } from './export-columns'
import { CSV_TYPE } from './export-csv'
import { XLSX_TYPE } from './export-xlsx'
import { autoMapping, importableFieldNames, importFields, MAX_COLUMNS } from './import/fields'
import { importModes, MAX_ERRORS } from './import/run'
import { MAX_IMPORT_MB } from './import/upload'
import type { Registry } from './list-query'
import type { RouteDoc } from './openapi'
import { bulkRefusal, bulkUndone, bulkUpdated, fromZod, globalSearch, importLine, importPreview, restored } from './openapi-answers'
import { EXAMPLE_ID, exampleInput, exampleRecord, exampleValue } from './openapi-examples'
import { listParameters, pageParameters, type Parameter } from './openapi-params'
import { errorRef, json, type MediaType, type Response } from './openapi-responses'
import { en, entityLabel, fieldInput, idList, ref, rowDiffers, schemaNames, type Schema } from './openapi-schemas'

/**
 * What the engine's per-entity routes beyond the contract take and answer, for the OpenAPI
 * document (`config.openapi`): each route's query parameters, body and answers, typed by the
 * entity (its filters, its columns, its settable fields, its rows) and each with an example —
 * the server's zod schemas rendered where it has them (openapi-answers.ts), its own functions
 * (the import's column matching, the export's columns) making the examples. A route passes
 * its zod schema and limits in, so that nothing here is written twice.
 */
type AnyEntity = Entity<string, Fields>

const say = (message: Message) => messageFor('en', message)
const detailOf = (message: Message) => ({ detail: say(message) })
const plural = (entity: AnyEntity) => `${entity.labelKey}.other`

/** The batch the examples name (a UUID, as a bulk change or a delete answers it). */
export const EXAMPLE_BATCH = '6f1c2d3e-4b5a-4c8e-9a3b-0b7e4c1a5d2f'
/** The token the examples name (a UUID, as an import's result gives it). */
export const EXAMPLE_TOKEN = '3f2a1c9e-8b7d-4e6f-9a5b-1c2d3e4f5a6b'
const STAMP = '2026-01-15T09:00:00.000Z'

const detailAnswer = (description: string, message: Message): Response => ({ description, content: json(ref('Detail'), detailOf(message)) })
const notFound = (description: string, message: Message): Response => detailAnswer(description, message)
const conflict = (description: string, message: Message): Response => detailAnswer(description, message)

const rowSchema = (entity: AnyEntity) => (rowDiffers(entity) ? ref(schemaNames(entity).row) : ref(schemaNames(entity).record))

/** What a list's envelope holds: the rows under the entity's list key, and the page. */
const envelope = (entity: AnyEntity, row: Schema): Schema => ({
  type: 'object',
  properties: {
    [entity.listKey]: { type: 'array', items: row },
    page: { type: 'integer', minimum: 1 },
    size: { type: 'integer', minimum: 1, maximum: 100 },
    total_pages: { type: 'integer', minimum: 1 },
    total_elements: { type: 'integer', minimum: 0 },
    total_is_lower_bound: { type: 'boolean', description: 'Present (true) when a text search was counted only so far: the list holds more than total_elements.' },
  },
  required: [entity.listKey, 'page', 'size', 'total_pages', 'total_elements'],
})

/** A body of ids, as `delete_multiple/` takes it. */
const idsBody = { required: true, content: json(ref('Ids'), { ids: [EXAMPLE_ID] }) }

// ---------------------------------------------------------------------------------------------
// Export

/** Cells as the export writes them (export-csv.ts): text quoted, numbers, days and instants as they are. */
function csvOf(columns: readonly ExportColumn[], rows: readonly Row[]): string {
  const text = (value: string) => ({ text: value })
  const records = [columns.map((c) => text(c.label)), ...rows.map((row) => columns.map((c) => {
    const value = c.cell(row)
    return value === null ? null : c.kind === 'text' ? text(String(value)) : value
  }))]
  return `\ufeff${stringify(records, { record_delimiter: 'windows', cast: { object: (value) => ({ value: String((value as { text: string }).text), quoted: true }) } })}`
}

function exportDoc(entity: AnyEntity): RouteDoc {
  const allowed = exportableNames(entity)
  const columns = exportColumnNames(entity, undefined).slice(0, 3)
  const example = csvOf(exportColumns(entity, columns, 'en'), [exampleRecord(entity, 'row') as Row])
  // The export reads `format` and `columns` first: a filter of the same name is not one of its parameters.
  const list = listParameters(entity, false).filter((p) => p.name !== 'format' && p.name !== 'columns')
  const parameters: Parameter[] = [
    { name: 'format', in: 'query', description: 'The file: CSV (UTF-8, for Excel) or an Excel workbook.', schema: { type: 'string', enum: ['csv', 'xlsx'], default: 'csv' }, example: 'csv' },
    {
      name: 'columns',
      in: 'query',
      description: `The columns, in their order (comma-separated, at most ${MAX_EXPORT_COLUMNS}); default: the id and every readable stored field.`,
      schema: { type: 'array', items: { type: 'string', enum: allowed }, minItems: 1, maxItems: MAX_EXPORT_COLUMNS },
      style: 'form',
      explode: false,
      example: columns,
    },
    ...list,
  ]
  return {
    entity: entity.name,
    route: 'export',
    summary: `${entityLabel(entity.name, 'other')} as a file: every row, as CSV or Excel`,
    description:
      "`format` `csv` (default) or `xlsx`, `columns` (default: the id and every readable stored field), and the list's query parameters (`q`, `ordering`, `view`, its filters; one it does not know is a 400, never an export of everything): every row they hold, streamed from one snapshot; headers, choices and Yes/No in the language of `Accept-Language`, references by their labels. `X-Total-Count` says how many rows come (a HEAD asks only that).",
    parameters,
    responses: {
      200: {
        description: 'The file, streamed.',
        headers: {
          'X-Total-Count': { description: 'How many rows the file holds.', schema: { type: 'integer', minimum: 0 } },
          'Content-Disposition': { description: `attachment; filename="${entity.listKey}-<day>.<format>"`, schema: { type: 'string' } },
        },
        content: {
          [CSV_TYPE]: { schema: { type: 'string', description: 'A header of the columns\' labels, then a line a row; text quoted and made inert (a leading `\'` before what a spreadsheet would read as a formula).' }, example },
          [XLSX_TYPE]: { schema: { type: 'string', contentMediaType: XLSX_TYPE } },
        },
      },
      429: { description: 'As many exports as the server runs at once are running: try again after `Retry-After` seconds.', headers: { 'Retry-After': { schema: { type: 'integer' } } }, content: json(ref('Detail'), detailOf({ key: 'detail.export_busy' })) },
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Import

/** A cell as a person writes the value in a sheet: a reference by the name of the row it points at (as the examples name row 1). */
function cellOf(entity: AnyEntity, name: string, value: unknown): string {
  const field = entity.fields[name]!
  const named = (id: unknown) => `${entityLabel(field.ref!.target)} ${String(id)}`
  if (field.kind === 'ref') return named(value)
  if (field.kind === 'refs' && Array.isArray(value)) return value.map(named).join(', ')
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)
}

/** A file of one row the import takes: a column per field the create example gives, headed by the field's label. */
function importExample(entity: AnyEntity): ImportExample {
  const known = importExamples.get(entity)
  if (known) return known
  const made = makeImportExample(entity)
  importExamples.set(entity, made)
  return made
}
type ImportExample = { file: string; columns: string[]; cells: string[]; mapping: Record<string, string | null> }
const importExamples = new WeakMap<AnyEntity, ImportExample>()

function makeImportExample(entity: AnyEntity): ImportExample {
  const input = exampleInput(entity, 'create', entity.name)
  const names = importableFieldNames(entity).filter((n) => input[n] !== undefined && input[n] !== null)
  const columns = names.map((n) => en(entity.fieldLabelKey(n)))
  const cells = names.map((n) => cellOf(entity, n, input[n]))
  const file = stringify([columns, cells], { record_delimiter: 'windows' })
  const mapping = autoMapping(entity, columns)
  return { file, columns, cells, mapping }
}

const fileProperty = (description: string): Schema => ({ type: 'string', contentMediaType: 'application/octet-stream', description })
const FILE_TYPES = `text/csv, ${XLSX_TYPE}`
const FILE_WORDS = `CSV or XLSX, at most ${MAX_IMPORT_MB} MB and 100,000 rows; its first row names the columns`

function importPreviewDoc(entity: AnyEntity): RouteDoc {
  const { file, columns, cells, mapping } = importExample(entity)
  const form: MediaType = {
    schema: { type: 'object', properties: { file: fileProperty(`The file (${FILE_WORDS}).`) }, required: ['file'] },
    example: { file },
    encoding: { file: { contentType: FILE_TYPES } },
  }
  const answer = { columns, mapping, fields: importFields(entity, 'en'), sample: [cells], format: 'csv' as const } satisfies z.infer<typeof importPreview>
  return {
    entity: entity.name,
    route: 'import_preview',
    summary: `Read a file to import as ${entityLabel(entity.name, 'other')}: its columns, the fields they name, its first rows`,
    description: 'Each column is matched to the field it names, by its name or its label in any language of the app (case, accents, spaces and underscores aside); the file is read, nothing written.',
    requestBody: { required: true, content: { 'multipart/form-data': form } },
    responses: { 200: { description: "The file's columns, their fields and its first rows (at most 5).", content: json(ref('ImportPreview'), answer) } },
  }
}

function importRunDoc(entity: AnyEntity): RouteDoc {
  const { file, mapping } = importExample(entity)
  const form: MediaType = {
    schema: {
      type: 'object',
      properties: {
        file: fileProperty(`The file (${FILE_WORDS}).`),
        mapping: { type: 'string', description: `JSON \`{column: field | null}\` (at most ${MAX_COLUMNS} columns): the field each column fills, as \`import/preview/\` proposes it; a column left out or null is not imported.` },
        mode: { type: 'string', enum: [...importModes], description: '`dry_run`: every row checked, nothing written; `all`: one transaction, all or nothing; `batches`: 500 rows a transaction, the rejected rows kept for `import/rejected/{token}`.' },
      },
      required: ['file', 'mapping', 'mode'],
    },
    example: { file, mapping: JSON.stringify(mapping), mode: 'dry_run' },
    encoding: { file: { contentType: FILE_TYPES } },
  }
  const result: z.infer<typeof importLine> = { result: { mode: 'dry_run', rows: 1, valid: 1, created: 0, rejected: 0, errors: [] } }
  const refused: z.infer<typeof importLine> = {
    result: { mode: 'batches', rows: 2, valid: 1, created: 1, rejected: 1, errors: [{ row: 3, fields: { [importableFieldNames(entity)[0] ?? 'name']: [say({ key: 'validation.required', params: { label: 'field.name' } })] } }], rejected_file: EXAMPLE_TOKEN },
  }
  return {
    entity: entity.name,
    route: 'import',
    summary: `Import a file as ${entityLabel(entity.name, 'other')}: check every row, or create them`,
    description: `\`mode\` \`dry_run\` (every row checked, nothing written), \`all\` (one transaction: all or nothing) or \`batches\` (500 rows a transaction; the rejected rows kept for \`import/rejected/{token}\`). Every row made a record by the engine's create (the same validation, rules, numbering, access and audit as \`create/\`), a row refused rolled back alone. What is wrong with the request itself (its file, mapping or mode) is a 400 before any row is read; then the answer is NDJSON, a JSON value a line: \`{"progress": {rows, total}}\` as it goes, and last \`{"result": …}\` (its \`errors\` the first ${MAX_ERRORS.toLocaleString('en')} rows refused) or \`{"error": {detail}}\`.`,
    requestBody: { required: true, content: { 'multipart/form-data': form } },
    responses: {
      200: {
        description: 'NDJSON: each line one of these.',
        content: {
          'application/x-ndjson': {
            schema: ref('ImportLine'),
            examples: {
              progress: { summary: 'As it goes', value: { progress: { rows: 0, total: 1 } } },
              result: { summary: 'The last line of a dry run', value: result },
              refused: { summary: 'The last line of an import in batches that refused a row', value: refused },
              error: { summary: 'The last line of a run that stopped', value: { error: detailOf({ key: 'detail.statement_timeout' }) } },
            },
          },
        },
      },
    },
  }
}

function importRejectedDoc(entity: AnyEntity): RouteDoc {
  const columns = importExample(entity).columns
  const example = `\ufeff${stringify([[...columns, say({ key: 'detail.import_reasons_column' })]], { record_delimiter: 'windows' })}`
  return {
    entity: entity.name,
    route: 'import_rejected',
    summary: "An import's rejected rows, with why (CSV)",
    description: "The rows an import in `batches` refused, their cells as the file had them and a last column of reasons, so that the file can be corrected and imported again: for the user who ran the import, for an hour.",
    parameters: [{ name: 'token', in: 'path', required: true, description: "The result's `rejected_file`.", schema: { type: 'string', format: 'uuid' }, example: EXAMPLE_TOKEN }],
    responses: {
      200: { description: 'The rejected rows.', content: { 'text/csv': { schema: { type: 'string' }, example } } },
      404: notFound('No such file for the caller (another user\'s, another entity\'s, or older than an hour).', { key: 'detail.import_rejected_gone' }),
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Bulk change and its undo

/** A value other than `value` the field takes: what a bulk change would set it to. */
function otherValue(entity: AnyEntity, name: string, value: unknown): unknown {
  const field = entity.fields[name]!
  if (field.kind === 'boolean') return value !== true
  if (field.kind === 'enum') return field.options?.find((o) => o !== value) ?? value
  if (field.kind === 'text' && typeof value === 'string' && !field.format && !field.markup) {
    const changed = `${value} (changed)`
    return changed.length <= (field.maxLength ?? 255) ? changed : value
  }
  return value
}

/**
 * What a bulk change's example sets: a settable field that names no other row (row 1 of
 * another entity may not exist) — a text first, then a choice or a flag (which may be a
 * status or an account's being active: not what an example should flip) — to another value
 * than the create example gives it.
 */
function bulkExampleValues(entity: AnyEntity): Record<string, unknown> | undefined {
  const settable = bulkSettableFields(entity)
  const rank = (n: string) => ['text', 'enum', 'boolean'].indexOf(entity.fields[n]!.kind) + 1 || 4 + Number(entity.fields[n]!.kind === 'ref')
  const name = [...settable].sort((a, b) => rank(a) - rank(b))[0]
  if (name === undefined) return undefined
  const input = exampleInput(entity, 'create', entity.name)
  const value = name in input ? input[name] : (exampleValue(entity.fields[name]!, name, entity.name) ?? null)
  return { [name]: otherValue(entity, name, value) }
}

export type BulkLimits = { readonly body: z.ZodType; readonly maxRows: number }

function bulkUpdateDoc(entity: AnyEntity, limits: BulkLimits): RouteDoc {
  const derived = fromZod(limits.body, 'input')
  const properties = derived.properties as Record<string, Schema>
  const settable = bulkSettableFields(entity)
  const filterNames = listParameters(entity, false).map((p) => p.name)
  const body: Schema = {
    ...derived,
    properties: {
      ids: { ...idList, description: 'The records to change.' },
      filter: { ...properties.filter, propertyNames: { enum: filterNames }, description: `The list's query parameters (as \`all/\` takes them: \`q\`, \`view\`, its filters): every record they hold, at most ${limits.maxRows.toLocaleString('en')}.` },
      values: {
        ...properties.values,
        propertyNames: { enum: settable },
        properties: Object.fromEntries(settable.map((n) => [n, fieldInput(entity.fields[n]!, en(entity.fieldLabelKey(n)), 'update')])),
        additionalProperties: false,
        minProperties: 1,
        maxProperties: MAX_BULK_FIELDS,
        description: `The fields to set (1 to ${MAX_BULK_FIELDS}), each to one value: those a bulk change may set (not read-only, computed, unique, files, lines or secrets).`,
      },
    },
    oneOf: [{ required: ['ids'] }, { required: ['filter'] }],
  }
  const values = bulkExampleValues(entity)
  const refusedRows = { [String(EXAMPLE_ID)]: Object.fromEntries(Object.keys(values ?? { name: null }).map((n) => [n, [say({ key: 'validation.required', params: { label: entity.fieldLabelKey(n) } })]])) }
  return {
    entity: entity.name,
    route: 'bulk_update',
    summary: `Set fields of several ${entityLabel(entity.name, 'other')} at once (one transaction)`,
    description:
      `Exactly one of \`ids\` or \`filter\`, and \`values\`. Every record goes through the same validation, rules, workflow locks, hooks and audit as \`update/\`; if any refuses, nothing is written and the answer names each (\`rows\`). The audit entries share \`batch\`, which \`undo/{batch}\` takes.`,
    requestBody: { required: true, content: json(body, ...(values ? [{ ids: [EXAMPLE_ID], values }] : [])) },
    responses: {
      200: { description: 'Changed: how many, and the batch to undo it by.', content: json(ref('BulkUpdated'), { updated: 1, batch: EXAMPLE_BATCH } satisfies z.infer<typeof bulkUpdated>) },
      400: {
        description: 'Refused: a record that refuses the change (`rows`, nothing written), a field that may not be set (a field map), or a body, filter or count out of bounds (`detail`).',
        content: {
          'application/json': {
            schema: { anyOf: [ref('BulkRefusal'), ref('FieldErrors'), ref('Detail')] },
            examples: {
              refused: { summary: 'A record refused', value: { detail: say({ key: 'detail.bulk_refused', params: { count: 1 } }), rows: refusedRows, labels: { [String(EXAMPLE_ID)]: `${entityLabel(entity.name)} ${EXAMPLE_ID}` } } satisfies z.infer<typeof bulkRefusal> },
              body: { summary: 'A body out of bounds', value: detailOf({ key: 'detail.bulk_body', params: { max: MAX_BULK_FIELDS } }) },
            },
          },
        },
      },
    },
  }
}

function undoDoc(entity: AnyEntity): RouteDoc {
  return {
    entity: entity.name,
    route: 'undo',
    summary: `Undo a bulk change of ${entityLabel(entity.name, 'other')}`,
    description:
      "Puts every record of the batch back to the values the audit log says it had before, through the engine's update, in one transaction — only while each still holds what the batch wrote (else a 409 naming those changed since); once. The caller's own batch (a 403 for another's; an admin may undo anyone's). A delete's batch is the Trash's to restore.",
    parameters: [{ name: 'batch', in: 'path', required: true, description: "The bulk change's `batch`.", schema: { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' }, example: EXAMPLE_BATCH }],
    responses: {
      200: { description: 'Put back.', content: json(ref('BulkUndone'), { restored: 1, batch: EXAMPLE_BATCH } satisfies z.infer<typeof bulkUndone>) },
      400: { description: 'Not a batch, or a record refuses to be put back (as `bulk_update/` says it).', content: json({ anyOf: [ref('BulkRefusal'), ref('Detail')] }, detailOf({ key: 'detail.bulk_batch' })) },
      404: notFound(`No bulk change of ${entityLabel(entity.name, 'other')} with this batch.`, { key: 'detail.bulk_unknown', params: { batch: EXAMPLE_BATCH } }),
      409: conflict('Undone already, changed since, or no bulk change (a delete, a create).', { key: 'detail.bulk_undone' }),
    },
  }
}

// ---------------------------------------------------------------------------------------------
// The Trash

function trashDoc(entity: AnyEntity): RouteDoc {
  const trashed: Schema = {
    allOf: [
      rowSchema(entity),
      {
        type: 'object',
        properties: { deleted_at: { type: 'string', format: 'date-time' }, deleted_by: { type: ['string', 'null'], description: 'The e-mail of who deleted it.' } },
        required: ['deleted_at', 'deleted_by'],
      },
    ],
  }
  const row = { ...exampleRecord(entity, 'row'), deleted_at: STAMP, deleted_by: 'admin@example.com' }
  return {
    entity: entity.name,
    route: 'trash',
    summary: `The ${entityLabel(entity.name, 'other')} in the Trash`,
    description: 'Newest deleted first, within the caller\'s scope, paged as `all/`; `q` searches as the list does.',
    parameters: [...pageParameters, { name: 'q', in: 'query', description: 'Any searchable field contains this text (at most 200 characters are read).', schema: { type: 'string' } }],
    responses: { 200: { description: `A page of the ${entityLabel(entity.name, 'other')} in the Trash.`, content: json(envelope(entity, trashed), { [entity.listKey]: [row], page: 1, size: 10, total_pages: 1, total_elements: 1 }) } },
  }
}

function restoreDoc(entity: AnyEntity, batchBody: z.ZodType): RouteDoc {
  const batch = fromZod(batchBody, 'input')
  const byBatch = { ...batch, description: 'Everything one delete moved to the Trash: the `batch` its answer gave.' }
  return {
    entity: entity.name,
    route: 'restore',
    summary: `Restore ${entityLabel(entity.name, 'other')} from the Trash`,
    description: '`ids`, or `batch`; in one transaction. A 409 when a unique value was taken meanwhile or a reference it holds is itself in the Trash.',
    requestBody: { required: true, content: json({ oneOf: [ref('Ids'), byBatch] }, { ids: [EXAMPLE_ID] }) },
    responses: {
      200: { description: 'Restored.', content: json(ref('Restored'), { ...detailOf({ key: 'detail.restore_done', params: { label: plural(entity), ids: String(EXAMPLE_ID) } }), ids: [EXAMPLE_ID] } satisfies z.infer<typeof restored>) },
      404: notFound('A record not in the Trash (or not the caller\'s to reach), or a batch that put none there.', { key: 'detail.trash_missing', params: { label: plural(entity), ids: String(EXAMPLE_ID) } }),
      409: conflict('A unique value is taken, or a reference it holds is in the Trash.', { key: 'detail.restore_taken', params: { entity: entity.labelKey, name: `${entityLabel(entity.name)} ${EXAMPLE_ID}`, label: 'field.name', value: 'Sample' } }),
    },
  }
}

function purgeDoc(entity: AnyEntity): RouteDoc {
  return {
    entity: entity.name,
    route: 'purge',
    summary: `Delete ${entityLabel(entity.name, 'other')} in the Trash for good`,
    description: 'With the checks of a delete (what still refers to it refuses it) and what cascades deleted with it; one transaction, audited as `purge`.',
    requestBody: idsBody,
    responses: {
      200: detailAnswer('Deleted for good.', { key: 'detail.purge_done', params: { label: plural(entity), ids: String(EXAMPLE_ID) } }),
      404: notFound('A record not in the Trash (or not the caller\'s to reach).', { key: 'detail.trash_missing', params: { label: plural(entity), ids: String(EXAMPLE_ID) } }),
      409: errorRef('Conflict'),
    },
  }
}

// ---------------------------------------------------------------------------------------------
// The search across entities

export type SearchLimits = { readonly min: number; readonly max: number; readonly rows: number }

function searchDoc(registry: Registry, limits: SearchLimits): RouteDoc {
  const first = registry.find((e) => !e.isLine && e.searchFields.length > 0)
  const example: z.infer<typeof globalSearch> = { results: first ? [{ entity: first.name, total: 1, rows: [{ id: EXAMPLE_ID, label: `Sample ${entityLabel(first.name)}` }] }] : [] }
  return {
    route: 'search',
    summary: 'Find records across every entity the caller may list',
    description: `\`q\` matched as \`all/?q=\` matches it, in every entity the caller may list, each through its scope: the first ${limits.rows} rows of each entity with matches, in the registry's order.`,
    parameters: [{ name: 'q', in: 'query', required: true, description: `The text (${limits.min} to ${limits.max} characters, spaces around it aside).`, schema: { type: 'string', minLength: limits.min, maxLength: limits.max }, example: 'Sample' }],
    responses: { 200: { description: 'The entities with matches.', content: json(ref('GlobalSearch'), example) } },
  }
}

/** Each route's words, parameters, body and answers, made when the document is first asked for. */
export const routeDocs = {
  export: (entity: AnyEntity) => () => exportDoc(entity),
  importPreview: (entity: AnyEntity) => () => importPreviewDoc(entity),
  importRun: (entity: AnyEntity) => () => importRunDoc(entity),
  importRejected: (entity: AnyEntity) => () => importRejectedDoc(entity),
  bulkUpdate: (entity: AnyEntity, limits: BulkLimits) => () => bulkUpdateDoc(entity, limits),
  undo: (entity: AnyEntity) => () => undoDoc(entity),
  trash: (entity: AnyEntity) => () => trashDoc(entity),
  restore: (entity: AnyEntity, batchBody: z.ZodType) => () => restoreDoc(entity, batchBody),
  purge: (entity: AnyEntity) => () => purgeDoc(entity),
  search: (registry: Registry, limits: SearchLimits) => () => searchDoc(registry, limits),
} satisfies Record<string, (...args: never[]) => () => RouteDoc>
