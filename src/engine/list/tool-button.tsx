import { useTranslation } from 'react-i18next'
import { Icon, type IconName } from '../ui/icons'

/** A list tool's button (columns, saved views, export, import): one look, whether its menu is open (`data-open`) or it is busy (`disabled`). */
export const toolButtonClass =
  'inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 shadow-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60 data-open:border-indigo-300 data-open:bg-indigo-50 data-open:text-indigo-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800 dark:data-open:border-indigo-800 dark:data-open:bg-indigo-950/60 dark:data-open:text-indigo-100'

/** The panel a list tool's button opens. */
export const popoverPanelClass =
  'z-50 w-[min(22rem,calc(100vw-1rem))] rounded-xl border border-slate-200 bg-white p-3 text-sm text-slate-900 shadow-lg outline-none [--anchor-gap:6px] [--anchor-padding:8px] dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100'

/** What a list tool's button shows — its icon and its name (only the icon on a phone), a chevron where it opens a menu — whether the tool's code is in yet or not (list-tools-lazy.tsx). */
export function ToolLabel({ icon, label, hasChevron = false }: { icon: IconName; label: string; hasChevron?: boolean }) {
  const { t } = useTranslation()
  return (
    <>
      <Icon name={icon} className="size-4" />
      <span className="max-sm:sr-only">{t(label)}</span>
      {hasChevron && <Icon name="chevronDown" className="size-3.5 opacity-70" />}
    </>
  )
}
