import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { useEntity } from '../../../engine/entities-context'
import { entityKeys } from '../../../engine/queries'
import { QueryPanel } from '../../../engine/ui/QueryPanel'
import { useFormat } from '../../../i18n/useFormat'
import { fetchList, type AnyEntity, type Row } from '../../../engine/entity-api'

/**
 * The general-ledger rows under the voucher's number, in the order they were written: its
 * postings and, after each change, the reversals of what stood (the ledger is never edited),
 * so the voucher's history stays readable where it is worked on.
 */
/** The general-ledger rows under an invoice number, postings and reversals, in the order they were written. */
async function fetchPostings(accountLog: AnyEntity, invoiceNo: string, signal?: AbortSignal): Promise<Row[]> {
  const page = await fetchList(accountLog, { page: 1, size: 100, filters: { reference_no: invoiceNo } }, signal)
  // `reference_no` filters by "contains": PV…001 also finds PV…0010.
  return page.rows.filter((row) => row.reference_no === invoiceNo).sort((a, b) => a.id - b.id)
}

export function VoucherPostings({ row }: { entity: AnyEntity; row: Row }) {
  const invoiceNo = String(row.invoice_no)
  const { t } = useTranslation()
  const format = useFormat()
  const accountLog = useEntity('account_log')
  const postings = useQuery({
    queryKey: [...entityKeys.all('account_log'), 'reference', invoiceNo],
    queryFn: ({ signal }) => fetchPostings(accountLog!, invoiceNo, signal),
    enabled: accountLog !== undefined,
  })
  if (!accountLog) return null
  const label = (field: string) => t(accountLog.fieldLabelKey(field))
  const name = (value: unknown) => (value && typeof value === 'object' && 'name' in value ? String(value.name) : '')
  return (
    <QueryPanel id="voucher-postings" title={t('accounting.postings')} query={postings}>
      {(rows) => (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead className="bg-slate-50 text-xs font-medium text-slate-500 uppercase dark:bg-slate-800/60 dark:text-slate-400">
              <tr>
                <th scope="col" className="px-4 py-2 text-start">{label('log_date')}</th>
                <th scope="col" className="px-4 py-2 text-start">{label('ledger')}</th>
                <th scope="col" className="px-4 py-2 text-end">{label('debit_amount')}</th>
                <th scope="col" className="px-4 py-2 text-end">{label('credit_amount')}</th>
                <th scope="col" className="px-4 py-2 text-start">{t('accounting.posting_kind')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {rows.map((row) => {
                const reverses = typeof row.reverses === 'number' ? row.reverses : null
                return (
                  <tr key={row.id} className={reverses !== null ? 'text-slate-500 dark:text-slate-400' : ''}>
                    <td className="px-4 py-2 whitespace-nowrap">{format.date(String(row.log_date))}</td>
                    <td className="px-4 py-2">{name(row.ledger)}</td>
                    <td className="px-4 py-2 text-end tabular-nums">{Number(row.debit_amount) === 0 ? '' : format.decimal(String(row.debit_amount))}</td>
                    <td className="px-4 py-2 text-end tabular-nums">{Number(row.credit_amount) === 0 ? '' : format.decimal(String(row.credit_amount))}</td>
                    <td className="px-4 py-2">{reverses !== null ? t('accounting.reversal_of', { id: reverses }) : t('accounting.posting')}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
    </QueryPanel>
  )
}
