import { useTranslation } from 'react-i18next'
import type { Row } from '../../../engine/entity-api'
import { useEntity } from '../../../engine/entities-context'
import { useEntityRecord } from '../../../engine/queries'
import { Icon } from '../../../engine/ui/icons'
import { SingleRefSelect } from '../../../engine/widgets/RefSelect'
import type { WidgetProps } from '../../../engine/widgets/types'

/**
 * A voucher line's ledger: the search marks the cash and bank ledgers (where a payment's money
 * leaves and a receipt's enters), and so does the line once one is chosen. Reading the chosen
 * ledger also tells the voucher's rules whether it holds money (their `is_cash_bank` fact).
 */
function CashBankMark({ className = '' }: { className?: string }) {
  const { t } = useTranslation()
  return (
    <span className={`${className} inline-flex shrink-0 items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-600/20 ring-inset dark:bg-emerald-950 dark:text-emerald-300`}>
      <Icon name="banknotes" className="size-3.5" />
      {t('accounting.cash_bank')}
    </span>
  )
}

const markCashBank = (row: Row) => (row.is_cash_bank === true ? <CashBankMark className="ms-auto" /> : null)

export function LedgerSelect(props: WidgetProps) {
  const ledger = useEntity('ledger_account')!
  const chosen = useEntityRecord(ledger, typeof props.value === 'number' ? props.value : null)
  return (
    <div className="min-w-52 space-y-1">
      <SingleRefSelect {...props} target={ledger} markOf={markCashBank} />
      {chosen.data?.is_cash_bank === true && (
        <div className="flex" data-testid={`${props.name}.cash_bank`}>
          <CashBankMark />
        </div>
      )}
    </div>
  )
}
