import { DayPicker, type DayPickerLocale } from 'react-day-picker'
import { ar } from 'react-day-picker/locale/ar'
import { enUS } from 'react-day-picker/locale/en-US'
import { tr } from 'react-day-picker/locale/tr'
import { useTranslation } from 'react-i18next'
import { todayIso } from '../../../schema/kit/dates'
import { directionOf, isLanguage, type Language } from '../../i18n'

/**
 * The calendar of a date input (DateInput), loaded when first opened: react-day-picker with
 * the date-fns locale of the interface language — its month and day names, first day of the
 * week and the labels a screen reader reads — in the language's direction. Arrow keys move
 * by day and week, Page Up/Down by month, Home/End to the week's ends; Enter picks.
 */
const locales: Record<Language, Partial<DayPickerLocale>> = { en: enUS, tr, ar }


function dateOf(iso: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : undefined
}

const navButton =
  'inline-flex size-9 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-40 disabled:hover:bg-transparent dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100'

export default function DateCalendar({ value, isNotAfterToday, onSelect }: { value: string; isNotAfterToday: boolean; onSelect: (day: string) => void }) {
  const { i18n } = useTranslation()
  const lng = i18n.resolvedLanguage ?? i18n.language
  const language: Language = isLanguage(lng) ? lng : 'en'
  const selected = dateOf(value)
  const today = new Date()
  // A birthday is picked from a century of years, a contract date from a few ahead too.
  const endMonth = isNotAfterToday ? today : new Date(today.getFullYear() + 10, 11)
  return (
    <DayPicker
      mode="single"
      required={false}
      selected={selected}
      onSelect={(day) => day && onSelect(todayIso(day))}
      defaultMonth={selected ?? today}
      startMonth={new Date(1900, 0)}
      endMonth={endMonth}
      disabled={isNotAfterToday ? { after: today } : undefined}
      captionLayout="dropdown"
      locale={locales[language]}
      dir={directionOf(language)}
      lang={language}
      autoFocus
      showOutsideDays
      classNames={{
        root: 'relative w-max text-sm',
        months: 'relative flex',
        month: 'space-y-2',
        nav: 'absolute top-0 end-0 flex h-9 items-center gap-0.5 rtl:[&_svg]:rotate-180',
        button_previous: navButton,
        button_next: navButton,
        chevron: 'size-4 fill-current',
        month_caption: 'flex h-9 items-center pe-20',
        caption_label: 'relative z-10 inline-flex items-center gap-1 whitespace-nowrap font-semibold [&_svg]:size-3.5',
        dropdowns: 'relative inline-flex items-center gap-1',
        dropdown_root: 'relative inline-flex items-center rounded-md px-1.5 py-1 hover:bg-slate-100 has-focus-visible:outline-2 has-focus-visible:outline-indigo-600 dark:hover:bg-slate-800',
        dropdown: 'absolute inset-0 z-20 w-full cursor-pointer appearance-none opacity-0',
        month_grid: 'border-collapse',
        weekdays: '',
        weekday: 'size-9 pb-1 text-center text-xs font-medium text-slate-500 dark:text-slate-400',
        week: '',
        day: 'size-9 p-0 text-center',
        day_button:
          'mx-auto flex size-9 items-center justify-center rounded-full tabular-nums hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:hover:bg-transparent dark:hover:bg-slate-800',
        selected: 'font-semibold [&>button]:bg-indigo-600 [&>button]:text-white [&>button]:hover:bg-indigo-500 dark:[&>button]:bg-indigo-500',
        today: 'font-semibold text-indigo-700 dark:text-indigo-300',
        outside: 'text-slate-400 dark:text-slate-500',
        disabled: 'opacity-40',
        hidden: 'invisible',
      }}
    />
  )
}
