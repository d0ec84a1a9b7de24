import { i18n } from '../../i18n'
import { apiRequest } from '../api'
import { errorText } from '../errors'
import type { AnyEntity, Row } from '../entity-api'
import { ACTION_NOTICE_MS, notify } from '../ui/notifications'

/**
 * The Trash of an entity that has one (`trash` in the registry), as the server keeps it
 * (server/engine/trash-routes.ts): `trash/` lists its rows with when and by whom they were
 * deleted, `restore/` brings rows back — by ids, or by the batch a delete answered (the Undo)
 * — and `purge/` deletes them for good (`<PREFIX>_PURGE`).
 */

/** A row of the Trash: the list's columns, and when (ISO) and by whom (an e-mail) it was deleted. */
export type TrashRow = Row & { deleted_at: string; deleted_by: string | null }

export type TrashPage = { rows: TrashRow[]; page: number; size: number; totalPages: number; totalElements: number }

export type TrashParams = { page: number; size: number; q: string }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const numberOr = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback)

/** Whether the entity's deletes go to a Trash (and so may be restored). */
export const hasTrash = (entity: Pick<AnyEntity, 'trash'>): boolean => entity.trash !== undefined

/** The address of an entity's Trash screen: beside its list. */
export const trashPathOf = (entity: Pick<AnyEntity, 'ui'>): string => `${entity.ui.listPath}/trash`

export const trashKeys = {
  all: (name: string) => ['entity', name, 'trash'] as const,
  page: (name: string, params: TrashParams) => ['entity', name, 'trash', params] as const,
}

export async function fetchTrash(entity: AnyEntity, params: TrashParams, signal?: AbortSignal): Promise<TrashPage> {
  const body = await apiRequest(`${entity.api.base}/trash/`, { searchParams: { page: params.page, size: params.size, q: params.q.trim() || undefined }, signal })
  const envelope = isObject(body) ? body : {}
  const listed = envelope[entity.listKey]
  const rows = (Array.isArray(listed) ? listed : []).filter((r): r is TrashRow => isObject(r) && typeof r.id === 'number')
  return {
    rows,
    page: numberOr(envelope.page, params.page),
    size: numberOr(envelope.size, params.size),
    totalPages: numberOr(envelope.total_pages, 1),
    totalElements: numberOr(envelope.total_elements, rows.length),
  }
}

export type RestoreAnswer = { detail?: string; ids: number[] }

/** Restores rows by their ids, or every row a delete put in the Trash by its batch. */
export async function restoreFromTrash(entity: AnyEntity, target: { ids: readonly number[] } | { batch: string }): Promise<RestoreAnswer> {
  const body = await apiRequest(`${entity.api.base}/restore/`, { method: 'post', json: 'batch' in target ? { batch: target.batch } : { ids: [...target.ids] } })
  const answer = isObject(body) ? body : {}
  return {
    ...(typeof answer.detail === 'string' ? { detail: answer.detail } : {}),
    ids: Array.isArray(answer.ids) ? answer.ids.filter((x): x is number => typeof x === 'number') : [],
  }
}

export async function purgeFromTrash(entity: AnyEntity, ids: readonly number[]): Promise<string | undefined> {
  const body = await apiRequest(`${entity.api.base}/purge/`, { method: 'delete', json: { ids: [...ids] } })
  return isObject(body) && typeof body.detail === 'string' ? body.detail : undefined
}

/**
 * The success notice of a delete that went to the Trash, with an Undo that restores what that
 * delete took (by its batch): "2 Districts deleted. [Undo]". Undone, it says so — or why not
 * (a name taken meanwhile) — and calls `onRestored` (the list refreshes its rows there).
 * Without a batch (an entity with no Trash) it is the plain notice.
 */
export function offerUndoDelete(entity: AnyEntity, batch: string | undefined, count: number, options: { onRestored?: () => void | Promise<unknown> } = {}): number {
  const t = i18n.t.bind(i18n)
  const [one, other] = [t(`${entity.labelKey}.one`), t(`${entity.labelKey}.other`)]
  const params = { count, entity: count === 1 ? one : other, one, other }
  const undo = async () => {
    try {
      const { ids } = await restoreFromTrash(entity, { batch: batch! })
      notify({ kind: 'success', key: 'trash.restored', params: { count: ids.length, entity: ids.length === 1 ? one : other } })
      await options.onRestored?.()
    } catch (error) {
      notify({ kind: 'error', text: errorText(t, error) }, 0)
    }
  }
  if (!batch) return notify({ kind: 'success', key: 'list.deleted_records', params })
  return notify({ kind: 'success', key: 'trash.moved', params, action: { key: 'list.undo', run: () => void undo() } }, ACTION_NOTICE_MS)
}
