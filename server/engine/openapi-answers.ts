import { z } from 'zod'
import type { FieldKind } from '../../schema/kit'
import type { undoBulkUpdate } from './bulk-update-undo'
import type { refusalBody } from './bulk-update-rows'
import type { GlobalSearchResult } from './global-search'
import type { HistoryPage } from './history'
import type { ImportField } from './import/fields'
import { importModes, type ImportResult } from './import/run'
import type { ImportFormat } from './import/upload'
import type { Schema } from './openapi-schemas'

/**
 * The answers of the engine's routes beyond the contract, as zod schemas the document renders
 * (`z.toJSONSchema`). Each is checked at compile time against the type the server's code
 * answers with, where that code names one: a field added to an answer and not here (or here
 * and not there) fails the type check, so the document cannot silently keep an old shape.
 * The test checks the real answers against the rendered schemas too.
 */

/** Compile-time: the two types are the same; `true` only type-checks when they are. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const sameType = <A, B>(isSame: Same<A, B>) => isSame

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a zod schema: as a client sends it (`input`) or the server answers it (`output`). */
export function fromZod(schema: z.ZodType, io: 'input' | 'output' = 'output'): Schema {
  const known = rendered.get(schema)?.[io]
  if (known) return known
  const { $schema: _dialect, ...out } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Schema
  const clean = withoutSafeIntegerBounds(out) as Schema
  rendered.set(schema, { ...rendered.get(schema), [io]: clean })
  return clean
}
const rendered = new WeakMap<z.ZodType, Partial<Record<'input' | 'output', Schema>>>()

/** zod bounds every integer by JavaScript's safe range: noise to a reader, and no limit the server sets. */
function withoutSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if ((k === 'maximum' && v === Number.MAX_SAFE_INTEGER) || (k === 'minimum' && v === Number.MIN_SAFE_INTEGER)) continue
    out[k] = withoutSafeIntegerBounds(v)
  }
  return out
}

const id = z.number().int().min(1)
const count = z.number().int().min(0)
/** A batch of audit entries: a UUID, as `randomUUID` makes them and `undo/` derives them. */
const batch = z.guid().describe('The batch of audit entries the change wrote: what `undo/{batch}` takes.')

// A record's history (history.ts, history-present.ts).
const historyLine = z
  .object({
    field: z.string().describe('The lines field.'),
    position: z.number().int().nullable().describe('Its place (1 for the first) after the change.'),
    from: z.number().int().optional().describe('Its place before, when it moved.'),
    label: z.string().nullable().describe('Its name then.'),
  })
  .describe("A document's line the entry is of.")

const pair = z.tuple([z.unknown(), z.unknown()]).describe('[before, after]')

export const historyEntry = z.object({
  id,
  at: z.iso.datetime(),
  actor: z.string().nullable().describe('The username of who did it; null for the system.'),
  actor_id: z.number().int().nullable(),
  entity: z.string(),
  entity_id: id,
  part: z.enum(['own', 'line', 'related']).describe("Whose entry: the record's own, one of its document's lines, or a row of a related list."),
  label: z.string().nullable().describe("The row's name, for an entry of another row than the record."),
  action: z.string().describe('create, update, delete, restore, purge, mail, or the name of the action that moved it.'),
  source: z.string().nullable().describe('Where it was made: the screen (`/apps/…`) or the route (`PUT /x/api/v1/x/update/:id`); null when the system made it.'),
  batch: z.string().nullable().describe('The bulk operation it was part of.'),
  changes: z.record(z.string(), pair).describe('`{field: [before, after]}`; a secret as `***`; what an action was given under `_input`.'),
  labels: z.record(z.string(), pair).describe('The names of the rows the changed references point at, `{field: [before, after]}`.'),
  masked: z.array(z.string()).describe('Fields whose values are never shown (secrets): only that they changed.'),
  line: historyLine.nullable(),
})

