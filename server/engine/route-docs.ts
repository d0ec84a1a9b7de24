import type { RouteDoc } from './openapi'

/**
 * What the engine's per-entity routes beyond the contract's take and answer, for the OpenAPI
 * document (`config.openapi`): their bodies and answers in JSON Schema, their behaviour in words.
 */
const ids = { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 1000 }
const uuid = { type: 'string', format: 'uuid' }
const detail = { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] }

export const routeDocs = {
  bulkUpdate: {
    summary: 'Set fields of several records at once (one transaction)',
    description:
      'Exactly one of `ids` (the selected records) or `filter` (the list query parameters of `all/`: every record they hold, at most 10,000), and `values` (1–20 settable fields). Every record goes through the same validation, rules and audit as `update/`; if any refuses, nothing is written and the answer names each (`rows`). The audit entries share `batch`, which `undo/{batch}` takes.',
    body: {
      type: 'object',
      properties: { ids, filter: { type: 'object', additionalProperties: { type: 'string' } }, values: { type: 'object', minProperties: 1, maxProperties: 20 } },
      required: ['values'],
    },
    answer: { type: 'object', properties: { updated: { type: 'integer' }, batch: uuid }, required: ['updated', 'batch'] },
  },
  undo: {
    summary: 'Undo a bulk change',
    description: "Puts back every record of the batch to the audit's before values, in one transaction, if none has changed since (else 409 naming them); once only; the caller's own batch (an admin: anyone's).",
    answer: { type: 'object', properties: { restored: { type: 'integer' }, batch: uuid }, required: ['restored', 'batch'] },
  },
  trash: {
    summary: 'The records in the Trash',
    description: 'Paged like `all/` (`page`, `size`, `q`); each row adds `deleted_at` and `deleted_by`.',
    answer: { type: 'object', properties: { page: { type: 'integer' }, size: { type: 'integer' }, total_pages: { type: 'integer' }, total_elements: { type: 'integer' } } },
  },
  restore: {
    summary: 'Restore records from the Trash',
    description: '`ids`, or `batch` (what one delete moved there); one transaction; 409 when a unique value was taken meanwhile or a reference it holds is itself in the Trash.',
    body: { type: 'object', properties: { ids, batch: uuid } },
    answer: { type: 'object', properties: { detail: { type: 'string' }, ids: { type: 'array', items: { type: 'integer' } } }, required: ['detail', 'ids'] },
  },
  purge: {
    summary: 'Delete records in the Trash for good',
    description: 'With the reference checks of a delete; one transaction.',
    body: { type: 'object', properties: { ids }, required: ['ids'] },
    answer: detail,
  },
  export: {
    summary: 'The list as a file: every row, as CSV or Excel',
    description:
      '`format` `csv` (default) or `xlsx`, `columns=a,b` (default: every readable field), and the query parameters of `all/` (`q`, `ordering`, filters, `view`): every row they hold, streamed from one snapshot; headers, choices and Yes/No in the language of `Accept-Language`, references by their labels; `X-Total-Count` says how many rows come.',
  },
  importPreview: {
    summary: 'Read an import file: its columns, their matching fields, its first rows',
    description: 'Multipart `file` (CSV or XLSX, at most 25 MB and 100,000 rows) → `{columns, mapping, fields, sample, format}`.',
  },
  importRun: {
    summary: 'Import a file: check every row, or write them',
    description:
      'Multipart `file`, `mapping` (JSON `{column: field | null}`) and `mode`: `dry_run` (every row checked, nothing written), `all` (one transaction: all or nothing) or `batches` (500 rows a transaction; the rejected rows kept for `import/rejected/{token}`). Answered as NDJSON: `{"progress": {"rows", "total"}}` lines, then `{"result": {mode, rows, valid, created, rejected, errors, rejected_file?}}`.',
  },
  importRejected: {
    summary: "An import's rejected rows with their reasons (CSV)",
    description: 'For the user who ran the import, for an hour.',
  },
  search: {
    summary: 'Find records across every entity the caller may list',
    description: '`q` (2–100 characters) matched as `all/?q=` matches it, in every entity the caller may list, through each its scope; a few rows each, the entities with matches in the registry’s order.',
    answer: {
      type: 'object',
      properties: {
        results: {
          type: 'array',
          items: {
            type: 'object',
            properties: { entity: { type: 'string' }, total: { type: 'integer' }, rows: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' } } } } },
          },
        },
      },
    },
  },
} satisfies Record<string, RouteDoc>
