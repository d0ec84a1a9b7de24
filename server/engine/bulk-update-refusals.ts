import { renderMessage, type Entity, type Fields, type Message } from '../../schema/kit'
import type { Row } from '../db/types'
import { translator, languageOf } from '../i18n'
import { HttpError, ValidationError } from './errors'
import { LABELS } from './list-query'

/** How a bulk change names the records that refused it, and in what words. */

/** The most refusals a bulk change names: past them, it stops looking. */
export const MAX_NAMED_REFUSALS = 50

/** Why one record refused: a field map, `detail` for what is about the record as a whole. */
export type Refusal = { label: string; fields: Record<string, Array<Message | string>> }

/** Nothing was written: the records that refused, by id. */
export class BulkRefusedError extends HttpError {
  readonly status = 400
  readonly detail: Message
  constructor(readonly rows: ReadonlyMap<number, Refusal>) {
    super(`bulk change refused by ${[...rows.keys()].join(', ')}`)
    this.detail = { key: 'detail.bulk_refused', params: { count: rows.size } }
  }
}

/** The answer to a refused bulk change: `{detail, rows: {"<id>": {field: [msg]}}, labels: {"<id>": name}}`, in the caller's language. */
export function refusalBody(acceptLanguage: string | undefined, error: BulkRefusedError) {
  const t = translator(languageOf(acceptLanguage))
  const say = (m: Message | string) => (typeof m === 'string' ? m : renderMessage(t, m))
  const rows = [...error.rows]
  return {
    detail: say(error.detail),
    rows: Object.fromEntries(rows.map(([id, r]) => [String(id), Object.fromEntries(Object.entries(r.fields).map(([field, messages]) => [field, messages.map(say)]))])),
    labels: Object.fromEntries(rows.map(([id, r]) => [String(id), r.label])),
  }
}

/** A record as a person knows it: its label field's value (a reference's name), else its id. */
export function rowLabel(entity: Entity<string, Fields>, id: number, row: Row | undefined): string {
  const value = row?.[entity.labelField]
  if (typeof value === 'string' && value.trim() !== '') return value
  if (typeof value === 'number' && entity.fields[entity.labelField]?.kind !== 'ref') return String(value)
  const named = (row?.[LABELS] as Record<string, unknown> | undefined)?.[entity.labelField]
  return typeof named === 'string' ? named : `#${id}`
}

/**
 * What a record's refusal says, or undefined for an error that is no record's (a lost
 * connection, a timeout, a missing sign-in): that one stops the whole change as it would one update.
 */
export function refusalOf(e: unknown): Refusal['fields'] | undefined {
  if (e instanceof ValidationError) return e.fields
  if (e instanceof HttpError && [400, 403, 404, 409].includes(e.status) && 'detail' in e) return { detail: [(e as HttpError & { detail: Message | string }).detail] }
  return undefined
}
