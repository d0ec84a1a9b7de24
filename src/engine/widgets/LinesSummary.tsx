import { useTranslation } from 'react-i18next'
import type { WidgetProps } from './types'

/** A document's lines where no lines editor is drawn: how many there are. */
export function LinesSummary({ id, value }: WidgetProps) {
  const { t } = useTranslation()
  return (
    <p id={id} className="text-sm text-slate-600 dark:text-slate-300">
      {t('lines.count', { count: Array.isArray(value) ? value.length : 0 })}
    </p>
  )
}
