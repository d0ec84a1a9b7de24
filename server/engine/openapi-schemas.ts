import { documentOf, MAX_LINES, MAX_REFS, type AnyField, type Entity, type Fields } from '../../schema/kit'
import { JSON_MAX_CHARS, JSON_MAX_DEPTH, MAX_ID, type RecordShape } from '../../schema/kit/validators'
import { translator } from '../i18n'
import { answerSchemas, fromZod, historyEntry, historyPage } from './openapi-answers'

/**
 * JSON Schemas (OpenAPI 3.1's dialect, JSON Schema 2020-12) of the registry's records, made
 * from the field descriptions the zod validators are built from (schema/kit/validators.ts).
 * Not from the validators themselves: they read every value through `z.preprocess` (a blank
 * is null or the default, a digit string an integer), which `z.toJSONSchema` can only render
 * as "anything". The kinds, bounds and presence here are the validators' own.
 */
export type Schema = { [keyword: string]: unknown }

/** What the document says in: English, the contract's language. */
export const en = translator('en')

/** A schema of the document's components, by name. */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })

const pascal = (name: string) => name.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase())

/** The components of one entity: its record as read, its create and update bodies, its list row. */
export const schemaNames = (entity: Pick<Entity<string, Fields>, 'name'>) => {
  const base = pascal(entity.name)
  return { record: base, create: `${base}Create`, update: `${base}Update`, row: `${base}Row`, document: `${base}Document`, documentCreate: `${base}DocumentCreate`, documentUpdate: `${base}DocumentUpdate` }
}

export const entityLabel = (name: string, count: 'one' | 'other' = 'one') => en(`entity.${name}.${count}`)

type Labelled = Pick<Entity<string, Fields>, 'fields' | 'fieldNames' | 'fieldLabelKey'>

/** A value of the field's kind, as a client sends it (input) or the server answers it (output); blanks apart. */
export function valueSchema(field: AnyField, io: 'input' | 'output'): Schema {
  switch (field.kind) {
    case 'text':
      return {
        type: 'string',
        ...(io === 'input' && field.minLength !== undefined ? { minLength: field.minLength } : {}),
        ...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {}),
        ...(field.markup === 'html' ? { contentMediaType: 'text/html' } : {}),
      }
    case 'email':
      return { type: 'string', format: 'email', maxLength: 255 }
    case 'phone':
      return io === 'output' ? { type: 'string', pattern: '^\\+[1-9]\\d{6,14}$' } : { type: 'string' }
    case 'url':
      return { type: 'string', maxLength: field.maxLength ?? 1000 }
    case 'integer':
      return { type: 'integer', ...(field.min !== undefined ? { minimum: field.min } : {}), ...(field.max !== undefined ? { maximum: field.max } : {}) }
    case 'decimal': {
      const precision = field.precision ?? 20
      const scale = field.scale ?? 2
      const whole = field.maxDecimal !== undefined ? field.maxDecimal.replace(/^-/, '').split('.')[0]!.length : precision - scale
      const bounds = {
        ...(field.minDecimal !== undefined ? { minimum: Number(field.minDecimal) } : {}),
        ...(field.gtDecimal !== undefined ? { exclusiveMinimum: Number(field.gtDecimal) } : {}),
        ...(field.maxDecimal !== undefined ? { maximum: Number(field.maxDecimal) } : {}),
      }
      // Answered as text, exactly; taken as text or a JSON number (the bounds apply to a number as written).
      return io === 'output'
        ? { type: 'string', pattern: `^-?\\d+${scale > 0 ? `\\.\\d{${scale}}` : ''}$` }
        : { type: ['string', 'number'], pattern: `^[+-]?\\d{0,${whole}}(\\.\\d{0,${scale}})?$`, ...bounds }
    }
    case 'boolean':
      return { type: 'boolean' }
    case 'date':
      return { type: 'string', format: 'date' }
    case 'datetime':
      return { type: 'string', format: 'date-time' }
    case 'enum':
      return { type: 'string', enum: [...(field.options ?? [])] }
    case 'ref':
      return field.byName && io === 'input' ? { type: ['integer', 'string'], minimum: 1, maximum: MAX_ID } : { type: 'integer', minimum: 1, maximum: MAX_ID }
    case 'refs':
      return { type: 'array', items: { type: 'integer', minimum: 1, maximum: MAX_ID }, ...(io === 'input' ? { maxItems: MAX_REFS } : {}) }
    case 'file':
      return { type: 'string', maxLength: 500 }
    case 'json':
      return {}
    case 'password':
      return { type: 'string', format: 'password', ...(field.minLength !== undefined ? { minLength: field.minLength } : {}), maxLength: field.maxLength ?? 128, writeOnly: true }
    case 'lines':
      return { type: 'array' }
  }
}

