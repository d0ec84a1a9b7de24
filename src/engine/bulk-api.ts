import { z } from 'zod'
import { bulkSettableFields } from '../../schema/kit/bulk'
import { ApiError, bodyOf, isApiError } from './api'
import { openApiResponse } from './api-response'
import type { AnyEntity, ListParams } from './entity-api'

/**
 * The bulk update of any registry entity (server/engine/bulk-update.ts): one field set for
 * the selected records or for every record of the list's filter, all or nothing, and its
 * undo. Sent as a stream's answer (api-response.ts), which waits as long as a change of
 * 10,000 records takes, where the JSON client would stop at 30 s; a refusal names each record.
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

async function post(path: string, json: unknown): Promise<unknown> {
  try {
    return await bodyOf(await openApiResponse(path, { method: 'post', json }))
  } catch (error) {
    const refusal = isApiError(error) && error.status === 400 ? refusalSchema.safeParse(error.body) : undefined
    if (!refusal?.success) throw error
    const { detail, rows, labels } = refusal.data
    throw new BulkRefusalError(
      detail,
      Object.entries(rows).map(([id, reasons]) => ({ id: Number(id), label: labels?.[id] ?? `#${id}`, reasons })),
    )
  }
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
