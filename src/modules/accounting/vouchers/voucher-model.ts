import { money, parseDecimal, type Message } from '../../../../schema/kit'
import { isCalendarDate } from '../../../../schema/kit/validators'
import type { VoucherSpec } from '../../../../schema/entities/accounting/vouchers'
import type { FormValue, FormValues, LineValues } from '../../../engine/form/form-values'

/**
 * A voucher between the server and its entry screen: the header (the kind's date, branch,
 * sub-ledger, details, file, flag, the invoice it settles) under the entity's field names, and `items`, one entry per
 * ledger line. The screen judges what it can before sending — the same rules as the posting
 * service (server/domain/accounting/posting.ts), keyed as its 400 is — so an unbalanced
 * voucher is refused with its difference before any request; the cash/bank rules are the
 * server's (it knows the chart).
 */
export type VoucherLine = { ledger: number | null; debit_amount: string; credit_amount: string }

/** As `{kind}_by_invoice_no` answers (voucher-routes.ts). */
export type StoredVoucher = {
  invoice_no: string
  file: string | null
  sub_ledger: { id: number; name: string } | null
  branch: { id: number; name: string } | null
  details: string | null
  items: Array<{ id: number; ledger: { id: number; name: string }; debit_amount: string; credit_amount: string } & Record<string, unknown>>
} & Record<string, unknown>

const MONEY_WHOLE = 18
const emptyLine = (): VoucherLine => ({ ledger: null, debit_amount: '', credit_amount: '' })

/** A new voucher: today's date and two blank lines (a voucher has two sides at least). */
export function newVoucherValues(spec: VoucherSpec, today: string): FormValues {
  return {
    [spec.dateField]: today,
    branch: null,
    ...(spec.hasSubLedger ? { sub_ledger: null } : {}),
    ...(spec.flag ? { [spec.flag]: false } : {}),
    ...(spec.hasFile ? { file: null } : {}),
    ...(spec.hasRefInvoice ? { ref_invoice_no: '' } : {}),
    details: '',
    items: [emptyLine(), emptyLine()],
  }
}

/** A zero amount shows as blank: the line's other side is the one that counts. */
const shownAmount = (amount: string) => (money.isZero(amount) ? '' : amount)

export function storedVoucherValues(spec: VoucherSpec, stored: StoredVoucher): FormValues {
  return {
    [spec.dateField]: String(stored[spec.dateField] ?? '').slice(0, 10),
    branch: stored.branch?.id ?? null,
    ...(spec.hasSubLedger ? { sub_ledger: stored.sub_ledger?.id ?? null } : {}),
    ...(spec.flag ? { [spec.flag]: stored[spec.flag] === true } : {}),
    ...(spec.hasFile ? { file: stored.file } : {}),
    ...(spec.hasRefInvoice ? { ref_invoice_no: typeof stored.ref_invoice_no === 'string' ? stored.ref_invoice_no : '' } : {}),
    details: stored.details ?? '',
    items: stored.items.map((item) => ({ ledger: item.ledger.id, debit_amount: shownAmount(item.debit_amount), credit_amount: shownAmount(item.credit_amount) })),
  }
}

export const linesOf = (values: FormValues): VoucherLine[] => ((values.items ?? []) as readonly LineValues[]).map((line) => ({
  ledger: typeof line.ledger === 'number' ? line.ledger : null,
  debit_amount: typeof line.debit_amount === 'string' ? line.debit_amount.trim() : '',
  credit_amount: typeof line.credit_amount === 'string' ? line.credit_amount.trim() : '',
}))

export const newLine = (): LineValues => emptyLine()

const isValidAmount = (raw: string) => raw === '' || parseDecimal(raw, MONEY_WHOLE + money.MONEY_SCALE, money.MONEY_SCALE) !== undefined

/** The running totals of the lines, and how far apart they stand (amounts not yet valid count as zero). */
export type Balance = { debit: string; credit: string; difference: string; isBalanced: boolean; hasAmounts: boolean }

export function balanceOf(lines: readonly VoucherLine[]): Balance {
  const valid = (raw: string) => (isValidAmount(raw) ? raw : '')
  const debit = money.sum(lines.map((l) => valid(l.debit_amount)))
  const credit = money.sum(lines.map((l) => valid(l.credit_amount)))
  const difference = money.subtract(debit, credit).replace('-', '')
  const hasAmounts = !money.isZero(debit) || !money.isZero(credit)
  return { debit, credit, difference, isBalanced: hasAmounts && money.isZero(difference), hasAmounts }
}

