import { useTranslation } from 'react-i18next'
import { money, parseDecimal } from '../../../schema/kit'
import { useFormat } from '../../i18n/useFormat'
import { Icon } from '../ui/icons'

/**
 * Where a document whose lines must balance (`rules.balanced`: a voucher's debits and
 * credits) stands as one types: nothing entered yet, balanced, or how far apart the sides
 * are. Amounts not yet valid count as nothing. The rule itself refuses the save.
 */
export type Balance = { debit: string; credit: string; difference: string; isBalanced: boolean; hasAmounts: boolean; isRounded: boolean }

const MONEY_WHOLE = 18
const valid = (raw: unknown) => (typeof raw === 'string' && raw.trim() !== '' && parseDecimal(raw, MONEY_WHOLE + money.MONEY_SCALE, money.MONEY_SCALE) !== undefined ? raw : '')

/** `tolerance`: how far apart the sides may be, the rest rounded off when posted (a voucher's few cents). */
export function balanceOf(lines: ReadonlyArray<Readonly<Record<string, unknown>>>, debit: string, credit: string, tolerance = '0'): Balance {
  const debits = money.sum(lines.map((l) => valid(l[debit])))
  const credits = money.sum(lines.map((l) => valid(l[credit])))
  const difference = money.subtract(debits, credits).replace('-', '')
  const hasAmounts = !money.isZero(debits) || !money.isZero(credits)
  const isWithin = money.compare(difference, tolerance) <= 0
  return { debit: debits, credit: credits, difference, isBalanced: hasAmounts && isWithin, hasAmounts, isRounded: hasAmounts && isWithin && !money.isZero(difference) }
}

export function BalanceIndicator({ lines, debit, credit, tolerance }: { lines: ReadonlyArray<Readonly<Record<string, unknown>>>; debit: string; credit: string; tolerance?: string }) {
  const { t } = useTranslation()
  const format = useFormat()
  const balance = balanceOf(lines, debit, credit, tolerance)
  const tone = !balance.hasAmounts
    ? 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300'
    : balance.isBalanced
      ? 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950 dark:text-emerald-200'
      : 'bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-200'
  const text = !balance.hasAmounts
    ? t('lines.enter_amounts')
    : balance.isRounded
      ? t('lines.rounded', { difference: format.decimal(balance.difference) })
      : balance.isBalanced
        ? t('lines.balanced')
        : t('lines.unbalanced', { difference: format.decimal(balance.difference) })
  return (
    <p role="status" aria-live="polite" data-testid="balance" data-balanced={balance.isBalanced} className={`inline-flex items-center gap-2 rounded-lg px-3 py-1.5 text-sm font-medium ring-1 ring-transparent ring-inset ${tone}`}>
      <Icon name={balance.isBalanced ? 'check' : 'warning'} className="size-4 shrink-0" />
      {text}
    </p>
  )
}
