import { useTranslation } from 'react-i18next'
import type { Tone } from '../../../schema/kit'

/** Chip colours by tone, readable in light and dark. */
const toneClass: Readonly<Record<Tone, string>> = {
  gray: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-400/30',
  blue: 'bg-sky-50 text-sky-800 ring-sky-600/20 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-400/30',
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-400/30',
  amber: 'bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-400/30',
  red: 'bg-red-50 text-red-800 ring-red-600/20 dark:bg-red-950 dark:text-red-200 dark:ring-red-400/30',
  violet: 'bg-violet-50 text-violet-800 ring-violet-600/20 dark:bg-violet-950 dark:text-violet-200 dark:ring-violet-400/30',
}

/** A workflow's status as a coloured chip (the registry's `tones`), in the interface's language. */
export function StatusChip({ value, tones }: { value: string; tones?: Readonly<Record<string, Tone>> }) {
  const { t } = useTranslation()
  const tone = tones?.[value] ?? 'gray'
  return (
    <span data-status={value} data-tone={tone} className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${toneClass[tone]}`}>
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current opacity-70" />
      {t(`option.${value}`, { defaultValue: value })}
    </span>
  )
}