/**
 * What stops a save, by field as the server's 400 keys it (`items.2.credit_amount`,
 * `items` for the lines together): the date, each line's ledger and one side, at least
 * two lines, and debits equal to credits (the message names both totals and the difference).
 */
export function judgeVoucher(spec: VoucherSpec, values: FormValues, labelOf: (field: string) => string): Record<string, Message> {
  const errors: Record<string, Message> = {}
  const date = values[spec.dateField]
  if (typeof date !== 'string' || date.trim() === '') errors[spec.dateField] = { key: 'validation.required', params: { label: labelOf(spec.dateField) } }
  else if (!isCalendarDate(date.trim())) errors[spec.dateField] = { key: 'validation.date', params: { label: labelOf(spec.dateField) } }
  const lines = linesOf(values)
  let areAmountsValid = true
  lines.forEach((line, i) => {
    const at = (field: string) => `items.${i}.${field}`
    if (line.ledger === null) errors[at('ledger')] = { key: 'validation.required', params: { label: labelOf('ledger') } }
    for (const side of ['debit_amount', 'credit_amount'] as const) {
      const raw = line[side]
      if (!isValidAmount(raw)) {
        errors[at(side)] = { key: 'validation.decimal', params: { scale: money.MONEY_SCALE, whole: MONEY_WHOLE } }
        areAmountsValid = false
      } else if (money.toMinor(raw) < 0n) {
        errors[at(side)] = { key: 'validation.min_value', params: { min: 0 } }
        areAmountsValid = false
      }
    }
    if (errors[at('debit_amount')] || errors[at('credit_amount')]) return
    const hasDebit = money.toMinor(line.debit_amount) > 0n
    const hasCredit = money.toMinor(line.credit_amount) > 0n
    if (hasDebit && hasCredit) errors[at('debit_amount')] = { key: 'validation.one_side_only' }
    else if (!hasDebit && !hasCredit) errors[at('debit_amount')] = { key: 'validation.no_amount' }
    if (hasDebit === hasCredit) areAmountsValid = false
  })
  if (lines.length < 2) errors.items = { key: 'validation.lines_min', params: { min: 2 } }
  else if (areAmountsValid) {
    const balance = balanceOf(lines)
    if (!balance.isBalanced) errors.items = { key: 'validation.unbalanced', params: { debit: balance.debit, credit: balance.credit, difference: balance.difference } }
  }
  return errors
}

/** The request body: multipart `items[i][…]` with the file for the kinds that carry one, JSON otherwise (api-contract §4.7). */
export function voucherPayload(spec: VoucherSpec, values: FormValues, invoiceNo?: string): FormData | Record<string, unknown> {
  const header: Record<string, FormValue | undefined> = {
    [spec.dateField]: values[spec.dateField],
    branch: values.branch ?? null,
    ...(spec.hasSubLedger ? { sub_ledger: values.sub_ledger ?? null } : {}),
    ...(spec.flag ? { [spec.flag]: values[spec.flag] === true } : {}),
    // The invoice it settles (payment and receipt vouchers); blank clears it.
    ...(spec.hasRefInvoice ? { ref_invoice_no: typeof values.ref_invoice_no === 'string' ? values.ref_invoice_no.trim() : '' } : {}),
    details: typeof values.details === 'string' ? values.details : '',
    ...(invoiceNo ? { invoice_no: invoiceNo } : {}),
  }
  const lines = linesOf(values).map((line) => ({ ledger: line.ledger, debit_amount: line.debit_amount || '0', credit_amount: line.credit_amount || '0' }))
  if (!spec.hasFile) return { ...header, items: lines }
  const body = new FormData()
  for (const [name, value] of Object.entries(header)) body.append(name, value === null || value === undefined ? '' : String(value))
  // A stored file stays unless another is chosen: only a new one is sent.
  if (values.file instanceof File) body.append('file', values.file)
  lines.forEach((line, i) => {
    body.append(`items[${i}][ledger]`, line.ledger === null ? '' : String(line.ledger))
    body.append(`items[${i}][debit_amount]`, line.debit_amount)
    body.append(`items[${i}][credit_amount]`, line.credit_amount)
  })
  return body
}
