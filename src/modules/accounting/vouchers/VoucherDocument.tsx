import { useTranslation } from 'react-i18next'
import type { VoucherSpec } from '../../../../schema/entities/accounting/vouchers'
import type { AnyEntity } from '../../../engine/entity-api'
import { useFormat } from '../../../i18n/useFormat'
import { balanceOf, type StoredVoucher } from './voucher-model'

/**
 * The voucher as a printed document (the browser's print, or its PDF): shown only in print
 * (styles.css leaves the shell, buttons and inputs out), in black on white. It prints what is
 * stored — Print waits while the form holds unsaved changes.
 */
export function VoucherDocument({ entity, spec, voucher }: { entity: AnyEntity; spec: VoucherSpec; voucher: StoredVoucher }) {
  const { t } = useTranslation()
  const format = useFormat()
  const label = (field: string) => t(entity.fieldLabelKey(field))
  const balance = balanceOf(voucher.items.map((item) => ({ ledger: item.ledger.id, debit_amount: item.debit_amount, credit_amount: item.credit_amount })))
  const facts: Array<[string, string]> = [
    [label('invoice_no'), voucher.invoice_no],
    [label(spec.dateField), format.date(String(voucher[spec.dateField] ?? ''))],
    ...(voucher.branch ? [[label('branch'), voucher.branch.name] as [string, string]] : []),
    ...(voucher.sub_ledger ? [[label('sub_ledger'), voucher.sub_ledger.name] as [string, string]] : []),
  ]
  return (
    <article className="hidden space-y-6 text-sm text-black print:block" aria-label={t(`${entity.labelKey}.one`)} data-testid="voucher-document">
      <header className="border-b border-black pb-3">
        <h1 className="text-2xl font-semibold">{t(`${entity.labelKey}.one`)}</h1>
      </header>
      <dl className="grid grid-cols-2 gap-x-8 gap-y-2">
        {facts.map(([term, value]) => (
          <div key={term} className="flex gap-2">
            <dt className="font-medium">{term}:</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <table className="w-full border-collapse">
        <thead>
          <tr className="border-b border-black">
            <th className="py-1.5 text-start">#</th>
            <th className="py-1.5 text-start">{label('ledger')}</th>
            <th className="py-1.5 text-end">{label('debit_amount')}</th>
            <th className="py-1.5 text-end">{label('credit_amount')}</th>
          </tr>
        </thead>
        <tbody>
          {voucher.items.map((item, i) => (
            <tr key={item.id} className="border-b border-slate-300">
              <td className="py-1.5">{i + 1}</td>
              <td className="py-1.5">{item.ledger.name}</td>
              <td className="py-1.5 text-end tabular-nums">{Number(item.debit_amount) === 0 ? '' : format.decimal(item.debit_amount)}</td>
              <td className="py-1.5 text-end tabular-nums">{Number(item.credit_amount) === 0 ? '' : format.decimal(item.credit_amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="border-t-2 border-black font-semibold">
            <th scope="row" colSpan={2} className="py-1.5 text-start">
              {t('lines.total')}
            </th>
            <td className="py-1.5 text-end tabular-nums">{format.decimal(balance.debit)}</td>
            <td className="py-1.5 text-end tabular-nums">{format.decimal(balance.credit)}</td>
          </tr>
        </tfoot>
      </table>
      {voucher.details && (
        <p>
          <span className="font-medium">{label('details')}:</span> {voucher.details}
        </p>
      )}
      <footer className="grid grid-cols-3 gap-8 pt-16">
        {(['prepared_by', 'checked_by', 'approved_by'] as const).map((who) => (
          <p key={who} className="border-t border-black pt-1 text-center">
            {t(`accounting.${who}`)}
          </p>
        ))}
      </footer>
    </article>
  )
}
