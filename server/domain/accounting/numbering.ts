import { sql } from 'kysely'
import type { LogType } from '../../../schema/entities/accounting/account-log'
import { isCalendarDate } from '../../../schema/kit/validators'
import type { Trx } from '../../db/types'

/**
 * Invoice numbers in the original's format (api-contract §4.7): `<PREFIX><YYYYMMDD>00<n>`,
 * `n` counting from 1 per prefix and day (`PV20230415001`, the twelfth `PV202304150012`).
 * Unique and gapless (decisions.md "Accounting"): the number is taken inside the posting's
 * transaction from a counter row that stays locked until it commits — a rollback gives the
 * number back, and a parallel posting waits for the row and takes the next one.
 */
export const invoicePrefixes = {
  payment_voucher: 'PV',
  receipt_voucher: 'RV',
  sales: 'SA',
  purchase: 'PU',
  contra: 'CO',
  journal: 'JO',
} as const satisfies Record<LogType, string>

export type InvoicePrefix = (typeof invoicePrefixes)[LogType]

const PREFIX = /^[A-Z]{2,10}$/

/** The invoice number of the `n`th voucher of a prefix on a day. */
export function formatInvoiceNo(prefix: string, date: string, n: number): string {
  if (!PREFIX.test(prefix)) throw new Error(`invoice prefix '${prefix}' must be 2 to 10 capital letters`)
  if (!isCalendarDate(date)) throw new Error(`invoice date '${date}' is not a day (YYYY-MM-DD)`)
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`invoice counter ${n} must be a positive integer`)
  // "00" is a literal of the original format, not padding: the 12th is …0012.
  return `${prefix}${date.replaceAll('-', '')}00${n}`
}

/** The parts of an invoice number, or undefined when it is not one. */
export function parseInvoiceNo(invoiceNo: string): { prefix: string; date: string; n: number } | undefined {
  const m = /^([A-Z]{2,10}?)(\d{4})(\d{2})(\d{2})00([1-9]\d*)$/.exec(invoiceNo)
  if (!m) return undefined
  const date = `${m[2]}-${m[3]}-${m[4]}`
  return isCalendarDate(date) ? { prefix: m[1]!, date, n: Number(m[5]) } : undefined
}

/**
 * Takes the next invoice number of a prefix on a day, in the caller's transaction (a
 * Kysely transaction: a number taken outside one would be consumed at once). The caller
 * posts in the same transaction; whatever makes it roll back returns the number.
 * The date and prefix come from the caller's validated voucher: anything else is a bug.
 */
export async function nextInvoiceNo(trx: Trx, prefix: string, date: string): Promise<string> {
  formatInvoiceNo(prefix, date, 1)
  const taken = await sql<{ last_no: number }>`
    insert into invoice_counter (prefix, day, last_no) values (${prefix}, ${date}::date, 1)
    on conflict (prefix, day) do update set last_no = invoice_counter.last_no + 1
    returning last_no`.execute(trx)
  return formatInvoiceNo(prefix, date, Number(taken.rows[0]!.last_no))
}
