import { useId, type KeyboardEvent } from 'react'
import { useFieldArray, useFormState, useWatch, type Control } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { AnyEntity, Row } from '../../../engine/entity-api'
import { useEntity } from '../../../engine/entities-context'
import type { FormValues, LineValues, SubmitValues } from '../../../engine/form/form-values'
import { LineCell } from '../../../engine/form/LinesEditor'
import { useEntityRecord } from '../../../engine/queries'
import { Icon } from '../../../engine/ui/icons'
import { SingleRefSelect } from '../../../engine/widgets/RefSelect'
import type { WidgetProps } from '../../../engine/widgets/types'
import { useFormat } from '../../../i18n/useFormat'
import { balanceOf, linesOf, newLine } from './voucher-model'

/**
 * A voucher's ledger lines: a ledger search that marks cash and bank ledgers (where a
 * payment's money leaves and a receipt's enters), debit and credit, the running totals under
 * them and the balance as one types. Enter goes down a column (adding a line after the last).
 */
type Props = {
  entity: AnyEntity
  control: Control<FormValues, unknown, SubmitValues>
  /** The stored lines' ledger names, by position: shown without asking the server. */
  storedLedgers: ReadonlyArray<{ id: number; name: string } | undefined>
  isDisabled: boolean
}

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

/** The ledger picker of a line, and under it the mark of a cash or bank ledger once one is chosen. */
function LedgerSelect(props: WidgetProps) {
  const ledger = useEntity('ledger_account')!
  const chosen = useEntityRecord(ledger, typeof props.value === 'number' ? props.value : null)
  return (
    <div className="space-y-1">
      <SingleRefSelect {...props} target={ledger} markOf={markCashBank} />
      {chosen.data?.is_cash_bank === true && (
        <div className="flex" data-testid={`${props.name}.cash_bank`}>
          <CashBankMark />
        </div>
      )}
    </div>
  )
}

const iconButton =
  'rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-30 dark:hover:bg-slate-800 dark:hover:text-red-400'

