import { resolveNamedRefs } from '../named-refs'
import { isDocumentShape, withComputed, type Entity, type Fields, type RuleContext } from '../../../schema/kit'
import { hashPassword } from '../../auth/passwords'
import type { Executor, Row } from '../../db/types'
import { factsOf } from '../facts'
import type { EngineCtx } from '../access'
import { ConflictError, ValidationError } from '../errors'
import { sanitizeMarkup } from '../html-markup'
import { LABELS } from '../list-query'
import { validateRecord, validateShape, type Values } from '../validate'

/**
 * From what a client sends to what the engine stores: the client's body without the fields
 * the server sets, the record judged by the registry (fields, then rules), formatted text
 * sanitised, computed values worked out and secrets hashed — and, on update, stored values
 * in the form a client sends them so that the merged record is judged alike.
 */

/** Write-only values (passwords) are stored as argon2id hashes; a blank one is left out, keeping the stored hash. */
async function hashSecrets(entity: Entity<string, Fields>, values: Values): Promise<Values> {
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (field.kind === 'password' && !field.isTransient && typeof values[name] === 'string') values[name] = await hashPassword(values[name] as string)
  }
  return values
}

/**
 * Validates a record as the registry judges it and makes the values to store: formatted
 * text sanitised, computed fields worked out (each line's, then the document's), secrets
 * hashed. Slugs are made later, in the transaction (they depend on the stored rows).
 */
export async function prepare(entity: Entity<string, Fields>, input: Values, mode: 'create' | 'update', fact?: RuleContext['fact']): Promise<Values> {
  const values = withComputed(entity, sanitizeMarkup(entity, { ...validateRecord(entity, input, mode, fact), ...serverValues(entity, input) }))
  return hashSecrets(entity, values)
}

/** `prepare`, with the facts about referenced rows its rules read loaded first (facts.ts). */
export async function judge(ctx: Pick<EngineCtx, 'registry' | 'hooks'>, db: Executor, entity: Entity<string, Fields>, input: Values, mode: 'create' | 'update'): Promise<Values> {
  // A row of a document kept one row per line is judged by its fields alone: the facts are the document's.
  const isRow = entity.rowsPerLine !== undefined && !isDocumentShape(entity)
  const given = await resolveNamedRefs(db, ctx.registry, entity, input)
  return prepare(entity, given, mode, isRow ? undefined : await factsOf(db, ctx.registry, ctx.hooks, entity, given))
}

/** The read-only fields the server sets itself: not lines, not computed. */
export const serverSet = (entity: Entity<string, Fields>) =>
  entity.fieldNames.filter((name) => {
    const field = entity.fields[name]!
    return field.isReadOnly && field.kind !== 'lines' && field.compute === undefined
  })

const writableCopies = new WeakMap<object, Entity<string, Fields>['fields'][string]>()
const writable = (field: Entity<string, Fields>['fields'][string]) => {
  let copy = writableCopies.get(field)
  if (!copy) writableCopies.set(field, (copy = { ...field, isReadOnly: false } as typeof field))
  return copy
}

/**
 * Read-only fields are the server's (a document's number, the status an action moves): a
 * client's values for them are dropped before anything else (`fromClient`); the server's own
 * — a system write's, or what a before-validate hook filled in — are judged by the field's
 * validator and stored, never silently lost.
 */
function serverValues(entity: Entity<string, Fields>, input: Values): Values {
  const given = serverSet(entity).filter((name) => Object.hasOwn(input, name))
  if (given.length === 0) return {}
  const shape = { fields: Object.fromEntries(given.map((name) => [name, writable(entity.fields[name]!)])), fieldNames: given, rules: [], linesFieldNames: [], fieldLabelKey: entity.fieldLabelKey }
  return validateShape(shape, Object.fromEntries(given.map((name) => [name, input[name]])))
}

/** A caller's body without the read-only fields; code acting as the system may set them. */
export function fromClient(ctx: Pick<EngineCtx, 'entity' | 'access'>, input: Values): Values {
  const readOnly = serverSet(ctx.entity).filter((name) => Object.hasOwn(input, name))
  if (ctx.access === 'system' || readOnly.length === 0) return input
  const kept = { ...input }
  for (const name of readOnly) delete kept[name]
  return kept
}

/**
 * A stored value in the form a client sends it, so that the merged record validates:
 * the driver gives timestamptz as a Date, which the datetime field (a string) would refuse;
 * a document's stored lines become lines with their ids.
 */
export function asInput(entity: Entity<string, Fields>, name: string, value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  if (entity.fields[name]?.kind === 'lines' && Array.isArray(value)) {
    const line = entity.fields[name]!.lines!.entity
    return value.map((row: Values) => Object.fromEntries(Object.entries(row).filter(([k]) => k !== LABELS).map(([k, v]) => [k, asInput(line, k, v)])))
  }
  return value
}

/**
 * The `updated_at` a client sends (the one it read) must not be older than the stored one:
 * someone else changed the record since. A client that sends none is not checked.
 */
export function checkNotStale(before: Row, input: Values): void {
  const given = input.updated_at
  if (given === undefined || given === null || given === '') return
  const at = typeof given === 'string' ? Date.parse(given) : Number.NaN
  if (Number.isNaN(at)) throw new ValidationError({ updated_at: [{ key: 'validation.datetime', params: { label: 'field.updated_at' } }] })
  const stored = before.updated_at instanceof Date ? before.updated_at.getTime() : Date.parse(String(before.updated_at))
  if (at < stored) throw new ConflictError({ key: 'validation.stale' })
}
