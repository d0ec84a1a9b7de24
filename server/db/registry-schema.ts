import { columnFields, isRangeKind, lineLinkColumn, LINE_POSITION, type AnyField, type Entity, type Fields, type OnDelete } from '../../schema/kit'

/**
 * The tables, constraints and indexes the registry declares, as plain data. The sync
 * compares this with the live database; a test compares it after migrating.
 */
export type ColumnSpec = { name: string; type: string; notNull: boolean; default?: string }
/**
 * `parent`: the table's id is another table's row id (multi-table inheritance, or `idFrom`), not an identity of its own.
 * `appendOnly`: the database refuses UPDATE, DELETE and TRUNCATE on it (the entity's `appendOnly`).
 */
export type TableSpec = { name: string; columns: ColumnSpec[]; counted: boolean; parent?: string; appendOnly?: boolean; trash?: boolean }
/** A foreign key's ON DELETE action, as SQL writes it. */
export type SqlOnDelete = 'restrict' | 'cascade' | 'set null'
export type ForeignKeySpec = { name: string; table: string; column: string; target: string; onDelete: SqlOnDelete }
/**
 * `within`: the value is unique among the rows with the same value of that other column (a district's name per country).
 * `live`: unique among the rows not in the Trash (a partial unique index `where deleted_at is null`), so a trashed row's value may be taken again.
 */
export type UniqueSpec = { name: string; table: string; column: string; within?: string; live?: boolean }

export const sqlOnDelete = (onDelete: OnDelete): SqlOnDelete => (onDelete === 'setNull' ? 'set null' : onDelete)
/**
 * `search`: a trigram index on the column's unaccented text (`bo_unaccent(col) gin_trgm_ops`),
 * which the list search and `q` use to match any part, ignoring case and accents.
 */
export type IndexSpec = { name: string; table: string; using: 'btree' | 'search'; column: string }
/** A field's lower bound held by the database (`enforced`): `column >= bound`, or `>` for a decimal's `gt`. */
export type CheckSpec = { name: string; table: string; column: string; op: '>=' | '>'; bound: string }
export type SchemaSpec = { tables: TableSpec[]; foreignKeys: ForeignKeySpec[]; uniques: UniqueSpec[]; indexes: IndexSpec[]; checks: CheckSpec[] }

/** The CHECK of an enforced field's lower bound, if it has one. */
function checkOf(table: string, column: string, field: AnyField): CheckSpec | undefined {
  if (!field.isEnforced) return undefined
  const name = `${table}_${column}_bound`
  if (field.kind === 'integer' && field.min !== undefined) return { name, table, column, op: '>=', bound: String(field.min) }
  if (field.kind === 'decimal' && field.gtDecimal !== undefined) return { name, table, column, op: '>', bound: field.gtDecimal }
  if (field.kind === 'decimal' && field.minDecimal !== undefined) return { name, table, column, op: '>=', bound: field.minDecimal }
  return undefined
}

export const joinTableName = (entity: string, field: string) => `${entity}_${field}`

const auditColumns: ColumnSpec[] = [
  { name: 'created_at', type: 'timestamptz', notNull: true, default: 'now()' },
  { name: 'updated_at', type: 'timestamptz', notNull: true, default: 'now()' },
  { name: 'created_by', type: 'bigint', notNull: false },
  { name: 'updated_by', type: 'bigint', notNull: false },
]