export function VoucherLines({ entity, control, storedLedgers, isDisabled }: Props) {
  const { t } = useTranslation()
  const format = useFormat()
  const tableId = useId()
  const { fields: rows, append, remove } = useFieldArray({ control, name: 'items' as never, keyName: '_key' as never })
  const watched = (useWatch({ control, name: 'items' }) as LineValues[] | undefined) ?? []
  const { errors, isSubmitted } = useFormState({ control, name: 'items' })
  const listError = (errors.items as { root?: { message?: string } } | undefined)?.root?.message
  const balance = balanceOf(linesOf({ items: watched }))
  const columns = ['ledger', 'debit_amount', 'credit_amount'] as const

  const cellAt = (row: number, column: number) =>
    document.querySelector<HTMLElement>(`#${CSS.escape(tableId)} tbody tr:nth-child(${row + 1}) td:nth-child(${column + 2}) :is(input:not([type=hidden]), button)`)
  const addLine = () => {
    append(newLine() as never)
    requestAnimationFrame(() => cellAt(rows.length, 0)?.focus())
  }
  const onCellKey = (row: number, column: number) => (e: KeyboardEvent) => {
    // A list of ledgers open under the input keeps Enter for itself; Ctrl+Enter saves.
    if (e.key !== 'Enter' || e.ctrlKey || e.metaKey || (e.target as HTMLElement).getAttribute('aria-expanded') === 'true') return
    e.preventDefault()
    if (row === rows.length - 1) addLine()
    else cellAt(row + 1, column)?.focus()
  }

  return (
    <section className="min-w-0 space-y-3" aria-labelledby={`${tableId}-title`} data-field="items" data-invalid={listError ? '' : undefined}>
      <div className="flex items-center justify-between gap-3">
        <h2 id={`${tableId}-title`} className="text-base font-semibold text-slate-900 dark:text-slate-100">
          {t('accounting.lines')}
        </h2>
        <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{t('lines.count', { count: rows.length })}</span>
      </div>
      {listError && (
        <p className="text-sm text-red-600 dark:text-red-400" role="alert">
          {listError}
        </p>
      )}
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table id={tableId} className="w-full text-sm">
          <thead className="bg-slate-50 text-xs font-medium text-slate-500 uppercase dark:bg-slate-800/60 dark:text-slate-400">
            <tr>
              <th scope="col" className="w-10 px-2 py-2 text-start">
                #
              </th>
              <th scope="col" className="px-2 py-2 text-start">
                {t(entity.fieldLabelKey('ledger'))}
                <span className="ms-0.5 text-red-600 dark:text-red-400" aria-hidden="true">
                  *
                </span>
              </th>
              <th scope="col" className="w-40 px-2 py-2 text-end">
                {t(entity.fieldLabelKey('debit_amount'))}
              </th>
              <th scope="col" className="w-40 px-2 py-2 text-end">
                {t(entity.fieldLabelKey('credit_amount'))}
              </th>
              <th scope="col" className="w-12 px-2 py-2">
                <span className="sr-only">{t('list.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((row, i) => {
              const stored = storedLedgers[i]
              const ledgerValue = watched[i]?.ledger
              return (
                <tr key={(row as { _key: string })._key} className="align-top">
                  <td className="px-2 py-3.5 text-slate-500 tabular-nums dark:text-slate-400">{i + 1}</td>
                  {columns.map((n, column) => (
                    <LineCell
                      key={n}
                      name={`items.${i}.${n}`}
                      field={entity.fields[n]!}
                      label={`${t(entity.fieldLabelKey(n))}, ${t('lines.line', { number: i + 1 })}`}
                      control={control}
                      knownLabels={n === 'ledger' && stored && ledgerValue === stored.id ? { [String(stored.id)]: stored.name } : undefined}
                      isSubmitted={isSubmitted}
                      onKeyDown={onCellKey(i, column)}
                      Widget={n === 'ledger' ? LedgerSelect : undefined}
                      className={n === 'ledger' ? 'min-w-56' : 'min-w-32'}
                    />
                  ))}
                  <td className="px-2 py-2 text-end">
                    <button type="button" className={iconButton} disabled={isDisabled || rows.length <= 1} onClick={() => remove(i)} aria-label={t('lines.remove', { number: i + 1 })}>
                      <Icon name="trash" className="size-4" />
                    </button>
                  </td>
                </tr>
              )
            })}
          </tbody>
          <tfoot className="border-t border-slate-200 bg-slate-50 font-medium dark:border-slate-800 dark:bg-slate-800/60">
            <tr>
              <th scope="row" colSpan={2} className="px-2 py-2.5 text-start">
                {t('lines.total')}
              </th>
              <td className="px-4 py-2.5 text-end tabular-nums" data-testid="total-debit">
                {format.decimal(balance.debit)}
              </td>
              <td className="px-4 py-2.5 text-end tabular-nums" data-testid="total-credit">
                {format.decimal(balance.credit)}
              </td>
              <td />
            </tr>
          </tfoot>
        </table>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <button
          type="button"
          onClick={addLine}
          disabled={isDisabled}
          className="inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
        >
          <Icon name="plus" className="size-4" />
          {t('lines.add')}
        </button>
        <BalanceIndicator balance={balance} />
      </div>
    </section>
  )
}

/** Where the voucher stands as one types: balanced, or how far apart the two sides are. */
function BalanceIndicator({ balance }: { balance: ReturnType<typeof balanceOf> }) {
  const { t } = useTranslation()
  const format = useFormat()
  const tone = !balance.hasAmounts
    ? 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300'
    : balance.isBalanced
      ? 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950 dark:text-emerald-200'
      : 'bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-200'
  const text = !balance.hasAmounts
    ? t('accounting.enter_amounts')
    : balance.isBalanced
      ? t('accounting.balanced')
      : t('accounting.unbalanced', { difference: format.decimal(balance.difference) })
  return (
    <p role="status" aria-live="polite" data-testid="balance" data-balanced={balance.isBalanced} className={`inline-flex items-center gap-2 rounded-lg px-3 py-1.5 text-sm font-medium ring-1 ring-transparent ring-inset ${tone}`}>
      <Icon name={balance.isBalanced ? 'check' : 'warning'} className="size-4 shrink-0" />
      {text}
    </p>
  )
}
