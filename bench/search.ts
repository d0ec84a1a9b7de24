/**
 * `npm run bench:search`: new searches (a term not asked before: its count not remembered),
 * warm ones (one term repeated) and deep pages, before and after the bounded count and the
 * seeks (server/engine/list-query.ts, list-positions.ts), on PostgreSQL and PGlite, at
 * 100,000 and 1,000,000 police stations (seeded once under bench/.data: search-data.ts).
 * Each case is the engine's list read (count + page, as `search/` and `all/` run it) on the
 * bench's own connection, one request at a time — no HTTP, auth or JSON (HTTP adds ~3 ms
 * here: RESULTS.md's `/api/health` row). "Before" is the read as it was: an exact COUNT and
 * the page by OFFSET in one query, built from the same clauses. Writes its section of
 * bench/RESULTS.md and the plans to bench/search-plans.md.
 *
 * SEARCH_DBS=postgres,pglite  SEARCH_ROWS=100000,1000000  SEARCH_TERMS (new terms per case, 20).
 */
import { writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { sql } from 'kysely'
import { entities, registry } from '../schema'
import { forgetCounts, listColumns, listRows, orderClause, source, whereClause, type Filter, type ListQuery } from '../server/engine/list-query'
import { forgetPositions, listTuning, seekCounts } from '../server/engine/list-positions'
import type { Executor } from '../server/db/types'
import { writeSection } from './accounting-results'
import { PREFIXES, SEARCH_TERM } from './dataset'
import type { Kind } from './databases'
import { searchDb, type SearchDb } from './search-data'
import { figures, type Figures } from './stats'

const thana = registry.thana
const DBS = (process.env.SEARCH_DBS ?? 'postgres,pglite').split(',') as Kind[]
const SIZES = (process.env.SEARCH_ROWS ?? '100000,1000000').split(',').map(Number)
const TERMS = Number(process.env.SEARCH_TERMS ?? 20)
const WARM = 30
const SIZE = 30

/** Three-letter pieces of the station names: each matches one or two prefixes of twelve (8–17 % of the rows), as the original's `gul`. */
const TERM_POOL = [...new Set(PREFIXES.flatMap(([en]) => Array.from({ length: en.length - 2 }, (_, i) => en.toLowerCase().slice(i, i + 3))))].filter((t) => t !== SEARCH_TERM)

const contains = (value: string): Filter[] => [{ field: 'name', op: 'contains', value }]
const searchQ = (value: string): Filter[] => [{ op: 'search', value }]

/** The list read as it was before: an exact COUNT beside the page by OFFSET (ids cut first, then joined). */
async function before(db: Executor, q: ListQuery & { page: { page: number; size: number } }): Promise<void> {
  const { columns, joins } = listColumns(entities, thana, 'p')
  const counted =
    q.filters.length === 0
      ? sql`select n from row_count where table_name = 'thana'`.execute(db)
      : sql`select count(*) as n from ${source(thana)} t ${whereClause(entities, thana, 't', q.filters)}`.execute(db)
  const page = sql`
    with p as (
      select * from ${source(thana)} t ${whereClause(entities, thana, 't', q.filters)}
      order by ${orderClause(entities, thana, 't', q.ordering)} limit ${q.page.size} offset ${(q.page.page - 1) * q.page.size}
    )
    select ${sql.join(columns)} from p ${sql.join(joins, sql` `)} order by ${orderClause(entities, thana, 'p', q.ordering)}`.execute(db)
  await Promise.all([counted, page])
}

const after = async (db: Executor, q: ListQuery) => void (await listRows(db, thana, q, entities))

async function timed(runs: readonly (() => Promise<void>)[]): Promise<Figures> {
  const samples: number[] = []
  const t0 = performance.now()
  for (const run of runs) {
    const s = performance.now()
    await run()
    samples.push(performance.now() - s)
  }
  return figures(samples, performance.now() - t0)
}

type Row = { db: string; rows: number; name: string; before?: Figures; after: Figures; note?: string }

async function explain(db: Executor, query: ReturnType<typeof sql>): Promise<string> {
  const r = await sql<{ 'QUERY PLAN': string }>`explain (analyze, costs off, timing off, summary off) ${query}`.execute(db)
  return r.rows.map((x) => x['QUERY PLAN']).join('\n')
}

async function benchOne(s: SearchDb, out: Row[], plans: string[]): Promise<void> {
  const db = s.conn.db
  // Counts and rows remembered belong to one database: another's are never asked for.
  forgetCounts()
  forgetPositions()
  const label = s.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'
  const terms = TERM_POOL.slice(0, TERMS)
  const row = (name: string, a: Figures, b?: Figures, note?: string) => out.push({ db: label, rows: s.rows, name, after: a, ...(b ? { before: b } : {}), ...(note ? { note } : {}) })
  const hits = async (filters: Filter[]) => Number((await sql<{ n: number }>`select count(*) as n from thana t ${whereClause(entities, thana, 't', filters)}`.execute(db)).rows[0]!.n)
  const page1 = (filters: Filter[]) => ({ filters, ordering: thana.ordering, page: { page: 1, size: SIZE } })

  // Warm the table's pages and the trigram index once, untimed.
  await before(db, page1(contains(SEARCH_TERM)))
  const hitCounts = await Promise.all(terms.slice(0, 5).map((t) => hits(contains(t))))
  const hitNote = `${Math.min(...hitCounts).toLocaleString('en')}–${Math.max(...hitCounts).toLocaleString('en')} matches each (first 5 terms)`

  // New searches: each term asked once; before (exact COUNT), then after (counted up to listTuning.exactCountUpTo).
  row('new search `name=<term>`, page 1', await timed(terms.map((t) => () => after(db, page1(contains(t))))), await timed(terms.map((t) => () => before(db, page1(contains(t))))), hitNote)
  row('new search `q=<term>` (name or Bengali name), page 1', await timed(terms.map((t) => () => after(db, page1(searchQ(t))))), await timed(terms.map((t) => () => before(db, page1(searchQ(t))))))
  // Warm: one term repeated (its count remembered, before as after).
  const warm = Array.from({ length: WARM }, () => () => after(db, page1(contains(SEARCH_TERM))))
  row(`the same search repeated \`name=${SEARCH_TERM}\``, await timed(warm), await timed(Array.from({ length: WARM }, () => () => before(db, page1(contains(SEARCH_TERM))))), `${(await hits(contains(SEARCH_TERM))).toLocaleString('en')} matches; before: an exact COUNT every time (what a cache miss costs)`)

  // Deep pages of `all/` (ordering id): before by OFFSET; after, first visit (deferred join), then walking on (seek), then the same page again.
  const deepPages = s.rows >= 1_000_000 ? [2_000, 20_000] : [2_000]
  for (const deep of deepPages) {
    const at = (page: number, ordering = thana.ordering, filters: Filter[] = []) => ({ filters, ordering, page: { page, size: SIZE } })
    for (const ordering of [thana.ordering, 'name']) {
      const b = await timed(Array.from({ length: 10 }, (_, i) => () => before(db, at(deep + i * 7, ordering))))
      const first = await timed(Array.from({ length: 10 }, (_, i) => () => {
        forgetPositions()
        return after(db, at(deep + i * 7, ordering))
      }))
      row(`\`all/?ordering=${ordering}\` page ${deep.toLocaleString('en')}, first visit`, first, b)
      forgetPositions()
      await after(db, at(deep, ordering))
      const sought = seekCounts.sought
      const walk = await timed(Array.from({ length: 20 }, (_, i) => () => after(db, at(deep + 1 + i, ordering))))
      row(`\`all/?ordering=${ordering}\` pages ${(deep + 1).toLocaleString('en')}–${(deep + 20).toLocaleString('en')}, each after the one before`, walk, b, `${seekCounts.sought - sought} of 20 sought from a remembered row`)
    }
  }
  // A deep page of a many-match search.
  const searchDeep = Math.floor(s.rows / 12 / SIZE / 2)
  const sq = (page: number) => ({ filters: contains(SEARCH_TERM), ordering: thana.ordering, page: { page, size: SIZE } })
  const bs = await timed(Array.from({ length: 10 }, (_, i) => () => before(db, sq(searchDeep + i))))
  const fs = await timed(Array.from({ length: 10 }, (_, i) => () => {
    forgetPositions()
    return after(db, sq(searchDeep + i))
  }))
  row(`\`search/?name=${SEARCH_TERM}\` page ${searchDeep.toLocaleString('en')}, first visit`, fs, bs)
  forgetPositions()
  await after(db, sq(searchDeep))
  row(`\`search/?name=${SEARCH_TERM}\` pages ${searchDeep + 1}–${searchDeep + 20}, each after the one before`, await timed(Array.from({ length: 20 }, (_, i) => () => after(db, sq(searchDeep + 1 + i)))), bs)

  // The plans: does the bounded count use the trigram index, and the deep page the primary key alone?
  const where = whereClause(entities, thana, 't', contains('ulsh'))
  plans.push(`### ${label}, ${s.rows.toLocaleString('en')} rows`, '')
  plans.push('Bounded count of a new search (`name=ulsh`):', '', '```', await explain(db, sql`select count(*) from (select 1 from ${source(thana)} t ${where} limit ${listTuning.exactCountUpTo + 1}) s`), '```', '')
  plans.push('Exact count, as before:', '', '```', await explain(db, sql`select count(*) from ${source(thana)} t ${where}`), '```', '')
  plans.push('The ids of page 2,000 of `all/` (the deferred join\'s first step):', '', '```', await explain(db, sql`select t.id from ${source(thana)} t order by t.id limit ${SIZE} offset ${1999 * SIZE}`), '```', '')
}

const ms = (x: number) => x.toFixed(1)

/** What the figures and plans say (written with them; checked against them when the bench is run again). */
const EXPLAINED: readonly string[] = [
  "What the plans say (bench/search-plans.md, both databases): the bounded count of a new search is a Bitmap Index Scan on the trigram index `thana_name_search` under a `Limit 1001`, so only 1,001 of the 8,288 (or 83,288) matching rows are fetched and rechecked; the exact COUNT before fetched and rechecked every one — that was the 38 ms of 44. A new search's page 1 is now the count of 1,001 rows beside the first 30 rows by id. The same search repeated was already served from the remembered count (its \"before\" here is what every new term cost).",
  "",
  "Deep pages: a page asked right after the one before it (or asked again) seeks from the row remembered at its edge — `(sort key, id) > (that row's)` by the order's index — and costs what page 2 does, at any depth, on both databases. A first visit to a deep page is still cut by OFFSET, over the ids only (a deferred join): for the police stations, an entity with a Trash, the rows' `deleted_at is null` is checked on the table for every skipped row, so it is no index-only scan and gains little (1.1–2×; `ordering=id` at 1M rows measured no faster, within this loaded run's noise). A partial index on the order's columns `where deleted_at is null` would make it one (not done: it is a new index per entity with a Trash). Every page is the one OFFSET gives in the statement's own snapshot: rows are remembered under the versions of the tables the list reads, and a seek checks those versions inside its statement — a write between two requests (an insert, an update of a sort key, a delete) makes the next page an OFFSET page again (tests/server/list-at-scale.test.ts compares every page with a plain OFFSET query, both databases, random orders — ties, nulls, a reference's label — and filters, with writes between requests). No stability is promised beyond OFFSET's: a row inserted before a page shifts it, as before."
]


async function main(): Promise<void> {
  const out: Row[] = []
  const plans: string[] = ['# Plans of the search bench', '', `\`npm run bench:search\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. \`explain (analyze, costs off, timing off)\`.`, '']
  const loads: string[] = []
  for (const kind of DBS) {
    for (const rows of SIZES) {
      const s = await searchDb(kind, rows)
      if (s.seededSeconds !== undefined) console.log(`seeded ${rows.toLocaleString('en')} rows on ${kind} in ${s.seededSeconds.toFixed(0)} s`)
      const l0 = loadavg()[0]!
      try {
        await benchOne(s, out, plans)
      } finally {
        await s.close()
      }
      loads.push(`${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} ${rows.toLocaleString('en')}: ${l0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`)
      console.log(`${kind} ${rows}: done (load ${loads.at(-1)})`)
    }
  }
  const lines: string[] = ['## Search and deep pages at scale', '']
  lines.push(
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} cores shared with other work, Node ${process.version}: \`npm run bench:search\` (bench/search.ts). 1-minute load average at the start → end of each database and size: ${loads.join('; ')}. ` +
      `Police stations named "<prefix> <n>" (bench/dataset.ts), seeded once under bench/.data and \`VACUUM ANALYZE\`d; PostgreSQL 15 with shared_buffers=256MB, PGlite with the server's settings. ` +
      `Each case is the engine's list read (count + page of ${SIZE}, as \`search/\` and \`all/\` run it) on the bench's own connection, one at a time — no HTTP (which adds ~3 ms). ` +
      `A new search takes a term not asked before (${TERMS} three-letter pieces of the names, each matching one or two prefixes of twelve): its count is not remembered. "Before" is the read as it was — an exact COUNT beside the page by OFFSET; "after" counts a text search up to ${listTuning.exactCountUpTo.toLocaleString('en')} matches (then \`total_elements\` ${listTuning.exactCountUpTo.toLocaleString('en')} with \`total_is_lower_bound: true\`), cuts a later page's ids before reading its rows, and seeks a deep page from a row remembered before it.`,
    '',
  )
  lines.push('| database | rows | case | before p50 ms | before p95 ms | after p50 ms | after p95 ms | before ÷ after (p50) | note |', '|---|---:|---|---:|---:|---:|---:|---:|---|')
  for (const r of out) {
    lines.push(`| ${r.db} | ${r.rows.toLocaleString('en')} | ${r.name} | ${r.before ? ms(r.before.p50) : '–'} | ${r.before ? ms(r.before.p95) : '–'} | ${ms(r.after.p50)} | ${ms(r.after.p95)} | ${r.before ? `${(r.before.p50 / r.after.p50).toFixed(1)}×` : '–'} | ${r.note ?? ''} |`)
  }
  lines.push(...EXPLAINED)
  writeSection('bench/RESULTS.md', 'search and deep pages', lines.join('\n'))
  writeFileSync('bench/search-plans.md', plans.join('\n') + '\n')
  console.log(lines.join('\n'))
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
