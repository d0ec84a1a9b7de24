import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { borderClass, inputClass } from '../widgets/types'
import type { ColumnMapping, ImportPreview } from './import-api'

/** Each column of the file with its first values and the field it fills (or none): the server's guess, changed here. */
export function ImportDialogMapping({ preview, mapping, onChange }: { preview: ImportPreview; mapping: ColumnMapping; onChange: (column: string, field: string | null) => void }) {
  const { t } = useTranslation()
  const id = useId()
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
      <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-700">
        <thead className="bg-slate-50 text-start text-xs font-semibold text-slate-600 uppercase dark:bg-slate-800/60 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-3 py-2 text-start">{t('import.column')}</th>
            <th scope="col" className="hidden px-3 py-2 text-start sm:table-cell">{t('import.sample')}</th>
            <th scope="col" className="px-3 py-2 text-start">{t('import.field')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {preview.columns.map((column, index) => {
            const sample = preview.sample.map((row) => row[index] ?? '').filter((v) => v !== '').slice(0, 3)
            const selectId = `${id}-${index}`
            return (
              <tr key={column}>
                <th scope="row" className="px-3 py-2 text-start align-top font-medium text-slate-900 dark:text-slate-100">
                  <label htmlFor={selectId} className="break-words">{column}</label>
                  {/* On a phone the sample goes under the column's name. */}
                  {sample.length > 0 && <span className="mt-0.5 block truncate text-xs font-normal text-slate-500 sm:hidden dark:text-slate-400">{sample.join(' · ')}</span>}
                </th>
                <td className="hidden max-w-[14rem] px-3 py-2 align-top text-slate-600 sm:table-cell dark:text-slate-300">
                  <span className="block truncate" dir="auto">{sample.join(' · ')}</span>
                </td>
                <td className="px-3 py-2 align-top">
                  <select
                    id={selectId}
                    aria-label={t('import.field_for', { column })}
                    value={mapping[column] ?? ''}
                    onChange={(e) => onChange(column, e.target.value === '' ? null : e.target.value)}
                    className={`${inputClass} ${borderClass(false)} min-w-[10rem]`}
                  >
                    <option value="">{t('import.not_imported')}</option>
                    {preview.fields.map((field) => (
                      <option key={field.name} value={field.name}>
                        {field.required ? `${field.label} (${t('import.required')})` : field.label}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
