import { z } from 'zod'
import { bulkSettableFields } from '../../schema/kit/bulk'
import { currentLanguage } from '../i18n'
import { ApiError, apiToken, bodyOf, errorOfBody, NETWORK_ERROR_STATUS, unauthorized } from './api'
import type { AnyEntity, ListParams } from './entity-api'

/**
 * The bulk update of any registry entity (server/engine/bulk-update.ts): one field set for
 * the selected records or for every record of the list's filter, all or nothing, and its
 * undo. Plain `fetch` with the session's token, as the JSON client throws away what a refusal
 * says beside its `detail` — here, each record's reasons — and would stop a long change at 30 s.
 */

/** What a bulk update reaches: the selected records, or every record of the list as filtered now (`count` of them). */
export type BulkTarget = { kind: 'ids'; ids: readonly number[] } | { kind: 'filter'; params: ListParams; count: number }

export const bulkCountOf = (target: BulkTarget): number => (target.kind === 'ids' ? target.ids.length : target.count)

/** Whether the entity's records can be changed in bulk at all (its generic update is served). */
export const canBulkUpdate = (entity: AnyEntity): boolean => entity.routes.update === 'generic' && !entity.rowsPerLine && bulkSettableFields(entity).length > 0

/** The list's query as the server reads a filter: its filter parameters, its search text, its view. */
export function filterOf(entity: AnyEntity, params: ListParams): Record<string, string> {
  const text = params.search?.trim() ?? ''
  return { ...(params.filters ?? {}), ...(text ? { q: text } : {}), ...(entity.listView ? { view: entity.listView.name } : {}) }
}

const updatedSchema = z.object({ updated: z.number(), batch: z.string() })
const restoredSchema = z.object({ restored: z.number(), batch: z.string() })
const refusalSchema = z.object({
  detail: z.string(),
  rows: z.record(z.string(), z.record(z.string(), z.array(z.string()))),
  labels: z.record(z.string(), z.string()).optional(),
})

/** One record that refused: its name and, by field (`detail`: the record as a whole), why. */
export type RecordRefusal = { id: number; label: string; reasons: Record<string, string[]> }

/** Nothing was changed: the records that refused, each with why (the server's words, in the user's language). */
export class BulkRefusalError extends ApiError {
  constructor(
    detail: string,
    readonly records: readonly RecordRefusal[],
  ) {
    super({ status: 400, detail })
    this.name = 'BulkRefusalError'
  }
}

const urlOf = (path: string) => `${globalThis.location?.origin ?? 'http://localhost'}${path}`

async function post(path: string, json: unknown): Promise<unknown> {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage(), Accept: 'application/json', 'Content-Type': 'application/json' }
  const token = apiToken()
  if (token) headers.Authorization = token
  // The change names the screen it was made on (audit_log.source).
  if (typeof location !== 'undefined') headers['X-Screen'] = location.pathname.slice(0, 300)
  let response: Response
  try {
    response = await fetch(urlOf(path), { method: 'POST', headers, body: JSON.stringify(json) })
  } catch (error) {
    throw new ApiError({ status: NETWORK_ERROR_STATUS, detail: error instanceof Error ? error.message : undefined })
  }
  const body = await bodyOf(response)
  if (response.ok) return body
  if (response.status === 401) unauthorized()
  const refusal = response.status === 400 ? refusalSchema.safeParse(body) : undefined
  if (refusal?.success) {
    const { detail, rows, labels } = refusal.data
    throw new BulkRefusalError(
      detail,
      Object.entries(rows).map(([id, reasons]) => ({ id: Number(id), label: labels?.[id] ?? `#${id}`, reasons })),
    )
  }
  throw errorOfBody(response.status, body)
}

/** Sets `values` on the target's records: how many, and the batch its undo names. */
export async function bulkUpdate(entity: AnyEntity, target: BulkTarget, values: Record<string, unknown>): Promise<z.infer<typeof updatedSchema>> {
  const reach = target.kind === 'ids' ? { ids: [...target.ids] } : { filter: filterOf(entity, target.params) }
  return updatedSchema.parse(await post(`${entity.api.base}/bulk_update/`, { ...reach, values }))
}

/** Puts back what a bulk update changed: how many records, and the undo's own batch. */
export async function undoBulkUpdate(entity: AnyEntity, batch: string): Promise<z.infer<typeof restoredSchema>> {
  return restoredSchema.parse(await post(`${entity.api.base}/undo/${encodeURIComponent(batch)}`, {}))
}
