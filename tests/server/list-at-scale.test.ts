import { sql, type RawBuilder } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import type { Catalogue } from '../../schema/check'
import { defineEntity, f } from '../../schema/kit'
import { catalogues } from '../../server/i18n'
import { forgetPositions, listTuning, seekCounts } from '../../server/engine/list-positions'
import { describeEachDatabase, type TestApp } from './helpers/app'

/**
 * Search and deep pages at scale, through the HTTP API on both databases, with the thresholds
 * lowered so that a few thousand rows reach every path: a text search counted only so far
 * ("more than N": `total_is_lower_bound`), and pages past the first cut by a deferred join or
 * sought from a remembered row — each the very page a plain OFFSET gives, whatever the order
 * (ties, nulls, a reference's label), the filter, and the writes between requests.
 */
const probe = defineEntity({
  name: 'scale_probe',
  module: 'test',
  listKey: 'scale_probes',
  route: { area: 'scale-management', list: 'scale-probes' },
  fields: {
    name: f.text({ max: 40, required: true, search: true }),
    note: f.text({ max: 40, search: true, label: 'field.details' }),
    rank: f.integer({ required: true, label: 'field.serial_number' }),
    city: f.ref('city', { required: true, label: 'field.district' }),
  },
})
const registry = [...entities, probe]
const base = probe.api.base
const ROWS = 3_000
const UP_TO = 50
const SEEK_FROM = 40

const added: Record<string, Catalogue> = { entity: { scale_probe: { one: 'Probe', other: 'Probes' } } }
const mutable = catalogues as unknown as Record<string, Record<string, Record<string, unknown>>>
const tuned = { ...listTuning }
beforeAll(() => {
  for (const lang of Object.keys(mutable)) mutable[lang]!.entity = { ...mutable[lang]!.entity, ...(added.entity as object) }
  listTuning.exactCountUpTo = UP_TO
  listTuning.seekFrom = SEEK_FROM
})
afterAll(() => {
  for (const lang of Object.keys(mutable)) delete (mutable[lang]!.entity as Record<string, unknown>).scale_probe
  Object.assign(listTuning, tuned)
})

/** A seeded generator, so a failure names the case it can be run again with. */
function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/** Rows with many ties (500 names, 7 ranks), notes on one row in three, over the districts. */
async function seedRows(db: TestApp['db'], from: number, to: number): Promise<void> {
  await sql`insert into scale_probe (name, note, rank, city, created_by, updated_by)
    select 'Name ' || lpad((g % 500)::text, 3, '0') || case when g % 5 = 0 then ' alpha' else '' end,
      case when g % 3 = 0 then 'note ' || (g % 40) else null end, g % 7,
      (select id from city order by id offset (g % (select count(*) from city)::int) limit 1), 1, 1
    from generate_series(${from}::int, ${to}::int) g`.execute(db)
}

type Case = { ordering: string; query: string; where: RawBuilder<unknown> }
const like = (text: string) => `%${text}%`
const FILTERS: readonly { query: string; where: RawBuilder<unknown> }[] = [
  { query: '', where: sql`true` },
  { query: 'q=alpha', where: sql`(bo_unaccent(t.name) ilike bo_unaccent(${like('alpha')}) or bo_unaccent(t.note) ilike bo_unaccent(${like('alpha')}))` },
  { query: 'rank__in=1,2,3', where: sql`t.rank in (1, 2, 3)` },
  { query: 'q=note%207', where: sql`(bo_unaccent(t.name) ilike bo_unaccent(${like('note 7')}) or bo_unaccent(t.note) ilike bo_unaccent(${like('note 7')}))` },
]
const ORDERINGS = ['id', '-id', 'name', '-name', 'rank', '-rank', 'note', '-note', 'city', '-city']

/** The order as the list means it (a reference by its row's label; nulls last ascending), then id the same way. */
function orderBy(ordering: string): RawBuilder<unknown> {
  const desc = ordering.startsWith('-')
  const name = ordering.replace(/^-/, '')
  const dir = sql.raw(desc ? 'desc' : 'asc')
  const key = name === 'city' ? sql`(select c.name from city c where c.id = t.city)` : sql.ref(`t.${name}`)
  return name === 'id' ? sql`t.id ${dir}` : sql`${key} ${dir}, t.id ${dir}`
}

