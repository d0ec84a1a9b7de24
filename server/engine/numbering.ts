import { sql } from 'kysely'
import type { Entity, Fields, Numbering } from '../../schema/kit'
import { utcDay } from '../../schema/kit/dates'
import { isCalendarDate } from '../../schema/kit/validators'
import type { Trx } from '../db/types'
import type { Values } from './validate'

/**
 * Document numbers (`numbering` of defineEntity), in the original's format (api-contract
 * §4.7): `<PREFIX><YYYYMMDD>00<n>` counted per prefix and day, or `<PREFIX><YYYY>00<n>` per
 * prefix and year. Unique and gapless: the number is taken inside the write's transaction
 * from a counter row that stays locked until it commits — a rollback gives the number back,
 * and a parallel write waits for the row and takes the next one.
 */
export type Reset = Numbering['reset']

const PREFIX = /^[A-Z]{2,10}$/

/** The period a day is counted in: the day itself, or its year. */
export const periodOf = (date: string, reset: Reset): string => (reset === 'year' ? date.slice(0, 4) : date)

/** The number of the `n`th document of a prefix in the day (or year) of `date`. */
export function formatNumber(prefix: string, date: string, n: number, reset: Reset = 'day'): string {
  if (!PREFIX.test(prefix)) throw new Error(`invoice prefix '${prefix}' must be 2 to 10 capital letters`)
  if (!isCalendarDate(date)) throw new Error(`invoice date '${date}' is not a day (YYYY-MM-DD)`)
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`invoice counter ${n} must be a positive integer`)
  // "00" is a literal of the original format, not padding: the 12th is …0012.
  const period = reset === 'year' ? date.slice(0, 4) : date.replaceAll('-', '')
  return `${prefix}${period}00${n}`
}

/** The parts of a day-counted number, or undefined when it is not one. */
export function parseNumber(number: string): { prefix: string; date: string; n: number } | undefined {
  const m = /^([A-Z]{2,10}?)(\d{4})(\d{2})(\d{2})00([1-9]\d*)$/.exec(number)
  if (!m) return undefined
  const date = `${m[2]}-${m[3]}-${m[4]}`
  return isCalendarDate(date) ? { prefix: m[1]!, date, n: Number(m[5]) } : undefined
}

/**
 * Takes the next number of a prefix in the day (or year) of `date`, in the caller's
 * transaction (a number taken outside one would be consumed at once). The caller writes in
 * the same transaction; whatever makes it roll back returns the number.
 */
export async function nextNumber(trx: Trx, prefix: string, date: string, reset: Reset = 'day'): Promise<string> {
  formatNumber(prefix, date, 1, reset)
  const period = reset === 'year' ? `${date.slice(0, 4)}-01-01` : date
  const taken = await sql<{ last_no: number }>`
    insert into invoice_counter (prefix, day, last_no) values (${prefix}, ${period}::date, 1)
    on conflict (prefix, day) do update set last_no = invoice_counter.last_no + 1
    returning last_no`.execute(trx)
  return formatNumber(prefix, date, Number(taken.rows[0]!.last_no), reset)
}

/** The day a record's number is counted in: its `date` field when it has one, else today (UTC). */
export const numberDayOf = (values: Values, dateField: string | undefined): string => {
  const given = dateField ? values[dateField] : undefined
  return typeof given === 'string' && isCalendarDate(given.slice(0, 10)) ? given.slice(0, 10) : utcDay()
}

/**
 * A change that moves a numbered record's date (`numbering.date`) into another period — a
 * voucher dated the 15th moved to the 16th — gives it the next number of the new period,
 * taken as any new one is (gapless there, the counter locked until commit). The old number is
 * not given back: a counter counts up and later numbers of its period may be taken already,
 * so giving it back would leave a hole or take a number out of order. It stays accounted
 * for as a cancelled voucher's is — what it posted is reversed under it in the append-only
 * general ledger (posting.ts), and the audit entry of the change says which number became
 * which — so every number a period gave still tells what became of it. Refusing the change
 * was the other way; a wrong date is an everyday correction, and cancelling and entering the
 * voucher again would leave the same trail in more steps.
 */
export async function renumberIfMoved(trx: Trx, entity: Entity<string, Fields>, before: Values, values: Values): Promise<void> {
  const spec = entity.numbering
  const held = before[spec?.field ?? '']
  if (!spec?.date || typeof held !== 'string' || held === '') return
  const [was, is] = [numberDayOf(before, spec.date), numberDayOf(values, spec.date)]
  if (periodOf(was, spec.reset) === periodOf(is, spec.reset)) return
  values[spec.field] = await nextNumber(trx, spec.prefix, is, spec.reset)
}

/** Gives a new record its number (`numbering`) unless code acting as the system gave one. */
export async function numberRecord(trx: Trx, entity: Entity<string, Fields>, values: Values): Promise<void> {
  const spec = entity.numbering
  if (!spec || (typeof values[spec.field] === 'string' && values[spec.field] !== '')) return
  values[spec.field] = await nextNumber(trx, spec.prefix, numberDayOf(values, spec.date), spec.reset)
}
