import type { Entity, Fields } from '../../schema/kit'
import { listRequestOf, recordPathOf, type ListParams } from '../../schema/kit/list-view'
import { apiRequest } from './api'

/**
 * The contract's routes for any registry entity (api-contract §2.1): one set of functions,
 * no per-entity code. List rows nest references as `{id, name}`; `{id}` is flat.
 */
export type AnyEntity = Entity<string, Fields>

export type Row = { id: number } & Record<string, unknown>

/** `filters`: the server's filter parameters (`city=5`, `emp_join_date_after=2024-01-01`), answered by `search/`. */
export type { ListParams } from '../../schema/kit/list-view'

/** `totalIsLowerBound`: the list holds more than `totalElements` (a text search the server counted only so far). */
export type ListPage = { rows: Row[]; page: number; size: number; totalPages: number; totalElements: number; totalIsLowerBound?: boolean }

export type Payload = Record<string, unknown> | FormData

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function rowsOf(value: unknown): Row[] {
  if (!Array.isArray(value)) return []
  return value.filter((r): r is Row => isObject(r) && typeof r.id === 'number')
}

const numberOr = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback)

/** A page of a list (schema/kit/list-view.ts `listRequestOf`: `all/`, `q`, `search/` with filters). */
export async function fetchList(entity: AnyEntity, params: ListParams, signal?: AbortSignal): Promise<ListPage> {
  const { path, searchParams } = listRequestOf(entity, params)
  const body = await apiRequest(path, { searchParams, signal })
  const envelope = isObject(body) ? body : {}
  const rows = rowsOf(envelope[entity.listKey])
  return {
    rows,
    page: numberOr(envelope.page, params.page),
    size: numberOr(envelope.size, params.size),
    totalPages: numberOr(envelope.total_pages, 1),
    totalElements: numberOr(envelope.total_elements, rows.length),
    ...(envelope.total_is_lower_bound === true ? { totalIsLowerBound: true } : {}),
  }
}

/** Equality conditions on a list (`{ city: 5 }`): `search/?city=5`. */
export type OptionFilters = Readonly<Record<string, string | number>>

/**
 * Options for a reference select: the first page, or those any searchable field of which
 * matches (`q`); with filters, only the rows that meet them (a district's police stations).
 */
export async function fetchOptions(entity: AnyEntity, text: string, size: number, signal?: AbortSignal, filters: OptionFilters = {}): Promise<Row[]> {
  const query = text.trim()
  const isFiltered = Object.keys(filters).length > 0
  const body = await apiRequest(`${entity.api.base}/${isFiltered ? 'search' : 'all'}/`, { searchParams: { ...filters, q: query || undefined, page: 1, size }, signal })
  return isObject(body) ? rowsOf(body[entity.listKey]) : []
}

/** One record; a document kept one row per line (a voucher) whole, by the id of any of its rows. */
export async function fetchRecord(entity: AnyEntity, id: number | string, signal?: AbortSignal): Promise<Row> {
  const body = await apiRequest(recordPathOf(entity, id), { signal })
  if (!isObject(body) || typeof body.id !== 'number') throw new Error(`Unexpected answer for ${entity.name} ${id}`)
  return body as Row
}

const bodyOptions = (payload: Payload) => (payload instanceof FormData ? { body: payload } : { json: payload })

/**
 * The record a save answered. A document kept one row per line may answer as the contract
 * does — its rows (`{payment_vouchers: […]}`, or under `data` for an update) — and is then
 * read back whole by its first row's id.
 */
async function savedRecord(entity: AnyEntity, answer: unknown): Promise<Row> {
  if (!entity.rowsPerLine || (isObject(answer) && typeof answer.id === 'number')) return answer as Row
  const body = isObject(answer) && isObject(answer.data) ? answer.data : answer
  const first = isObject(body) ? rowsOf(body[entity.listKey])[0] : undefined
  if (!first) throw new Error(`Unexpected answer for a saved ${entity.name}`)
  return fetchRecord(entity, first.id)
}

export async function createRecord(entity: AnyEntity, payload: Payload): Promise<Row> {
  return savedRecord(entity, await apiRequest(`${entity.api.base}/create/`, { method: 'post', ...bodyOptions(payload) }))
}

export async function updateRecord(entity: AnyEntity, id: number, payload: Payload): Promise<Row> {
  return savedRecord(entity, await apiRequest(`${entity.api.base}/update/${id}`, { method: 'put', ...bodyOptions(payload) }))
}