/** The page by a plain OFFSET over the table: what every page must be. */
async function offsetPage(db: TestApp['db'], c: Case, page: number, size: number): Promise<number[]> {
  const r = await sql<{ id: number }>`select t.id from scale_probe t where ${c.where} order by ${orderBy(c.ordering)} limit ${size} offset ${(page - 1) * size}`.execute(db)
  return r.rows.map((x) => Number(x.id))
}

async function total(db: TestApp['db'], c: Case): Promise<number> {
  const r = await sql<{ n: number }>`select count(*) as n from scale_probe t where ${c.where}`.execute(db)
  return Number(r.rows[0]!.n)
}

const path = (c: Case, page: number, size: number) => `${base}/${c.query ? 'search' : 'all'}/?${[c.query, `ordering=${c.ordering}`, `page=${page}`, `size=${size}`].filter(Boolean).join('&')}`

describeEachDatabase(
  'lists at scale',
  (t) => {
    beforeAll(async () => {
      // Districts of two countries, named alike: a reference's label ties too.
      await sql`insert into country (name) values ('Probeland'), ('Otherland')`.execute(t.current.db)
      await sql`insert into city (name, country) select 'District ' || (g % 7), c.id from generate_series(1, 7) g, country c where c.name in ('Probeland', 'Otherland')`.execute(t.current.db)
      await seedRows(t.current.db, 1, ROWS)
      await sql`analyze scale_probe`.execute(t.current.db)
    })

    const list = async (c: Case, page: number, size: number) => {
      const r = await t.current.call({ method: 'GET', url: path(c, page, size) })
      expect(r.status, `${path(c, page, size)}: ${r.raw.slice(0, 200)}`).toBe(200)
      return r.body as { scale_probes: { id: number }[]; page: number; size: number; total_pages: number; total_elements: number; total_is_lower_bound?: boolean }
    }

    describe('the total', () => {
      const search = FILTERS[1]!
      it('of a text search with more matches than the bound is "more than N", and the pages past N still come', async () => {
        const c = { ...search, ordering: 'id' }
        const matching = await total(t.current.db, c)
        expect(matching).toBeGreaterThan(UP_TO * 4)
        const first = await list(c, 1, 10)
        expect(first).toMatchObject({ total_elements: UP_TO, total_is_lower_bound: true, total_pages: Math.ceil((UP_TO + 1) / 10), page: 1 })
        // The last page it announces is served in full, and announces one more.
        const last = await list(c, first.total_pages, 10)
        expect(last.page).toBe(first.total_pages)
        expect(last.scale_probes.map((r) => r.id)).toEqual(await offsetPage(t.current.db, c, first.total_pages, 10))
        // Counted further now (the bound doubles past the page's end: 100), still short of every match.
        expect(last).toMatchObject({ total_elements: UP_TO * 2, total_is_lower_bound: true, total_pages: Math.ceil((UP_TO * 2 + 1) / 10) })
        // A page far past the bound is counted to its end: never clamped to the bound.
        const deep = await list(c, 40, 10)
        expect(deep.page).toBe(40)
        expect(deep.scale_probes.map((r) => r.id)).toEqual(await offsetPage(t.current.db, c, 40, 10))
      })

      it('is exact for a search within the bound, a list without one, a filter that matches no text, and past the last match', async () => {
        const rare = { ...FILTERS[3]!, ordering: 'id' }
        const n = await total(t.current.db, rare)
        expect(n).toBeGreaterThan(0)
        expect(n).toBeLessThanOrEqual(UP_TO)
        const r = await list(rare, 1, 10)
        expect(r.total_elements).toBe(n)
        expect(r.total_is_lower_bound).toBeUndefined()

        const all = await list({ ...FILTERS[0]!, ordering: 'id' }, 1, 10)
        expect(all).toMatchObject({ total_elements: ROWS, total_pages: ROWS / 10 })
        expect(all.total_is_lower_bound).toBeUndefined()

        const ranks = { ...FILTERS[2]!, ordering: 'id' }
        const byRank = await list(ranks, 1, 10)
        expect(byRank.total_elements).toBe(await total(t.current.db, ranks))
        expect(byRank.total_is_lower_bound).toBeUndefined()

        // Asked past the end, a search counts all its matches: the exact total, the last page.
        const search = { ...FILTERS[1]!, ordering: 'id' }
        const matching = await total(t.current.db, search)
        const past = await list(search, 1000, 10)
        expect(past).toMatchObject({ total_elements: matching, page: Math.ceil(matching / 10), total_pages: Math.ceil(matching / 10) })
        expect(past.total_is_lower_bound).toBeUndefined()
        // Counted, it is remembered: page 1 of the same search now says the exact number.
        expect((await list(search, 1, 10)).total_elements).toBe(matching)
      })

      it('moves with a write: a new match is counted', async () => {
        const c = { query: 'q=zzyzx', where: sql`true`, ordering: 'id' }
        expect((await list(c, 1, 10)).total_elements).toBe(0)
        await sql`insert into scale_probe (name, rank, city) values ('Zzyzx road', 1, (select min(id) from city))`.execute(t.current.db)
        expect((await list(c, 1, 10)).total_elements).toBe(1)
        await sql`delete from scale_probe where name = 'Zzyzx road'`.execute(t.current.db)
      })
    })

    describe('pages past the first are the ones OFFSET gives', () => {
      it('for every order and filter, pages asked at random, walked forward and asked again', async () => {
        forgetPositions()
        const sought = seekCounts.sought
        const next = random(26)
        for (const filter of FILTERS) {
          for (const ordering of ORDERINGS) {
            const c = { ...filter, ordering }
            const size = [10, 30][Math.floor(next() * 2)]!
            const n = await total(t.current.db, c)
            const lastPage = Math.max(1, Math.ceil(n / size))
            // Deep pages at random, then a walk forward from one, then the same pages again (sought from what is remembered).
            const start = 1 + Math.floor(next() * lastPage)
            const pages = [...Array.from({ length: 4 }, () => 1 + Math.floor(next() * lastPage)), start, start + 1, start + 2, start, lastPage, lastPage - 1]
            for (const page of pages.filter((p) => p >= 1 && p <= lastPage)) {
              const got = await list(c, page, size)
              const want = await offsetPage(t.current.db, c, page, size)
              expect(got.scale_probes.map((r) => r.id), `${path(c, page, size)}`).toEqual(want)
            }
          }
        }
        // Pages asked again and the next ones were sought from remembered rows, not cut by OFFSET.
        expect(seekCounts.sought - sought).toBeGreaterThan(20)
      })

      it('after rows are added, changed and removed between requests (the remembered rows are not used again)', async () => {
        forgetPositions()
        const missed = seekCounts.missed
        const next = random(7)
        let serial = ROWS
        for (const ordering of ['id', '-id', 'name', '-rank', 'note']) {
          for (const filter of [FILTERS[0]!, FILTERS[1]!]) {
            const c = { ...filter, ordering }
            const size = 10
            let page = 6 + Math.floor(next() * 20)
            for (let step = 0; step < 5; step++) {
              expect((await list(c, page, size)).scale_probes.map((r) => r.id), `${path(c, page, size)} before a write`).toEqual(await offsetPage(t.current.db, c, page, size))
              const write = step % 3
              if (write === 0) {
                await seedRows(t.current.db, serial + 1, serial + 3)
                serial += 3
              } else if (write === 1) {
                await sql`update scale_probe set name = 'Name 000 alpha', rank = 0 where id = (select id from scale_probe order by id offset ${Math.floor(next() * 500)} limit 1)`.execute(t.current.db)
              } else {
                await sql`delete from scale_probe where id = (select id from scale_probe order by id offset ${Math.floor(next() * 500)} limit 1)`.execute(t.current.db)
              }
              page += step % 2 === 0 ? 1 : 0
              expect((await list(c, page, size)).scale_probes.map((r) => r.id), `${path(c, page, size)} after a write`).toEqual(await offsetPage(t.current.db, c, page, size))
            }
          }
        }
        // Rows remembered before a write were looked up under the old versions and not used: no seek reached the statement.
        expect(seekCounts.missed - missed).toBe(0)
      })
    })
  },
  { entities: registry },
)
