import type { LogType } from '../../../schema/entities/accounting/account-log'
import type { Trx } from '../../db/types'
import { formatNumber, nextNumber, parseNumber } from '../../engine/numbering'

/**
 * Invoice numbers of the six vouchers (api-contract §4.7): `<PREFIX><YYYYMMDD>00<n>`, `n`
 * counting from 1 per prefix and day (`PV20230415001`, the twelfth `PV202304150012`) — the
 * engine's day-counted numbering (server/engine/numbering.ts), gapless under concurrency.
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

export const formatInvoiceNo = (prefix: string, date: string, n: number): string => formatNumber(prefix, date, n, 'day')
export const parseInvoiceNo = parseNumber
export const nextInvoiceNo = (trx: Trx, prefix: string, date: string): Promise<string> => nextNumber(trx, prefix, date, 'day')