const detailOf = (body: unknown) => (isObject(body) && typeof body.detail === 'string' ? body.detail : undefined)

/** What a delete answers: the server's words and, for an entity with a Trash, the batch `restore/` undoes it by. */
export type DeleteAnswer = { detail?: string; batch?: string }

const deleteAnswerOf = (body: unknown): DeleteAnswer => ({
  ...(detailOf(body) !== undefined ? { detail: detailOf(body) } : {}),
  ...(isObject(body) && typeof body.batch === 'string' ? { batch: body.batch } : {}),
})

export async function deleteRecord(entity: AnyEntity, id: number): Promise<DeleteAnswer> {
  return deleteAnswerOf(await apiRequest(`${entity.api.base}/delete/${id}`, { method: 'delete' }))
}

export async function deleteRecords(entity: AnyEntity, ids: readonly number[]): Promise<DeleteAnswer> {
  return deleteAnswerOf(await apiRequest(`${entity.api.base}/delete_multiple/`, { method: 'delete', json: { ids } }))
}

/** What deleting does to the rows that refer to the deleted: refused, their link cleared, deleted with it, unlinked. */
export type DeleteEffect = 'refuse' | 'clear' | 'delete' | 'unlink'
export type DeleteImpact = {
  ids: number[]
  canDelete: boolean
  references: Array<{ entity: string; field: string; count: number; effect: DeleteEffect }>
  /** The server's words when it would refuse. */
  detail?: string
}

const EFFECTS: readonly string[] = ['refuse', 'clear', 'delete', 'unlink']

/** `delete_impact/{id}` for one record, `delete_impact/?ids=` for a selection. */
export async function fetchDeleteImpact(entity: AnyEntity, target: number | readonly number[], signal?: AbortSignal): Promise<DeleteImpact> {
  const path = typeof target === 'number' ? `delete_impact/${target}` : 'delete_impact/'
  const body = await apiRequest(`${entity.api.base}/${path}`, { searchParams: typeof target === 'number' ? {} : { ids: target.join(',') }, signal })
  const answer = isObject(body) ? body : {}
  const references = (Array.isArray(answer.references) ? answer.references : []).filter(
    (r): r is DeleteImpact['references'][number] => isObject(r) && typeof r.entity === 'string' && typeof r.count === 'number' && EFFECTS.includes(String(r.effect)),
  )
  return {
    ids: Array.isArray(answer.ids) ? answer.ids.filter((x): x is number => typeof x === 'number') : [],
    canDelete: answer.can_delete !== false,
    references,
    ...(typeof answer.detail === 'string' ? { detail: answer.detail } : {}),
  }
}

/** Runs a custom action on a record (`POST …/<action>/{id}`); answers the record as it is after. */
export async function runEntityAction(entity: AnyEntity, id: number, action: string, input: Record<string, unknown> = {}): Promise<Row> {
  return (await apiRequest(`${entity.api.base}/${action}/${id}`, { method: 'post', json: input })) as Row
}

/** The display names a record carries of its references (`{city: 'Dhaka', permissions: {'3': 'CITY_LIST'}}`). */
export type RecordLabels = Readonly<Record<string, string | Readonly<Record<string, string>>>>

export function labelsOf(row: Record<string, unknown> | null | undefined): RecordLabels {
  const labels = row?._labels
  return isObject(labels) ? (labels as RecordLabels) : {}
}

/**
 * A record as its own screens name it to a person (a form's subtitle, a delete's
 * confirmation and toast): its title fields' values (`title` in the registry: an employee's
 * first and last name), else its label.
 */
export function titleOf(entity: AnyEntity, row: Record<string, unknown> | undefined): string {
  const title = entity.titleFields
    .map((field) => row?.[field])
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .join(' ')
  return title || labelOf(entity, row)
}

/** The text shown for a row wherever it is referenced: its label field, or the name of the row it points to. */
export function labelOf(entity: AnyEntity, row: Record<string, unknown> | undefined): string {
  const value = row?.[entity.labelField]
  if (typeof value === 'string' || (typeof value === 'number' && entity.fields[entity.labelField]?.kind !== 'ref')) return String(value)
  // A label that is a reference (a role's menu is named by its role): the referenced row's name.
  const named = isObject(value) ? value.name : labelsOf(row)[entity.labelField]
  if (typeof named === 'string') return named
  return row?.id !== undefined ? `#${String(row.id)}` : ''
}
