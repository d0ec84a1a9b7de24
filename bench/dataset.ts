import { sql } from 'kysely'
import { registry } from '../schema'
import type { Connection } from '../server/db/connect'
import type { ListQuery } from '../server/engine/list-query'

const thana = registry.thana

/**
 * Police-station name prefixes (Dhaka Metropolitan Police thanas). Exactly one contains
 * `gul`, so that a search for `gul` matches one generated row in 12 (≈ 8,333 of 100,000),
 * as in the original stack's many-match anchor. The Bengali names fill `bn_name`, which
 * the `q` search covers too (they never contain `gul`).
 */
export const PREFIXES: readonly (readonly [string, string])[] = [
  ['Gulshan', 'গুলশান'],
  ['Banani', 'বনানী'],
  ['Mirpur', 'মিরপুর'],
  ['Dhanmondi', 'ধানমন্ডি'],
  ['Motijheel', 'মতিঝিল'],
  ['Uttara', 'উত্তরা'],
  ['Mohammadpur', 'মোহাম্মদপুর'],
  ['Tejgaon', 'তেজগাঁও'],
  ['Ramna', 'রমনা'],
  ['Lalbagh', 'লালবাগ'],
  ['Khilgaon', 'খিলগাঁও'],
  ['Pallabi', 'পল্লবী'],
]
export const SEARCH_TERM = 'gul'
if (PREFIXES.length !== 12 || PREFIXES.filter(([en]) => en.toLowerCase().includes(SEARCH_TERM)).length !== 1) {
  throw new Error(`bench/dataset.ts: want 12 prefixes, exactly one containing '${SEARCH_TERM}'`)
}

/** Tops the thana table (the demo seed's ~600 real ones first) up to `rows`: "<prefix> <n>", prefix n mod 12. */
export async function fillThanas(conn: Connection, rows: number): Promise<number> {
  const names = PREFIXES.map(([en]) => en)
  const bnNames = PREFIXES.map(([, bn]) => bn)
  const existing = Number((await sql<{ n: number }>`select count(*) as n from thana`.execute(conn.db)).rows[0]!.n)
  const cityIds = (await sql<{ id: number }>`select id from city order by id`.execute(conn.db)).rows.map((r) => r.id)
  const missing = rows - existing
  const batch = 100_000
  for (let done = 0; done < missing; done += batch) {
    const n = Math.min(batch, missing - done)
    await sql`insert into thana (name, bn_name, city, created_by, updated_by)
      select (${names}::text[])[1 + (g % 12)] || ' ' || g, (${bnNames}::text[])[1 + (g % 12)] || ' ' || g,
        (${cityIds}::bigint[])[1 + (g % ${cityIds.length}::int)], 1, 1
      from generate_series(${done + 1}::int, ${done + n}::int) g`.execute(conn.db)
  }
  await sql`analyze`.execute(conn.db)
  return Math.max(0, missing)
}

export async function countMatches(conn: Connection, term: string): Promise<{ name: number; any: number }> {
  const like = `%${term}%`
  const r = await sql<{ name: number; any: number }>`select count(*) filter (where name ilike ${like}) as name,
    count(*) filter (where name ilike ${like} or bn_name ilike ${like}) as any from thana`.execute(conn.db)
  return { name: Number(r.rows[0]!.name), any: Number(r.rows[0]!.any) }
}

/** One bench case: an HTTP path and the same engine query (or row read) for the floor. */
export type Case = { name: string; path: string; query: () => ListQuery | number; original?: number; target?: number }

/**
 * The cases, with the original stack's req/s (performance-anchors.md) and the wanted
 * multiple of it. The `q` search has no original figure of its own: it is held to the
 * many-match name search's.
 */
export function benchCases(rows: number): Case[] {
  const deepPage = Math.floor(rows / 30 / 2)
  const page = { page: 1, size: 30 }
  return [
    { name: 'all/ page 1', path: `${thana.api.base}/all/?page=1&size=30`, query: () => ({ filters: [], ordering: thana.ordering, page }), original: 23, target: 10 },
    { name: `all/ page ${deepPage}`, path: `${thana.api.base}/all/?page=${deepPage}&size=30`, query: () => ({ filters: [], ordering: thana.ordering, page: { page: deepPage, size: 30 } }), original: 22, target: 10 },
    {
      name: `search/ name=${SEARCH_TERM}`,
      path: `${thana.api.base}/search/?name=${SEARCH_TERM}&size=30`,
      query: () => ({ filters: [{ field: 'name', op: 'contains', value: SEARCH_TERM }], ordering: thana.ordering, page }),
      original: 17.9,
      target: 20,
    },
    {
      name: `search/ q=${SEARCH_TERM}`,
      path: `${thana.api.base}/search/?q=${SEARCH_TERM}&size=30`,
      // `q`: any searchable field (name, bn_name) contains the text. Were listRows to refuse it, the floor is skipped.
      query: () => ({ filters: [{ op: 'search', value: SEARCH_TERM }], ordering: thana.ordering, page }),
      original: 17.9,
      target: 20,
    },
    { name: '{id}', path: `${thana.api.base}/12345`, query: () => 12345, original: 680, target: 3 },
  ]
}
