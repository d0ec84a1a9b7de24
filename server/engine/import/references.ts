import { sql } from 'kysely'
import { normalizers, type Entity, type Fields, type Message } from '../../../schema/kit'
import { can } from '../../auth/principal'
import type { Executor } from '../../db/types'
import { readPermissionOf, type EngineCtx } from '../access'
import { escapeLike, refTarget, source, type Registry } from '../list-query'
import type { Values } from '../validate'
import { foldName } from './fields'

/**
 * References given by what people call the rows — the target's label (a District by its
 * name), any case or accents — or by id as `#<id>`. Where the registry says a reference lies
 * within another of the record (`within`: a District within its Country, as the form's picker
 * cascades), the label is looked for within the row that other reference names in the same
 * row. A label no row has, or several rows have, is that row's error on the field, naming the
 * rows it could be (by id, and by name for a caller who may list them).
 *
 * Each distinct label (within its parent) is looked up once and remembered, up to a bound:
 * a file of 50,000 rows naming 200 districts asks 200 times, and a file naming 50,000
 * different ones keeps no more than `CACHE_SIZE` answers.
 */
type Found = { id: number } | { error: Message }

export const CACHE_SIZE = 10_000
/** The rows named in an ambiguity's message, at most. */
const NAMED_CANDIDATES = 5
const BY_ID = /^#\s*(\d{1,15})$/

type Link = { theirs: string; mine: string }

export type ReferenceResolver = {
  /** The reference fields of the mapping in the order they are resolved: a field after those it lies within. */
  readonly fields: readonly string[]
  /**
   * The row's references, set in `values` (each label as its row's id), read from `texts`
   * (field → cell text, blank left out). Answers the errors by field; a reference whose
   * parent could not be found is left unjudged (its parent's error says what is wrong).
   */
  resolve: (db: Executor, texts: ReadonlyMap<string, string>, values: Values) => Promise<Record<string, Message[]>>
}

