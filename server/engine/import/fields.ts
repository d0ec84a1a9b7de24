import type { Entity, FieldKind, Fields, Message } from '../../../schema/kit'
import { languages, translator, type Language } from '../../i18n'
import { ValidationError } from '../errors'

/**
 * What an import may fill: the fields a client may send on create, less those a file cannot
 * carry (a document's lines, an uploaded file). Read-only and computed fields are the
 * server's, as on `create/`.
 */
export type ImportField = { name: string; label: string; required: boolean; kind: FieldKind }

/** Column → field name, or null for a column left out. */
export type ColumnMapping = Record<string, string | null>

/** Whether a field can be given by a cell. */
const isImportableField = (entity: Entity<string, Fields>, name: string): boolean => {
  const field = entity.fields[name]!
  if (field.isReadOnly || field.compute !== undefined) return false
  // An input-only value (a confirmation) is sent like any other; a value worked out on read is not.
  if (field.isVirtual && !field.isTransient) return false
  return field.kind !== 'lines' && field.kind !== 'file'
}

export const importableFieldNames = (entity: Entity<string, Fields>): string[] => entity.fieldNames.filter((name) => isImportableField(entity, name))

/**
 * Whether rows of a file can be created as records of the entity, each by the engine's
 * `create/`: its create is the engine's (not a module's own shape), and it is no document —
 * one kept a row per line, or whose lines it must have (a row of a file holds no lines) —
 * nor needs an uploaded file. Lines and files a record may go without are simply not imported.
 */
export function isImportable(entity: Entity<string, Fields>): boolean {
  if (entity.isLine || entity.rowsPerLine || entity.routes.create !== 'generic') return false
  if (entity.linesFieldNames.some((name) => (entity.fields[name]!.lines?.min ?? 0) > 0)) return false
  // A picture it must have (a gallery's): no cell holds one.
  return !entity.fieldNames.some((name) => entity.fields[name]!.isRequired && entity.fields[name]!.kind === 'file')
}

export function importFields(entity: Entity<string, Fields>, language: Language): ImportField[] {
  const t = translator(language)
  return importableFieldNames(entity).map((name) => ({ name, label: t(entity.fieldLabelKey(name)), required: entity.fields[name]!.isRequired, kind: entity.fields[name]!.kind }))
}

/** A header or label as people vary it: no case, accents, spaces, underscores or hyphens (`Ülke_adı` = `ulke adi`). */
export function foldName(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase().replace(/[\s_\-.]+/g, '')
}

/**
 * Each column matched to the field it names — by the field's name or its label in any
 * language of the app — each field to one column at most (the first that names it).
 */
export function autoMapping(entity: Entity<string, Fields>, columns: readonly string[]): ColumnMapping {
  const byName = new Map<string, string>()
  for (const name of importableFieldNames(entity)) {
    const names = [name, ...languages.map((l) => translator(l)(entity.fieldLabelKey(name)))]
    for (const text of names) if (!byName.has(foldName(text))) byName.set(foldName(text), name)
  }
  const taken = new Set<string>()
  const mapping: ColumnMapping = {}
  for (const column of columns) {
    const field = byName.get(foldName(column))
    mapping[column] = field && !taken.has(field) ? field : null
    if (field) taken.add(field)
  }
  return mapping
}

/** The most a mapping may name: far more columns than any entity has fields. */
export const MAX_COLUMNS = 500
const MAX_MAPPING_CHARS = 100_000

/**
 * The mapping a client sends (JSON `{column: field|null}`), judged against the file's columns
 * and the entity's importable fields: every column one of the file's, every field known and
 * importable, none twice. Columns it leaves out are not imported. A 400 `{mapping: […]}` otherwise.
 */
export function mappingOf(entity: Entity<string, Fields>, raw: string | undefined, columns: readonly string[]): ColumnMapping {
  const refuse = (...messages: Message[]): never => {
    throw new ValidationError({ mapping: messages })
  }
  if (raw === undefined || raw.trim() === '') return refuse({ key: 'validation.import_mapping' })
  if (raw.length > MAX_MAPPING_CHARS) return refuse({ key: 'validation.import_mapping' })
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return refuse({ key: 'validation.import_mapping' })
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return refuse({ key: 'validation.import_mapping' })
  const entries = Object.entries(parsed)
  if (entries.length > MAX_COLUMNS) return refuse({ key: 'validation.import_mapping' })
  const known = new Set(importableFieldNames(entity))
  const inFile = new Set(columns)
  const problems: Message[] = []
  const seen = new Set<string>()
  const mapping: ColumnMapping = {}
  for (const [column, field] of entries) {
    if (field !== null && typeof field !== 'string') {
      problems.push({ key: 'validation.import_mapping' })
      continue
    }
    const shown = column.slice(0, 100)
    if (!inFile.has(column)) problems.push({ key: 'validation.import_unknown_column', params: { column: shown } })
    if (field === null || field === '') {
      mapping[column] = null
      continue
    }
    if (!known.has(field)) problems.push({ key: 'validation.import_unknown_field', params: { column: shown, field: field.slice(0, 100) } })
    else if (seen.has(field)) problems.push({ key: 'validation.import_field_twice', params: { label: entity.fieldLabelKey(field) } })
    seen.add(field)
    mapping[column] = field
  }
  if (problems.length > 0) refuse(...problems)
  return mapping
}
