import { defineEntity, type Entity, type Fields, type RuleFact } from './entity'
import { lines } from './fields'

/**
 * A document kept one row per line (`rowsPerLine`) as the engine and the form see it: the
 * entity's header fields (every stored field but the lines' own and the list's virtual
 * values) and its lines — a line entity of the `lineFields`, judged by `lineRules` — under
 * the entity's own name, permissions, routes and labels, so that one form, one validator and
 * one set of rules serve it in the browser and on the server. Derived, never in the registry:
 * its rows are the entity's.
 */
export type DocumentShape = Entity<string, Fields>

const shapes = new WeakMap<object, DocumentShape>()

export function documentOf(entity: Entity<string, Fields>): DocumentShape {
  if (documents.has(entity)) return entity
  const spec = entity.rowsPerLine
  if (!spec) throw new Error(`${entity.name} is not kept one row per line`)
  const known = shapes.get(entity)
  if (known) return known
  const line = defineEntity({
    name: `${entity.name}_line`,
    module: entity.module,
    lineOf: entity.name,
    labelField: spec.lineFields[0],
    fields: Object.fromEntries(spec.lineFields.map((name) => [name, entity.fields[name]!])) as Fields,
    rules: spec.lineRules ?? [],
  })
  // Labels stay the entity's: a line's ledger is the voucher's "Ledger".
  const lineShape: Entity<string, Fields> = { ...line, labelKey: entity.labelKey, fieldLabelKey: entity.fieldLabelKey }
  const listValues = new Set([...Object.keys(spec.sums ?? {}), ...Object.keys(spec.others ?? {})])
  const header = entity.fieldNames.filter((name) => !spec.lineFields.includes(name) && !listValues.has(name))
  const linesField = lines(lineShape, { min: spec.min, totals: spec.totals, label: `field.${spec.lines}` })
  const fields = { ...Object.fromEntries(header.map((name) => [name, entity.fields[name]!])), [spec.lines]: linesField } as Fields
  const shape: DocumentShape = {
    ...entity,
    fields,
    fieldNames: Object.keys(fields),
    ownFieldNames: Object.keys(fields),
    linesFieldNames: [spec.lines],
    listColumns: entity.listColumns,
    fieldLabelKey: (field: string) => (field === spec.lines ? `field.${spec.lines}` : entity.fieldLabelKey(field)),
  }
  shapes.set(entity, shape)
  documents.add(shape)
  return shape
}

const documents = new WeakSet<object>()

/** Whether this is a document as `documentOf` makes it (judged whole), not the entity whose rows hold it (judged a row at a time). */
export const isDocumentShape = (entity: object): boolean => documents.has(entity)

/** The facts a document's rules read (its own and its lines'), each with the path of the reference it is about. */
export function documentFacts(shape: Pick<Entity<string, Fields>, 'rules' | 'linesFieldNames' | 'fields'>): RuleFact[] {
  const own = shape.rules.flatMap((r) => r.facts ?? [])
  const ofLines = shape.linesFieldNames.flatMap((name) => shape.fields[name]!.lines!.entity.rules.flatMap((r) => (r.facts ?? []).map((f) => ({ ...f, field: `${name}.${f.field}` }))))
  const seen = new Set<string>()
  return [...own, ...ofLines].filter((f) => {
    const key = `${f.field}|${f.target}|${f.name}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
