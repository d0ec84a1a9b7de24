import { sql, type RawBuilder } from 'kysely'
import { lineLinkColumn, rootOf, type Entity, type Fields } from '../../schema/kit'
import type { Executor } from '../db/types'
import { linkTable, type Registry } from './list-query'

/**
 * What deleting rows does to the rows that refer to them, read from the registry's
 * references (a reference's `onDelete`, many-to-many links, a document's lines): the
 * delete is refused (`refuse`), their reference is cleared (`clear`), they are deleted with
 * it (`delete`), or they lose a link or a line (`unlink`). The confirmation of a delete says
 * this before anything is done; the database's constraints enforce the same.
 */
export type DeleteEffect = 'refuse' | 'clear' | 'delete' | 'unlink'

/** One way rows refer to an entity's rows. */
export type Reference = {
  /** The entity the referring rows are counted as: the referring entity, or a line's document. */
  shownAs: Entity<string, Fields>
  /** The entity whose rows hold the reference (a line itself, for a reference in a document's lines). */
  referring: Entity<string, Fields>
  /** The field of `shownAs` that refers (a document's lines field, for a reference in its lines). */
  field: string
  table: string
  column: string
  /** The column whose distinct values are counted: a line's document, a link's owner; else the row. */
  countColumn: string
  /** Whether the referring rows are rows of the same table as those deleted (a menu item's parent). */
  isSameTable: boolean
  effect: DeleteEffect
  /** A row's author (`created_by`, `updated_by`): not a field of the registry's, kept by every table. */
  isAuthor?: boolean
}

export type ImpactItem = { entity: string; field: string; count: number; effect: DeleteEffect }

const effectOf = (onDelete: 'restrict' | 'cascade' | 'setNull', isLine: boolean): DeleteEffect =>
  onDelete === 'restrict' ? 'refuse' : onDelete === 'setNull' ? 'clear' : isLine ? 'unlink' : 'delete'

/**
 * Every reference to an entity's rows. A row's id is shared along an inheritance chain
 * (an employee is a user): deleting one deletes the other, so references to any of them count.
 */
export function referencesTo(registry: Registry, entity: Entity<string, Fields>): readonly Reference[] {
  // Worked out once per registry and entity: every delete, and every delete's cascade, asks.
  let known = referenceMaps.get(registry)
  if (!known) referenceMaps.set(registry, (known = new Map()))
  let references = known.get(entity.name)
  if (!references) known.set(entity.name, (references = findReferences(registry, entity)))
  return references
}

const referenceMaps = new WeakMap<Registry, Map<string, readonly Reference[]>>()

function findReferences(registry: Registry, entity: Entity<string, Fields>): Reference[] {
  const root = rootOf(entity)
  const targets = new Set(registry.filter((e) => rootOf(e) === root).map((e) => e.name))
  const out: Reference[] = []
  for (const e of registry) {
    const document = e.lineOf ? registry.find((d) => d.name === e.lineOf) : undefined
    const linesField = document?.linesFieldNames.find((n) => document.fields[n]!.lines!.entity === e)
    for (const name of e.ownFieldNames) {
      const field = e.fields[name]!
      if (!field.ref || !targets.has(field.ref.target) || (field.kind !== 'ref' && field.kind !== 'refs')) continue
      const isSameTable = rootOf(e) === root
      if (field.kind === 'refs') {
        out.push({ shownAs: e, referring: e, field: name, table: linkTable(e, name), column: 'target_id', countColumn: 'owner_id', isSameTable, effect: 'unlink' })
      } else if (document && linesField) {
        out.push({ shownAs: document, referring: e, field: linesField, table: e.name, column: name, countColumn: lineLinkColumn(e), isSameTable: false, effect: effectOf(field.ref.onDelete, true) })
      } else {
        out.push({ shownAs: e, referring: e, field: name, table: e.name, column: name, countColumn: 'id', isSameTable, effect: effectOf(field.ref.onDelete, false) })
      }
    }
  }
  // Every table keeps who wrote and last changed each row (server/db/registry-schema.ts): the
  // database clears them when that user goes, but a row that may never change (the general
  // ledger's: `appendOnly`) cannot be cleared, and refuses the delete of its author.
  if (root.name === 'user') {
    for (const e of registry.filter((x) => !x.parent)) {
      for (const column of ['created_by', 'updated_by']) {
        const countColumn = e.rowsPerLine ? e.rowsPerLine.key : 'id'
        out.push({ shownAs: e, referring: e, field: column, table: e.name, column, countColumn, isSameTable: e === root, effect: e.isAppendOnly ? 'refuse' : 'clear', isAuthor: true })
      }
    }
  }
  return out
}

const id = sql.id

/**
 * Only rows not in a Trash (EntityConfig.trash) refer: what a move to the Trash asks, since a
 * trashed row may keep pointing at another trashed one. A delete for good counts them all:
 * the database refuses it while any row refers.
 */
function liveReferrer(r: Reference): RawBuilder<unknown> {
  if (!r.referring.trash || r.referring.parent) return sql``
  // A link's owner is the referring row; otherwise the row holding the reference is.
  return r.table === r.referring.name ? sql` and deleted_at is null` : sql` and exists (select 1 from ${id(r.referring.name)} o where o.id = ${id(r.countColumn)} and o.deleted_at is null)`
}

/** How many rows (documents, owners) refer to `ids` by each reference; the rows being deleted themselves do not count. `live`: only rows not in a Trash. */
export async function impactOf(db: Executor, registry: Registry, entity: Entity<string, Fields>, ids: readonly number[], options: { live?: boolean } = {}): Promise<ImpactItem[]> {
  const references = referencesTo(registry, entity)
  if (references.length === 0 || ids.length === 0) return []
  const list = [...ids]
  const counts: RawBuilder<{ i: number; n: number }>[] = references.map((r, i) => {
    const others = r.isSameTable ? sql` and ${id(r.countColumn)} <> all(${list}::bigint[])` : sql``
    const live = options.live ? liveReferrer(r) : sql``
    return sql<{ i: number; n: number }>`select ${i}::int as i, count(distinct ${id(r.countColumn)}) as n from ${id(r.table)} where ${id(r.column)} = any(${list}::bigint[])${others}${live}`
  })
  const r = await sql<{ i: number; n: string | number }>`${sql.join(counts, sql` union all `)}`.execute(db)
  const items: ImpactItem[] = []
  // A union's rows come in no set order: in the registry's, as the references were listed.
  for (const row of [...r.rows].sort((a, b) => Number(a.i) - Number(b.i))) {
    const n = Number(row.n)
    const ref = references[row.i]!
    if (n > 0) items.push({ entity: ref.shownAs.name, field: ref.field, count: n, effect: ref.effect })
  }
  // Refusals first: they decide; then what would happen, in the registry's order.
  const rank: Record<DeleteEffect, number> = { refuse: 0, delete: 1, clear: 2, unlink: 3 }
  return items.sort((a, b) => rank[a.effect] - rank[b.effect])
}
