import { money, rules, type Rule, type RuleContext, type RuleFact } from '../../kit'
import type { LogType } from './account-log'

/**
 * A voucher's rules (domain-anchors §6, rules 7–11), declared once: the voucher form judges
 * with them as one types, the server when a voucher is written, and the posting service when
 * any module posts. Each line has one side above zero; the debits equal the credits; and the
 * kind's cash/bank rule — a payment credits a cash or bank ledger and debits none, a receipt
 * the mirror, a contra moves between two of them only, a journal never touches one. Which
 * ledgers hold money is a fact of the ledger (`is_cash_bank`); where it is not known (a form
 * that has not read the ledger), the rule passes and the server decides.
 */
type Line = Readonly<Record<string, unknown>>

const IS_CASH_BANK: Omit<RuleFact, 'field'> = { target: 'ledger_account', name: 'is_cash_bank' }
const AMOUNTS = ['debit_amount', 'credit_amount']

const debitOf = (line: Line) => money.toMinor(line.debit_amount as string)
const creditOf = (line: Line) => money.toMinor(line.credit_amount as string)
/** A line's side, once it has exactly one: a debit or a credit. */
const sideOf = (line: Line): 'debit' | 'credit' | undefined => {
  const [debit, credit] = [debitOf(line) > 0n, creditOf(line) > 0n]
  return debit === credit ? undefined : debit ? 'debit' : 'credit'
}
/** Whether the line's ledger holds money; undefined while that is not known. */
const isCashBank = (line: Line, context: RuleContext): boolean | undefined => {
  const known = line.ledger === null || line.ledger === undefined ? undefined : context.fact?.(IS_CASH_BANK.target, line.ledger, IS_CASH_BANK.name)
  return typeof known === 'boolean' ? known : undefined
}

const oneSideOnly: Rule = { field: 'debit_amount', message: 'validation.one_side_only', fields: AMOUNTS, check: (line) => !(debitOf(line) > 0n && creditOf(line) > 0n) }
const someAmount: Rule = { field: 'debit_amount', message: 'validation.no_amount', fields: AMOUNTS, check: (line) => debitOf(line) > 0n || creditOf(line) > 0n }
/** The rules that give each line exactly one side: until they hold, the totals and the cash rule are not judged. */
export const sideRules: readonly Rule[] = [oneSideOnly, someAmount]

/** A line the kind refuses: `refuses(side, isCashBank)`; its message on the line's ledger. */
const cashLine = (message: `validation.${string}`, refuses: (side: 'debit' | 'credit', isCash: boolean) => boolean): Rule => ({
  field: 'ledger',
  message,
  fields: ['ledger', ...AMOUNTS],
  facts: [{ ...IS_CASH_BANK, field: 'ledger' }],
  check: (line, context) => {
    const [side, isCash] = [sideOf(line), isCashBank(line, context)]
    return side === undefined || isCash === undefined || !refuses(side, isCash)
  },
})

/** Over every line, once each has one side and a known ledger: `holds` or the message on the lines. */
const cashLines = (message: `validation.${string}`, holds: (lines: ReadonlyArray<{ ledger: unknown; side: 'debit' | 'credit'; isCash: boolean }>) => boolean): Rule => ({
  field: 'items',
  message,
  fields: ['items'],
  facts: [{ ...IS_CASH_BANK, field: 'items.ledger' }],
  check: (values, context) => {
    const lines = ((values.items as Line[] | null) ?? []).map((line) => ({ ledger: line.ledger, side: sideOf(line), isCash: isCashBank(line, context) }))
    if (lines.some((l) => l.side === undefined || l.isCash === undefined)) return true
    return holds(lines as Array<{ ledger: unknown; side: 'debit' | 'credit'; isCash: boolean }>)
  },
})

/** The most a voucher's debits and credits may differ by (domain-anchors rule 35): the rest goes to the Round Off ledger. */
export const ROUND_OFF_LIMIT = '0.05'

export type VoucherRules = { rules: Rule[]; lineRules: Rule[] }

export function voucherRules(kind: LogType): VoucherRules {
  // A few cents apart from rounding are posted to the Round Off ledger (voucher-postings.ts); more is refused.
  // Not a contra's: money moved between cash and bank arrives whole, and its lines are cash or bank alone.
  const balanced = rules.balanced('items', 'debit_amount', 'credit_amount', 'validation.unbalanced', kind === 'contra' ? undefined : ROUND_OFF_LIMIT)
  const lineRules = [...sideRules]
  switch (kind) {
    case 'payment_voucher':
      return {
        rules: [balanced, cashLines('validation.payment_cash_credit', (lines) => lines.some((l) => l.side === 'credit' && l.isCash))],
        lineRules: [...lineRules, cashLine('validation.payment_cash_debit', (side, isCash) => side === 'debit' && isCash)],
      }
    case 'receipt_voucher':
      return {
        rules: [balanced, cashLines('validation.receipt_cash_debit', (lines) => lines.some((l) => l.side === 'debit' && l.isCash))],
        lineRules: [...lineRules, cashLine('validation.receipt_cash_credit', (side, isCash) => side === 'credit' && isCash)],
      }
    case 'contra':
      return {
        rules: [balanced, cashLines('validation.contra_two_ledgers', (lines) => new Set(lines.map((l) => l.ledger)).size >= 2)],
        lineRules: [...lineRules, cashLine('validation.contra_cash_only', (_, isCash) => !isCash)],
      }
    case 'journal':
      return { rules: [balanced], lineRules: [...lineRules, cashLine('validation.journal_no_cash', (_, isCash) => isCash)] }
    case 'sales':
    case 'purchase':
      return { rules: [balanced], lineRules }
  }
}
