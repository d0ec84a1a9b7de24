import { sql } from 'kysely'
import { storageOf, type Entity, type Fields } from '../../schema/kit'
import { slugify } from '../../schema/kit/slug'
import type { Trx } from '../db/types'
import { escapeLike } from './list-query'
import type { Values } from './validate'

/**
 * Slugs (`f.slug({ from })`): the address-friendly form of a record's name, made by the
 * server when the field is left blank — with the kit's `slugify`, which the form's preview
 * runs too (Latin accents folded, other scripts' letters kept: schema/kit/slug.ts) — and kept
 * unique with `-2`, `-3`… when the field is `unique`. The form previews the made slug in
 * the field itself, so a slug sent equal to the one made from the source is taken as made:
 * it gets its suffix like a blank one. Any other slug the client gives is its own choice and
 * is stored as given (judged by the field like any text; a unique one that is taken is
 * refused as any unique value is).
 */

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

/** The slug fields of an entity: those with a source field. */
const slugFields = (entity: Entity<string, Fields>) => entity.fieldNames.filter((n) => entity.fields[n]!.slugFrom !== undefined && entity.fields[n]!.sql !== undefined)

/** Advisory-lock class of slug making (the other key is the table, column and base's hash). */
const SLUG_LOCK = 724_011

/**
 * The first of `base`, `base-2`, `base-3`… that no other row of the column holds. Writers
 * making the same base take turns (a transaction-scoped lock on it), so two parallel creates
 * of "Summer in Sylhet" get `summer-in-sylhet` and `summer-in-sylhet-2` rather than one refusal.
 */
async function freeSlug(trx: Trx, where: { table: string; column: string; rowId: number | null; max: number }, base: string): Promise<string> {
  await sql`select pg_advisory_xact_lock(${SLUG_LOCK}, hashtext(${`${where.table}.${where.column}:${base}`}))`.execute(trx)
  // Every candidate starts with the part of the base that a suffix of up to ten digits leaves.
  const stem = Array.from(base).slice(0, Math.max(1, where.max - 11)).join('')
  const taken = await sql<{ slug: string }>`
    select ${sql.ref(where.column)} as slug from ${sql.table(where.table)}
    where ${sql.ref(where.column)} like ${`${escapeLike(stem)}%`} and id is distinct from ${where.rowId}::bigint`.execute(trx)
  const used = new Set(taken.rows.map((r) => r.slug))
  if (!used.has(base)) return base
  for (let n = 2; ; n++) {
    const suffix = `-${n}`
    const candidate = `${slugify(base, where.max - suffix.length)}${suffix}`
    if (!used.has(candidate)) return candidate
  }
}

/**
 * The values with the slug fields left blank filled in from their source field (inside the
 * write's transaction, after validation: the source is the stored form of the text), unique
 * ones with the first free suffix. `rowId`: the row an update writes, whose own slug is no
 * clash. A blank source leaves the slug blank.
 */
export async function fillSlugs(trx: Trx, entity: Entity<string, Fields>, given: Values, rowId: number | null): Promise<Values> {
  const values = { ...given }
  for (const name of slugFields(entity)) {
    const field = entity.fields[name]!
    const source = values[field.slugFrom!]
    const base = typeof source === 'string' ? slugify(source, field.maxLength ?? 500) : ''
    if (!isBlank(values[name]) && values[name] !== base) continue
    if (base === '') {
      values[name] = null
      continue
    }
    values[name] = field.isUnique ? await freeSlug(trx, { table: storageOf(entity, name).name, column: name, rowId, max: field.maxLength ?? 500 }, base) : base
  }
  return values
}
