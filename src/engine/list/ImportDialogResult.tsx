import { useTranslation } from 'react-i18next'
import { useFormat } from '../../i18n/useFormat'
import type { ImportField, ImportResult } from './import-api'

/** The counts of a check or an import, and its errors row by row (row, field, problem). */
export function ImportDialogResult({ result, fields }: { result: ImportResult; fields: readonly ImportField[] }) {
  const { t } = useTranslation()
  const format = useFormat()
  const labelOf = (name: string) => fields.find((f) => f.name === name)?.label ?? (name === 'non_field_errors' ? t('import.whole_row') : name)
  const counts = [
    { key: 'rows', value: result.rows },
    { key: 'valid', value: result.valid },
    ...(result.mode === 'dry_run' ? [] : [{ key: 'created', value: result.created }]),
    { key: 'rejected', value: result.rejected },
  ]
  const lines = result.errors.flatMap((error) => [
    ...(error.detail ? [{ row: error.row, field: t('import.whole_row'), message: error.detail }] : []),
    ...Object.entries(error.fields).flatMap(([field, messages]) => messages.map((message) => ({ row: error.row, field: labelOf(field), message }))),
  ])
  return (
    <div className="space-y-4">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {counts.map(({ key, value }) => (
          <div key={key} className="rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
            <dt className="text-xs text-slate-500 dark:text-slate-400">{t(`import.${key}`)}</dt>
            <dd className={`text-lg font-semibold tabular-nums ${key === 'rejected' && value > 0 ? 'text-red-700 dark:text-red-300' : 'text-slate-900 dark:text-slate-100'}`}>{format.integer(value)}</dd>
          </div>
        ))}
      </dl>
      {lines.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">{t('import.errors_title')}</h3>
          {result.rejected > result.errors.length && (
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t('import.errors_capped', { shown: format.integer(result.errors.length), count: format.integer(result.rejected) })}</p>
          )}
          <div className="mt-2 max-h-72 overflow-auto rounded-lg border border-slate-200 dark:border-slate-700">
            <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-700">
              <thead className="sticky top-0 bg-slate-50 text-xs font-semibold text-slate-600 uppercase dark:bg-slate-800 dark:text-slate-300">
                <tr>
                  <th scope="col" className="px-3 py-2 text-start">{t('import.row')}</th>
                  <th scope="col" className="px-3 py-2 text-start">{t('import.field')}</th>
                  <th scope="col" className="px-3 py-2 text-start">{t('import.problem')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {lines.map((line, i) => (
                  <tr key={`${line.row}-${i}`}>
                    <td className="px-3 py-1.5 align-top text-slate-600 tabular-nums dark:text-slate-300">{format.integer(line.row)}</td>
                    <td className="px-3 py-1.5 align-top font-medium text-slate-900 dark:text-slate-100">{line.field}</td>
                    <td className="px-3 py-1.5 align-top text-slate-700 dark:text-slate-200" dir="auto">{line.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </div>
  )
}