/** The same schema, null allowed too. */
export function orNull(schema: Schema): Schema {
  const type = schema.type
  if (Array.isArray(schema.enum)) return { ...schema, type: [type, 'null'], enum: [...schema.enum, null] }
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] }
  if (Array.isArray(type)) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] }
  // No type: anything already (a JSON field), null included.
  if (!('$ref' in schema) && !('anyOf' in schema)) return schema
  return { anyOf: [schema, { type: 'null' }] }
}

const MB = 1024 * 1024

/** What a person needs to know of a field beyond its type: its label and the rules the schema cannot say. */
function fieldNotes(field: AnyField, label: string, io: 'input' | 'output'): string {
  const notes: string[] = [label]
  const target = field.ref ? entityLabel(field.ref.target) : ''
  if (field.kind === 'ref') notes.push(field.byName && io === 'input' ? `The id of a ${target}, or its name.` : `The id of a ${target}.`)
  if (field.kind === 'refs') notes.push(io === 'input' ? `Ids of ${entityLabel(field.ref!.target, 'other')} (an array, or their comma-separated text).` : `Ids of ${entityLabel(field.ref!.target, 'other')}.`)
  if (field.within) notes.push(`Must lie within the record's ${Object.values(field.within).join(', ')}.`)
  if (field.kind === 'decimal') notes.push(io === 'input' ? `A decimal as text (or a JSON number), at most ${field.scale ?? 2} decimals.` : 'A decimal, as text.')
  if (field.kind === 'phone' && io === 'input') notes.push('An international number (+8801711000000): spaces, dashes and brackets are dropped and a leading + is added.')
  if (field.format === 'postal_code') notes.push('3 to 12 letters, digits, spaces or hyphens, a digit among them; kept in capitals.')
  if (field.markup === 'html') notes.push('Formatted text (HTML), sanitised by the server before it is stored.')
  if (field.slugFrom && io === 'input') notes.push(`Made from ${field.slugFrom} when left blank, and kept unique.`)
  if (field.kind === 'json') notes.push(`Any JSON value (nested at most ${JSON_MAX_DEPTH} deep, at most ${JSON_MAX_CHARS} characters).`)
  if (field.kind === 'file' && io === 'input') {
    const types = field.accept ? ` (${field.accept.join(', ')})` : ''
    notes.push(`A file${types}, at most ${Math.round((field.maxBytes ?? 5 * MB) / MB)} MB: send the record as multipart/form-data with the upload under this name. In JSON, the stored path keeps the stored file.`)
  }
  if (field.kind === 'file' && io === 'output') notes.push('The path of the stored file, under /media/.')
  if (field.isUnique) notes.push(field.uniqueWithin ? `Unique within its ${field.uniqueWithin}.` : 'Unique.')
  if (field.notAfter === 'today') notes.push('Not later than today.')
  if (field.initial === 'today' && !field.isRequired && io === 'input') notes.push('Today when left blank.')
  if (field.isAdminOnly) notes.push('Only an admin may set or change it.')
  if (field.fetchFrom && io === 'input') notes.push(`Taken from the chosen ${field.fetchFrom.ref}'s ${field.fetchFrom.field} when left blank.`)
  if (field.pastDue) notes.push(`Worked out from the clock: ${field.pastDue.due} has passed and ${field.pastDue.unless.field} is none of ${field.pastDue.unless.values.join(', ')}.`)
  else if (field.compute) notes.push('Worked out by the server from the record.')
  else if (field.isReadOnly && io === 'output') notes.push('Set by the server.')
  if (field.isTransient) notes.push('Judged, never stored or answered.')
  if (field.kind === 'password') notes.push(io === 'input' ? 'Stored hashed, never answered; on update a blank one keeps the stored password.' : '')
  if (field.kind === 'lines') {
    const spec = field.lines!
    notes.push(
      io === 'input'
        ? `The lines (${spec.min ? `at least ${spec.min}, ` : ''}at most ${MAX_LINES}), as a JSON array or multipart items[i][field]. On update a line with its id changes that line, one without is added, a stored line left out is removed.`
        : 'The lines, in their order.',
    )
  }
  const [first, ...rest] = notes.filter((n) => n !== '')
  return rest.length > 0 ? `${first}. ${rest.join(' ')}` : (first ?? '')
}

/** Each field a client may send in a body: what the server reads (read-only ones are ignored, so left out). */
export const writableNames = (shape: Pick<RecordShape, 'fields' | 'fieldNames'>) => shape.fieldNames.filter((n) => !shape.fields[n]!.isReadOnly)

