import { z } from 'zod'
import { ApiError, NETWORK_ERROR_STATUS } from '../api'
import { openApiResponse, saveFile } from '../api-response'
import type { AnyEntity } from '../entity-api'

/**
 * The import routes of an entity (server/engine/import): the preview of a file, the import
 * (dry run, all or nothing, in batches) read as its NDJSON stream of progress and result,
 * and the download of the rejected rows. Each answer is read as it streams (api-response.ts),
 * which the JSON client cannot do.
 */
export const importFieldSchema = z.object({ name: z.string(), label: z.string(), required: z.boolean(), kind: z.string() })
export const importPreviewSchema = z.object({
  columns: z.array(z.string()),
  mapping: z.record(z.string(), z.string().nullable()),
  fields: z.array(importFieldSchema),
  sample: z.array(z.array(z.string())),
  format: z.enum(['csv', 'xlsx']),
})
export type ImportField = z.infer<typeof importFieldSchema>
export type ImportPreview = z.infer<typeof importPreviewSchema>
export type ColumnMapping = Record<string, string | null>

export const importModes = ['dry_run', 'all', 'batches'] as const
export type ImportMode = (typeof importModes)[number]

const rowErrorSchema = z.object({ row: z.number(), fields: z.record(z.string(), z.array(z.string())), detail: z.string().optional() })
export const importResultSchema = z.object({
  mode: z.enum(importModes),
  rows: z.number(),
  valid: z.number(),
  created: z.number(),
  rejected: z.number(),
  errors: z.array(rowErrorSchema),
  rejected_file: z.string().optional(),
})
export type ImportRowError = z.infer<typeof rowErrorSchema>
export type ImportResult = z.infer<typeof importResultSchema>
export type ImportProgress = { rows: number; total: number }

const lineSchema = z.union([
  z.object({ progress: z.object({ rows: z.number(), total: z.number() }) }),
  z.object({ result: importResultSchema }),
  z.object({ error: z.object({ detail: z.string() }) }),
])

const formOf = (file: File, fields: Record<string, string> = {}) => {
  const form = new FormData()
  // The fields first: the server reads them as the body streams in.
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  form.append('file', file)
  return form
}

export async function previewImport(entity: AnyEntity, file: File, signal?: AbortSignal): Promise<ImportPreview> {
  const response = await openApiResponse(`${entity.api.base}/import/preview/`, { method: 'post', body: formOf(file), signal })
  return importPreviewSchema.parse(await response.json())
}

/** Runs an import, telling its progress as it goes; answers its result (a failure after it began is thrown as an ApiError). */
export async function runImport(
  entity: AnyEntity,
  input: { file: File; mapping: ColumnMapping; mode: ImportMode; onProgress: (progress: ImportProgress) => void; signal?: AbortSignal },
): Promise<ImportResult> {
  const response = await openApiResponse(`${entity.api.base}/import/`, {
    method: 'post',
    body: formOf(input.file, { mode: input.mode, mapping: JSON.stringify(input.mapping) }),
    headers: { Accept: 'application/x-ndjson' },
    signal: input.signal,
  })
  let result: ImportResult | undefined
  const take = (text: string) => {
    if (text.trim() === '') return
    const line = lineSchema.parse(JSON.parse(text))
    if ('progress' in line) input.onProgress(line.progress)
    else if ('result' in line) result = line.result
    else throw new ApiError({ status: 500, detail: line.error.detail })
  }
  const reader = response.body?.getReader()
  if (reader) {
    const decoder = new TextDecoder()
    let pending = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      pending += decoder.decode(value, { stream: true })
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const text of lines) take(text)
    }
    take(pending + decoder.decode())
  } else {
    for (const text of (await response.text()).split('\n')) take(text)
  }
  if (!result) throw new ApiError({ status: NETWORK_ERROR_STATUS })
  return result
}

/** The rejected rows of an import, saved as a file (an authenticated download: a link alone carries no token). */
export async function downloadRejected(entity: AnyEntity, token: string): Promise<void> {
  const response = await openApiResponse(`${entity.api.base}/import/rejected/${encodeURIComponent(token)}`)
  saveFile(await response.blob(), `${entity.name}-rejected.csv`)
}
