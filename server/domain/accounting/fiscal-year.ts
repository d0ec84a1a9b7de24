import { sql } from 'kysely'
import type { Executor } from '../../db/types'
import type { Registry } from '../../engine/list-query'

/**
 * The fiscal year (domain-anchors §1.7, §6 rules 27–29): the statements count a year's profit
 * and loss from its first day, and what the income and expense ledgers hold from before it
 * is the earlier years' profit, kept as retained earnings (there are no closing entries: the
 * statements work the closing out when they read). The year starts on the first of the month
 * the site's settings in force name (`general_setting.fiscal_year_start_month`), January when
 * none does.
 */
export const DEFAULT_FISCAL_YEAR_START_MONTH = 1

const isMonth = (m: number) => Number.isInteger(m) && m >= 1 && m <= 12

export async function fiscalYearStartMonth(db: Executor, registry: Registry): Promise<number> {
  // A test's registry of its own may have no settings.
  if (!registry.some((e) => e.name === 'general_setting')) return DEFAULT_FISCAL_YEAR_START_MONTH
  const setting = await sql<{ month: number | null }>`select fiscal_year_start_month as month from general_setting order by id desc limit 1`.execute(db)
  const month = Number(setting.rows[0]?.month ?? DEFAULT_FISCAL_YEAR_START_MONTH)
  return isMonth(month) ? month : DEFAULT_FISCAL_YEAR_START_MONTH
}

/** The first day of the fiscal year holding `date` (both `YYYY-MM-DD`). */
export function fiscalYearStartOf(date: string, startMonth: number): string {
  const [year, month] = date.split('-').map(Number) as [number, number]
  const startYear = month < startMonth ? year - 1 : year
  return `${String(startYear).padStart(4, '0')}-${String(startMonth).padStart(2, '0')}-01`
}

/** The database's today, `YYYY-MM-DD`: where a statement without an end ends. */
export async function today(db: Executor): Promise<string> {
  return (await sql<{ day: string }>`select current_date::text as day`.execute(db)).rows[0]!.day
}