/** A body of the shape (a record, an action's input, a document's line): create takes its required fields, update none. */
export function inputObject(shape: Labelled, mode: 'create' | 'update' = 'create', extra: Record<string, Schema> = {}): Schema {
  const names = writableNames(shape)
  const properties: Record<string, Schema> = { ...extra }
  for (const name of names) properties[name] = fieldInput(shape.fields[name]!, en(shape.fieldLabelKey(name)), mode)
  const required = mode === 'create' ? names.filter((n) => shape.fields[n]!.isRequired) : []
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) }
}

/** A line of a document as a body carries it: its fields (whole on update too: a line is judged as sent), and the id of a stored line to change it. */
function lineInput(line: Labelled): Schema {
  const id = { type: ['integer', 'null'], minimum: 1, maximum: MAX_ID, description: 'The id of a stored line to change; none for a new line.' }
  return inputObject(line, 'create', { id })
}

export function fieldInput(field: AnyField, label: string, mode: 'create' | 'update'): Schema {
  let schema: Schema
  if (field.kind === 'lines') {
    const spec = field.lines!
    const line = lineInput(spec.entity)
    const item = spec.scalar ? { anyOf: [line, valueSchema(spec.entity.fields[spec.scalar]!, 'input')] } : line
    schema = { type: 'array', items: item, maxItems: MAX_LINES, ...(spec.min ? { minItems: spec.min } : {}) }
  } else {
    schema = valueSchema(field, 'input')
  }
  // A blank is null or the default; only a required field must be given (and never as null).
  const required = field.isRequired && !(mode === 'update' && field.isWriteOnly)
  if (!required && field.kind !== 'lines') schema = orNull(schema)
  return {
    ...schema,
    description: fieldNotes(field, label, 'input'),
    ...(field.defaultValue !== undefined && field.kind !== 'lines' ? { default: field.defaultValue } : {}),
  }
}

export function fieldOutput(field: AnyField, label: string, place: 'record' | 'row'): Schema {
  let schema: Schema
  if (field.kind === 'lines') {
    schema = { type: 'array', items: lineRecord(field.lines!.entity) }
  } else if (place === 'row' && field.kind === 'ref' && field.listAs !== 'id') {
    // Lists carry a reference as the contract's `{id, name}`, or as its row's label (`listAs`).
    schema = field.listAs === 'label' ? { type: 'string' } : ref('RefName')
  } else if (place === 'row' && field.kind === 'refs' && field.listAs !== 'id') {
    schema = { type: 'array', items: ref('RefName') }
  } else {
    schema = valueSchema(field, 'output')
  }
  if (!field.isRequired || field.compute) schema = orNull(schema)
  return { ...schema, description: fieldNotes(field, label, 'output'), ...(field.isReadOnly ? { readOnly: true } : {}) }
}

const auditProperties: Record<string, Schema> = {
  created_at: { type: 'string', format: 'date-time', readOnly: true },
  updated_at: { type: 'string', format: 'date-time', readOnly: true, description: 'Send it back on update: an older one than the stored is refused (409), so one change does not silently undo another.' },
  created_by: { type: ['string', 'null'], readOnly: true, description: 'The e-mail of who created it; null to a caller without a token.' },
  updated_by: { type: ['string', 'null'], readOnly: true, description: 'The e-mail of who last changed it; null to a caller without a token.' },
}

const labelsProperty: Schema = {
  type: 'object',
  readOnly: true,
  description: "The display names of the record's references: by field, a name (or, for a many-to-many, the names by id).",
  additionalProperties: { anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }, { type: 'null' }] },
}

const idProperty: Schema = { type: 'integer', minimum: 1, readOnly: true }

/** A record as `{id}`, a write or an action answers it: every field a client may read, the authors, `_labels`. */
export function recordObject(entity: Labelled, place: 'record' | 'row' = 'record'): Schema {
  const properties: Record<string, Schema> = { id: idProperty }
  for (const name of entity.fieldNames) {
    const field = entity.fields[name]!
    if (field.isWriteOnly) continue
    // A list row has no lines and no value worked out on read (an entity's hooks may add some).
    if (place === 'row' && (field.kind === 'lines' || field.isVirtual)) continue
    properties[name] = fieldOutput(field, en(entity.fieldLabelKey(name)), place)
  }
  Object.assign(properties, auditProperties, { _labels: labelsProperty })
  return { type: 'object', properties, required: ['id'] }
}

function lineRecord(line: Labelled): Schema {
  const properties: Record<string, Schema> = { id: idProperty }
  for (const name of line.fieldNames) {
    const field = line.fields[name]!
    if (!field.isWriteOnly) properties[name] = fieldOutput(field, en(line.fieldLabelKey(name)), 'record')
  }
  return { type: 'object', properties: { ...properties, _labels: labelsProperty }, required: ['id'] }
}

