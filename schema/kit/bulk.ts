import type { Entity, Fields } from './entity'

/**
 * The fields a bulk update may set: stored values a person enters one at a time on the form
 * and that many records may share — a status, a district, a flag, a date. Not what the server
 * keeps (read-only, computed), not what must differ from row to row (unique values, a slug,
 * the id a record's number is made from), not files, lines, many-to-many links, JSON or
 * secrets. Isomorphic: the server refuses, and the browser's dialog offers, exactly these.
 */
const UNSETTABLE_KINDS: ReadonlySet<string> = new Set(['file', 'lines', 'refs', 'json', 'password'])

export function isBulkSettable(entity: Entity<string, Fields>, name: string): boolean {
  const field = entity.fields[name]
  if (!field || field.sql === undefined || field.isVirtual || field.isTransient) return false
  if (field.isReadOnly || field.compute !== undefined || field.isWriteOnly) return false
  if (field.isUnique || field.slugFrom !== undefined || name === entity.idFrom) return false
  return !UNSETTABLE_KINDS.has(field.kind)
}

/** The entity's fields a bulk update may set, in the registry's order. */
export const bulkSettableFields = (entity: Entity<string, Fields>): string[] => entity.fieldNames.filter((name) => isBulkSettable(entity, name))

/** At most this many fields are set in one bulk update. */
export const MAX_BULK_FIELDS = 20