export const historyPage = z.object({
  history: z.array(historyEntry).describe('Newest first.'),
  next: z.number().int().nullable().describe('The `before` of the page after; null on the last.'),
})
sameType<z.infer<typeof historyPage>, HistoryPage>(true)

// Bulk change and its undo (bulk-update.ts, bulk-update-undo.ts, bulk-update-rows.ts).
export const bulkUpdated = z.object({ updated: count.describe('How many records were changed.'), batch })

export const bulkUndone = z.object({ restored: count.describe('How many records were put back.'), batch: batch.describe("The undo's own batch (undoing it redoes the change).") })
sameType<z.infer<typeof bulkUndone>, Awaited<ReturnType<typeof undoBulkUpdate>>>(true)

export const bulkRefusal = z
  .object({
    detail: z.string(),
    rows: z.record(z.string(), z.record(z.string(), z.array(z.string()))).describe('By record id: what is wrong, a field map (`detail` for what is no field\'s).'),
    labels: z.record(z.string(), z.string()).describe("By record id: the record's name."),
  })
  .describe('Records refused the change: nothing was written.')
sameType<z.infer<typeof bulkRefusal>, ReturnType<typeof refusalBody>>(true)

// The Trash (trash-routes.ts).
export const restored = z.object({ detail: z.string(), ids: z.array(id).describe('The records put back.') })

// The search across entities (global-search.ts).
export const globalSearch = z.object({
  results: z
    .array(
      z.object({
        entity: z.string(),
        total: count.describe('How many records of the entity match.'),
        rows: z.array(z.object({ id, label: z.string() })).describe('The first few.'),
      }),
    )
    .describe('The entities with matches, in the registry’s order.'),
})
sameType<z.infer<typeof globalSearch>['results'][number], GlobalSearchResult>(true)

// Import (import/routes.ts, import/run.ts).
const fieldKinds = ['text', 'email', 'phone', 'url', 'integer', 'decimal', 'boolean', 'date', 'datetime', 'enum', 'ref', 'refs', 'file', 'json', 'password', 'lines'] as const
sameType<(typeof fieldKinds)[number], FieldKind>(true)
const importFormats = ['csv', 'xlsx'] as const
sameType<(typeof importFormats)[number], ImportFormat>(true)

const importField = z.object({ name: z.string(), label: z.string(), required: z.boolean(), kind: z.enum(fieldKinds) })
sameType<z.infer<typeof importField>, ImportField>(true)

export const importPreview = z.object({
  columns: z.array(z.string()).describe("The file's columns, as its first row names them."),
  mapping: z.record(z.string(), z.string().nullable()).describe('Each column and the field it names (by its name or its label in any language), or null.'),
  fields: z.array(importField).describe('The fields an import may fill.'),
  sample: z.array(z.array(z.string())).describe('Its first rows, a text a cell.'),
  format: z.enum(importFormats),
})

const importResult = z.object({
  mode: z.enum(importModes),
  rows: count,
  valid: count,
  created: count,
  rejected: count,
  errors: z
    .array(z.object({ row: z.number().int().min(1).describe("The row's line in the file."), fields: z.record(z.string(), z.array(z.string())), detail: z.string().optional() }))
    .describe('The first 1,000 rows refused, and why.'),
  rejected_file: z.string().optional().describe('The token of `import/rejected/{token}` (`batches`, when rows were refused).'),
})
sameType<z.infer<typeof importResult>, ImportResult>(true)

export const importLine = z.union([
  z.object({ progress: z.object({ rows: count, total: count }) }).describe('How far it is.'),
  z.object({ result: importResult }).describe('The last line: what was done.'),
  z.object({ error: z.object({ detail: z.string() }) }).describe('The last line, when the run stopped.'),
])

/** The answers several routes share, as components of the document (by name). */
export const answerSchemas = { BulkUpdated: bulkUpdated, BulkUndone: bulkUndone, BulkRefusal: bulkRefusal, Restored: restored, GlobalSearch: globalSearch, ImportPreview: importPreview, ImportLine: importLine } as const
