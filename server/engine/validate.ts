import type { z } from 'zod'
import type { Entity, Fields, Message } from '../../schema/kit'
import { messageOfIssue } from '../../schema/kit'
import { schemaOf, type SchemaMode } from '../../schema/kit/validators'
import { BusinessError, ValidationError } from './errors'

export type Values = Record<string, unknown>

function fieldErrors(issues: readonly z.core.$ZodIssue[], labelOf: (field: string) => string, entityKey?: string): ValidationError {
  const fields: Record<string, Message[]> = {}
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'non_field_errors')
    const message = messageOfIssue(issue, labelOf(field), entityKey)
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

/** Runs the registry's zod schema (the one the browser form uses) and maps issues to fields. */
export function validateRecord(entity: Entity<string, Fields>, input: Values, mode: SchemaMode = 'create'): Values {
  const result = schemaOf(entity, mode).safeParse(input)
  if (!result.success) throw fieldErrors(result.error.issues, entity.fieldLabelKey, entity.labelKey)
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
    throw new BusinessError('Expected a JSON object in the request body.')
  }
  const result = schema.safeParse(input ?? {})
  if (result.success) return result.data
  throw fieldErrors(result.error.issues, (field) => labels[field] ?? `field.${field}`)
}

/** The model name the contract's messages use: `thana` → `Thana`, `customer_type` → `CustomerType`. */
export function modelName(entity: Pick<Entity, 'name'>): string {
  return entity.name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())
}