export function registrySchema(entities: readonly Entity<string, Fields>[]): SchemaSpec {
  const spec: SchemaSpec = { tables: [], foreignKeys: [], uniques: [], indexes: [], checks: [] }
  const index = (table: string, column: string, using: IndexSpec['using']) => {
    const name = `${table}_${column}_${using === 'btree' ? 'idx' : 'search'}`
    if (!spec.indexes.some((i) => i.name === name)) spec.indexes.push({ name, table, column, using })
  }
  for (const e of entities) {
    const columns: ColumnSpec[] = [{ name: 'id', type: 'bigint', notNull: true }]
    // A line refers to its document (deleting the document deletes its lines) and keeps its place.
    if (e.isLine) {
      const link = lineLinkColumn(e)
      columns.push({ name: link, type: 'bigint', notNull: true }, { name: LINE_POSITION, type: 'integer', notNull: true, default: '0' })
      spec.foreignKeys.push({ name: `${e.name}_${link}_fkey`, table: e.name, column: link, target: e.lineOf!, onDelete: 'cascade' })
      index(e.name, link, 'btree')
    }
    // An entity that extends another stores only its own fields; the parent's table holds
    // the rest and the audit columns, and deleting the parent row deletes this one.
    // Lines, virtual computed values and input-only fields have no column.
    for (const name of e.ownFieldNames) {
      const field = e.fields[name]!
      if (field.kind === 'refs') {
        const join = joinTableName(e.name, name)
        spec.tables.push({
          name: join,
          counted: false,
          columns: [
            { name: 'owner_id', type: 'bigint', notNull: true },
            { name: 'target_id', type: 'bigint', notNull: true },
          ],
        })
        spec.foreignKeys.push({ name: `${join}_owner_id_fkey`, table: join, column: 'owner_id', target: e.name, onDelete: 'cascade' })
        spec.foreignKeys.push({ name: `${join}_target_id_fkey`, table: join, column: 'target_id', target: field.ref!.target, onDelete: 'cascade' })
        index(join, 'target_id', 'btree')
        continue
      }
      if (!columnFields(e, [name]).length) continue
      const sqlColumn = field.sql!
      columns.push({ name, type: sqlColumn.type, notNull: field.presence !== 'optional', default: sqlColumn.default })
      if (field.ref) {
        spec.foreignKeys.push({ name: `${e.name}_${name}_fkey`, table: e.name, column: name, target: field.ref.target, onDelete: sqlOnDelete(field.ref.onDelete) })
        index(e.name, name, 'btree')
      }
      const check = checkOf(e.name, name, field)
      if (check) spec.checks.push(check)
      if (field.isUnique) spec.uniques.push({ name: `${e.name}_${name}_key`, table: e.name, column: name, ...(field.uniqueWithin ? { within: field.uniqueWithin } : {}), ...(e.trash ? { live: true } : {}) })
      // The list's filters: a range (dates, numbers) or a choice is answered from an index (references have theirs; a flag's two values are not worth one).
      if (e.filterFields.includes(name) && (isRangeKind(field.kind) || field.kind === 'enum') && !field.isUnique) index(e.name, name, 'btree')
      if (field.isSearchable && field.kind !== 'ref') index(e.name, name, 'search')
    }
    // A filter on an inherited field (an employee's gender) is served on the parent's table.
    for (const name of e.filterFields.filter((n) => e.parent && !e.ownFieldNames.includes(n))) {
      const field = e.fields[name]!
      if ((isRangeKind(field.kind) || field.kind === 'enum') && !field.isUnique) index(e.parent!.name, name, 'btree')
    }
    const orderField = e.ordering.replace(/^-/, '')
    if (orderField !== 'id' && e.ownFieldNames.includes(orderField) && !e.fields[orderField]?.isUnique) index(e.name, orderField, 'btree')
    const appendOnly = e.isAppendOnly ? { appendOnly: true } : {}
    if (e.parent) {
      spec.tables.push({ name: e.name, columns, counted: true, parent: e.parent.name, ...appendOnly })
      spec.foreignKeys.push({ name: `${e.name}_id_fkey`, table: e.name, column: 'id', target: e.parent.name, onDelete: 'cascade' })
      continue
    }
    columns.push(...auditColumns)
    // A Trash (EntityConfig.trash): when a row went there and who put it there (cleared with that user).
    if (e.trash) {
      columns.push({ name: 'deleted_at', type: 'timestamptz', notNull: false }, { name: 'deleted_by', type: 'bigint', notNull: false })
      spec.foreignKeys.push({ name: `${e.name}_deleted_by_fkey`, table: e.name, column: 'deleted_by', target: 'user', onDelete: 'set null' })
      index(e.name, 'deleted_at', 'btree')
    }
    const idTarget = e.idFrom ? e.fields[e.idFrom]!.ref!.target : undefined
    spec.tables.push({ name: e.name, columns, counted: true, ...(idTarget ? { parent: idTarget } : {}), ...appendOnly, ...(e.trash ? { trash: true } : {}) })
    if (idTarget) spec.foreignKeys.push({ name: `${e.name}_id_fkey`, table: e.name, column: 'id', target: idTarget, onDelete: 'cascade' })
    for (const col of ['created_by', 'updated_by']) {
      spec.foreignKeys.push({ name: `${e.name}_${col}_fkey`, table: e.name, column: col, target: 'user', onDelete: 'set null' })
    }
  }
  return spec
}
