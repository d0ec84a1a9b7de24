import type { z } from 'zod'
import type { Entity, Fields, Message, RuleContext } from '../../schema/kit'
import { isDocumentShape, messageOfIssue } from '../../schema/kit'
import { issueKey, issueLabelKey, validateRecordInput, type RecordIssue, type RecordShape, type SchemaMode } from '../../schema/kit/validators'
import { BusinessError, ValidationError } from './errors'

export type Values = Record<string, unknown>

/** Where an issue goes and what its field is called: a record's field, a document line's, or a plain body's. */
export type IssuePlace = { keyOf: (path: readonly PropertyKey[]) => string; labelOf: (path: readonly PropertyKey[]) => string }

const flatPlace = (labelOf: (field: string) => string): IssuePlace => ({
  keyOf: (path) => String(path[0] ?? 'non_field_errors'),
  labelOf: (path) => labelOf(String(path[0] ?? '')),
})

export const recordPlace = (entity: Pick<Entity<string, Fields>, 'fields' | 'fieldLabelKey'>): IssuePlace => ({
  keyOf: (path) => issueKey(entity, path),
  labelOf: (path) => issueLabelKey(entity, path),
})

export function fieldErrors(issues: readonly (z.core.$ZodIssue | RecordIssue)[], place: IssuePlace, entityKey?: string): ValidationError {
  const fields: Record<string, Message[]> = {}
  for (const issue of issues) {
    const field = place.keyOf(issue.path)
    const message = messageOfIssue(issue, place.labelOf(issue.path), entityKey)
    const messages = (fields[field] ??= [])
    // Items of a list (`refs`) fail one by one; the field states each distinct problem once.
    if (!messages.some((m) => JSON.stringify(m) === JSON.stringify(message))) messages.push(message)
  }
  return new ValidationError(fields)
}

/** PostgreSQL cannot store U+0000 in text or jsonb: such input is invalid, not a server error. */
export function hasNulCharacter(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (Array.isArray(value)) return value.some(hasNulCharacter)
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNulCharacter(v))
  return false
}

/**
 * Judges a record as the browser's form does (its fields by the registry's zod validators,
 * then the rules across fields and lines) and maps what fails to the field map.
 */
const rowShapes = new WeakMap<object, Entity<string, Fields>>()
/** A row of a document kept one row per line is judged by its fields: the rules are the document's (`documentOf`). */
const judgedAs = (entity: Entity<string, Fields>): Entity<string, Fields> => {
  if (!entity.rowsPerLine || isDocumentShape(entity)) return entity
  let row = rowShapes.get(entity)
  if (!row) rowShapes.set(entity, (row = { ...entity, rules: [] }))
  return row
}

export function validateRecord(entity: Entity<string, Fields>, input: Values, mode: SchemaMode = 'create', fact?: RuleContext['fact']): Values {
  const result = validateRecordInput(judgedAs(entity), input, mode, fact)
  if (!result.success) throw fieldErrors(result.issues, recordPlace(entity), entity.labelKey)
  const values = result.data as Values
  const unstorable = Object.keys(values).filter((name) => hasNulCharacter(values[name]))
  if (unstorable.length > 0) {
    throw new ValidationError(Object.fromEntries(unstorable.map((name) => [name, [{ key: 'validation.invalid', params: { label: entity.fieldLabelKey(name) } }]])))
  }
  return values
}

/** Validates a body that is not a registry record (login, password change…) the same way. */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown, labels: Record<string, string>): T {
  // No body reads as an empty object (each field is then reported missing); any other non-object is refused whole.
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) {
    throw new BusinessError({ key: 'detail.json_object' })
  }
  const result = schema.safeParse(input ?? {})
  if (result.success) return result.data
  throw fieldErrors(result.error.issues, flatPlace((field) => labels[field] ?? `field.${field}`))
}

/** Judges the parameters of a report or the input of an action (fields and rules, as a record). */
export function validateShape(shape: RecordShape & { fieldLabelKey: (field: string) => string }, input: Values): Values {
  const result = validateRecordInput(shape, input, 'create')
  if (!result.success) throw fieldErrors(result.issues, recordPlace(shape), undefined)
  return result.data
}

/** The model name the contract's messages use: `thana` → `Thana`, `customer_type` → `CustomerType`. */
export function modelName(entity: Pick<Entity, 'model'>): string {
  return entity.model
}