export function referenceResolver(ctx: Pick<EngineCtx, 'actor' | 'access'>, registry: Registry, entity: Entity<string, Fields>, mapped: readonly string[]): ReferenceResolver {
  const refFields = mapped.filter((name) => entity.fields[name]!.ref !== undefined)
  const linksOf = (name: string): Link[] => Object.entries(entity.fields[name]!.within ?? {}).map(([theirs, mine]) => ({ theirs, mine }))
  // A field after the fields it lies within (a police station after its district, after its country).
  const ordered: string[] = []
  const visit = (name: string, path: readonly string[]) => {
    if (ordered.includes(name) || path.includes(name)) return
    for (const { mine } of linksOf(name)) if (refFields.includes(mine)) visit(mine, [...path, name])
    ordered.push(name)
  }
  for (const name of refFields) visit(name, [])

  const cache = new Map<string, Found>()
  const remember = (key: string, found: Found) => {
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
    cache.set(key, found)
  }
  const mayList = (target: Entity<string, Fields>) => ctx.access === 'system' || (ctx.actor !== null && can(ctx.actor, readPermissionOf(registry, target)))

  /** The rows of `target` whose label is `text` (within the parents given), with their parents' labels for a message. */
  async function lookUp(db: Executor, field: string, target: Entity<string, Fields>, text: string, parents: ReadonlyArray<Link & { id: number }>): Promise<Found> {
    const label = target.fields[target.labelField]
    // As the label field would store the text (a name capitalised), and as written.
    const spellings = [...new Set([text, ...(label?.normalize ? [normalizers[label.normalize](text)] : [])])].map(escapeLike)
    const within = parents.map((p) => sql` and x.${sql.ref(p.theirs)} = ${p.id}`)
    const rows = await sql<{ id: string | number }>`
      select x.id from ${source(target)} x
      where bo_unaccent(x.${sql.ref(target.labelField)}::text) ilike any(select bo_unaccent(s) from unnest(${spellings}::text[]) s)${sql.join(within, sql``)}
      order by x.id limit ${NAMED_CANDIDATES + 1}`.execute(db)
    const params = { entity: target.labelKey, value: text.slice(0, 100) }
    if (rows.rows.length === 1) return { id: Number(rows.rows[0]!.id) }
    if (rows.rows.length === 0) {
      return { error: parents.length > 0 ? { key: 'validation.import_ref_unknown_within', params: { ...params, other: entity.fieldLabelKey(parents[0]!.mine) } } : { key: 'validation.import_ref_unknown', params } }
    }
    const ids = rows.rows.slice(0, NAMED_CANDIDATES).map((r) => Number(r.id))
    // Their names and what they lie within for a caller who may list them; their ids alone for another.
    const candidates = mayList(target) ? await candidatesOf(db, target, ids, linksOf(field)) : ids.map((id) => `#${id}`).join(', ')
    const named = { ...params, candidates: rows.rows.length > NAMED_CANDIDATES ? `${candidates}, …` : candidates }
    // Another reference of the row would tell them apart: say which.
    const untold = linksOf(field).filter((l) => !parents.some((p) => p.mine === l.mine))
    return { error: untold.length > 0 ? { key: 'validation.import_ref_ambiguous_within', params: { ...named, other: entity.fieldLabelKey(untold[0]!.mine) } } : { key: 'validation.import_ref_ambiguous', params: named } }
  }

  /**
   * `#12 Kent (United Kingdom)`: each candidate's id, and what tells it from the others — what
   * it lies within, else the first row it refers to (a district's country) — for the person to choose.
   */
  async function candidatesOf(db: Executor, target: Entity<string, Fields>, ids: number[], links: readonly Link[]): Promise<string> {
    const within = links.map((l) => l.theirs).filter((name) => target.fields[name]?.kind === 'ref')
    const telling = within[0] ?? target.fieldNames.find((name) => target.fields[name]!.kind === 'ref' && target.fields[name]!.sql !== undefined && target.fields[name]!.ref!.target !== target.name)
    const of = telling ? refTarget(registry, target, telling) : undefined
    const parentLabel = telling && of ? [sql`(select y.${sql.ref(of.labelField)}::text from ${source(of)} y where y.id = x.${sql.ref(telling)})`] : []
    const rows = await sql<{ id: string | number; label: string | null; parent: string | null }>`
      select x.id, x.${sql.ref(target.labelField)}::text as label, ${parentLabel[0] ?? sql`null::text`} as parent
      from ${source(target)} x where x.id = any(${ids}::bigint[]) order by x.id`.execute(db)
    return rows.rows.map((r) => `#${String(r.id)} ${r.label ?? ''}${r.parent ? ` (${r.parent})` : ''}`.trim()).join(', ')
  }

  /** One label (or `#id`) of `field`, within the parents given: remembered, unless it names the entity's own rows. */
  async function find(db: Executor, name: string, text: string, parents: ReadonlyArray<Link & { id: number }>): Promise<Found> {
    const byId = BY_ID.exec(text)
    if (byId) return { id: Number(byId[1]) }
    const target = refTarget(registry, entity, name)
    // A reference to the entity itself may name a row made earlier in the same file.
    if (target.name === entity.name) return lookUp(db, name, target, text, parents)
    const key = `${name}\u0000${foldName(text)}\u0000${parents.map((p) => p.id).join(',')}`
    const known = cache.get(key)
    if (known) return known
    const found = await lookUp(db, name, target, text, parents)
    remember(key, found)
    return found
  }

  return {
    fields: ordered,
    resolve: async (db, texts, values) => {
      const errors: Record<string, Message[]> = {}
      for (const name of ordered) {
        const text = texts.get(name)
        if (text === undefined) continue
        // Many rows (a many-to-many field): their labels separated by `;`.
        if (entity.fields[name]!.kind === 'refs') {
          const found: Found[] = []
          for (const part of text.split(';').map((x) => x.trim()).filter((x) => x !== '')) found.push(await find(db, name, part, []))
          const failed = found.flatMap((f) => ('error' in f ? [f.error] : []))
          if (failed.length > 0) errors[name] = failed
          else values[name] = found.map((f) => ('id' in f ? f.id : 0))
          continue
        }
        // What it lies within, as this row gives it; a parent the row names but that was not found leaves it unjudged.
        const links = linksOf(name).filter((l) => texts.has(l.mine) || values[l.mine] !== undefined)
        if (links.some((l) => errors[l.mine] !== undefined || typeof values[l.mine] !== 'number')) continue
        const found = await find(db, name, text, links.map((l) => ({ ...l, id: values[l.mine] as number })))
        if ('id' in found) values[name] = found.id
        else errors[name] = [found.error]
      }
      return errors
    },
  }
}
