import { useTranslation } from 'react-i18next'
import { useFormat } from '../../i18n/useFormat'
import type { ImportProgress } from './import-api'

/** How far a check or an import has come, as the server tells it (indeterminate until it first does). */
export function ImportDialogProgress({ label, progress }: { label: string; progress: ImportProgress | null }) {
  const { t } = useTranslation()
  const format = useFormat()
  const total = progress?.total ?? 0
  const rows = Math.min(progress?.rows ?? 0, total)
  const share = total > 0 ? Math.round((rows / total) * 100) : 0
  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-slate-700 dark:text-slate-200">{label}</p>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total || undefined}
        aria-valuenow={progress ? rows : undefined}
        aria-valuetext={progress ? t('import.progress', { rows: format.integer(rows), total: format.integer(total) }) : undefined}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div className={`h-full rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-500 ${progress ? '' : 'w-1/3 animate-pulse'}`} style={progress ? { width: `${share}%` } : undefined} />
      </div>
      {progress && <p className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{t('import.progress', { rows: format.integer(rows), total: format.integer(total) })}</p>}
    </div>
  )
}