/** Whether a list row differs from the record (references nested, lines and read-time values left out). */
export const rowDiffers = (entity: Entity<string, Fields>) =>
  entity.fieldNames.some((n) => {
    const f = entity.fields[n]!
    return !f.isWriteOnly && (f.kind === 'ref' || f.kind === 'refs' || f.kind === 'lines' || f.isVirtual)
  })

/** The components of a routed entity: record, bodies, list row and, for a document kept one row per line, the document. */
export function entitySchemas(entity: Entity<string, Fields>): Record<string, Schema> {
  const names = schemaNames(entity)
  const label = entityLabel(entity.name)
  const out: Record<string, Schema> = {
    [names.record]: { ...recordObject(entity), title: label },
    [names.create]: { ...inputObject(entity, 'create'), title: `New ${label}` },
    [names.update]: { ...inputObject(entity, 'update'), title: `${label} changes`, description: 'Laid over the stored record: what is left out stays.' },
  }
  if (rowDiffers(entity)) out[names.row] = { ...recordObject(entity, 'row'), title: `${label} (list row)` }
  if (entity.rowsPerLine) {
    const doc = documentOf(entity)
    out[names.document] = { ...recordObject(doc), title: `${label} (document)`, description: `Its rows that share ${entity.rowsPerLine.key}, as one document: the header and its ${entity.rowsPerLine.lines}, each line with the id of its row.` }
    out[names.documentCreate] = { ...inputObject(doc, 'create'), title: `New ${label} (document)` }
    out[names.documentUpdate] = { ...inputObject(doc, 'update'), title: `${label} changes (document)` }
  }
  return out
}

/** Ids of records as `delete_multiple/` and the Trash take them (routes.ts's idsOfBody): numbers, or their digits as text. */
export const idList: Schema = { type: 'array', items: { type: ['integer', 'string'], minimum: 1, maximum: MAX_ID, pattern: '^\\d{1,15}$' }, minItems: 1, maxItems: 1000 }

/** A page of a record's history, its entries the HistoryEntry component. */
const historyPageSchema: Schema = (() => {
  const page = fromZod(historyPage)
  const properties = page.properties as Record<string, Schema>
  return { ...page, properties: { ...properties, history: { ...properties.history, items: ref('HistoryEntry') } } }
})()

/** The components every operation shares: errors, a reference's name, bodies of ids, a record's history. */
export const commonSchemas: Record<string, Schema> = {
  Detail: {
    type: 'object',
    properties: { detail: { type: 'string', description: "What went wrong, in the request's language (Accept-Language: en, tr, ar)." }, code: { type: 'string' } },
    required: ['detail'],
  },
  FieldErrors: {
    type: 'object',
    description: "What is wrong with each field, in the request's language; a document's line's field as items.3.debit_amount.",
    additionalProperties: { type: 'array', items: { type: 'string' }, minItems: 1 },
  },
  RefName: {
    type: 'object',
    description: 'A reference as lists carry it: the id and the label of the row it points at (LIST_REFS_AS_IDS may make it the raw id).',
    properties: { id: { type: 'integer', minimum: 1 }, name: { type: ['string', 'null'] } },
    required: ['id', 'name'],
  },
  Ids: { type: 'object', properties: { ids: idList }, required: ['ids'] },
  DeleteImpact: {
    type: 'object',
    properties: {
      ids: { type: 'array', items: { type: 'integer' } },
      can_delete: { type: 'boolean' },
      references: {
        type: 'array',
        items: {
          type: 'object',
          properties: { entity: { type: 'string' }, field: { type: 'string' }, count: { type: 'integer' }, effect: { type: 'string', enum: ['refuse', 'clear', 'delete', 'unlink'] } },
          required: ['entity', 'field', 'count', 'effect'],
        },
      },
      detail: { type: 'string', description: "The 409's words, when the delete would be refused." },
    },
    required: ['ids', 'can_delete', 'references'],
  },
  ...Object.fromEntries(Object.entries(answerSchemas).map(([name, schema]) => [name, fromZod(schema)])),
  HistoryEntry: fromZod(historyEntry),
  HistoryPage: historyPageSchema,
  ChartPoints: {
    type: 'object',
    properties: {
      points: {
        type: 'array',
        items: {
          type: 'object',
          properties: { label: { type: ['string', 'null'] }, values: { type: 'object', additionalProperties: { type: 'string' } }, is_other: { type: 'boolean' } },
          required: ['label', 'values', 'is_other'],
        },
      },
      is_cut: { type: 'boolean', description: 'A line chart with more points than it shows.' },
    },
    required: ['points', 'is_cut'],
  },
}
