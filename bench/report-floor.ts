import { sql, type RawBuilder } from 'kysely'
import { entities } from '../schema'
import type { Report } from '../schema/kit'
import { defaultModules } from '../server/app'
import type { Db } from '../server/db/types'
import type { ReportRun, ReportSource } from '../server/engine/reports'

/**
 * A report's SQL floor for the benches: what the engine's report route runs
 * (server/engine/reports.ts) — the report's own queries, the count and totals (unless the
 * report gives them), then the page asked for (or every row) — directly on a connection,
 * without HTTP, auth or JSON.
 */
const runs: Readonly<Record<string, ReportRun>> = Object.assign({}, ...defaultModules().map((m) => m.reports ?? {}))

const sourceOf = (s: ReportSource) => ('query' in s && !('compile' in s) ? s : { query: s as RawBuilder<unknown>, summary: undefined })

export const orderOf = (report: Report): RawBuilder<unknown> =>
  sql`order by ${sql.join(report.ordering.map((o) => (o.startsWith('-') ? sql`r.${sql.id(o.slice(1))} desc` : sql`r.${sql.id(o)} asc`)))}`

export function runOf(report: Report): ReportRun {
  const run = runs[report.name]
  if (!run) throw new Error(`no module gives the rows of ${report.name}`)
  return run
}

export async function reportFloor(db: Db, report: Report, params: Record<string, unknown>, page?: { page: number; size: number }, run: ReportRun = runOf(report)): Promise<void> {
  const { query, summary } = sourceOf(await run({ db, params, actor: null, registry: entities, page }))
  const totals = report.totals.map((c) => sql`coalesce(sum(r.${sql.id(c)}), 0)::text as ${sql.id(c)}`)
  if (!summary) await sql`select ${sql.join([sql`count(*) as __count`, ...totals])} from (${query}) r`.execute(db)
  await sql`select * from (${query}) r ${orderOf(report)} ${page && !summary ? sql`limit ${page.size} offset ${(page.page - 1) * page.size}` : sql``}`.execute(db)
}

/** A report's route of page 1 (or every row) with these parameters, and its floor. */
export function reportCase(name: string, report: Report, params: Record<string, string | number>, size = 30): { name: string; path: string; floor: (db: Db) => Promise<void> } {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))
  const page = report.isPaged ? { page: 1, size } : undefined
  return {
    name,
    path: `${report.api.base}/?${query}${page ? `&page=1&size=${size}` : ''}`,
    floor: (db) => reportFloor(db, report, params, page),
  }
}
