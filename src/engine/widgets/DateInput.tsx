import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { useFormat } from '../../i18n/useFormat'
import { Icon } from '../ui/icons'
import { Spinner } from '../ui/PageSpinner'
import { borderClass, inputClass, type WidgetProps } from './types'

/**
 * A date: typed as `YYYY-MM-DD` (the value the form sends, unchanged), or picked from a
 * calendar in the interface's language and direction — not the browser's, as the native
 * date input would. The calendar (react-day-picker and its locales) loads when first
 * opened, so no route pays for it until a date is picked. Under the input, the chosen day
 * reads in the interface's language ("Sunday, 5 May 1991").
 */
const DateCalendar = lazy(() => import('./DateCalendar'))

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** Arabic-Indic and Persian digits as ASCII ones; `2024/3/5` and `2024.03.05` as `2024-03-05`. */
export function tidyDate(raw: string): string {
  const text = raw.trim().replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String((d.charCodeAt(0) & 0xf) % 10))
  const m = /^(\d{4})[-./ ](\d{1,2})[-./ ](\d{1,2})$/.exec(text)
  return m ? `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}` : text
}

function isCalendarDay(text: string): boolean {
  const m = ISO_DAY.exec(text)
  if (!m) return false
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
}

export function DateInput({ id, name, field, label, value, onChange, onBlur, isInvalid, describedBy }: WidgetProps) {
  const { t, i18n } = useTranslation()
  // The panel opens under the input, its outer edge at the button's: the floating panel takes
  // the page's direction, the button row is left to right.
  const isRtl = i18n.dir(i18n.resolvedLanguage ?? i18n.language) === 'rtl'
  const format = useFormat()
  const text = typeof value === 'string' ? value : ''
  const hintId = `${id}-hint`
  const readable = isCalendarDay(text) ? format.longDate(text) : ''
  const described = [describedBy, readable ? hintId : undefined].filter(Boolean).join(' ')
  return (
    <div>
      {/* The digits read left to right in every language, the calendar button at their end (as a password's eye). */}
      <div className="relative" dir="ltr">
        <input
          id={id}
          name={name}
          type="text"
          inputMode="numeric"
          dir="ltr"
          placeholder={t('form.date_placeholder')}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          onBlur={(e) => {
            const tidy = tidyDate(e.target.value)
            if (tidy !== e.target.value) onChange(tidy)
            onBlur()
          }}
          aria-invalid={isInvalid || undefined}
          aria-describedby={described || undefined}
          aria-required={field.isRequired || undefined}
          autoComplete="off"
          className={`${inputClass} ${borderClass(isInvalid)} pe-10 text-start tabular-nums`}
        />
        <Popover className="absolute inset-y-0 end-0 flex items-center pe-1.5">
          <PopoverButton
            aria-label={t('form.choose_date', { label })}
            className="rounded p-1 text-slate-400 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-600 data-open:text-indigo-600 dark:hover:text-slate-200 dark:data-open:text-indigo-400"
          >
            <Icon name="calendar" className="size-4.5" />
          </PopoverButton>
          <PopoverPanel
            anchor={isRtl ? 'bottom start' : 'bottom end'}
            role="dialog"
            aria-label={t('form.choose_date', { label })}
            className="z-50 rounded-xl border border-slate-200 bg-white p-3 text-slate-900 shadow-lg outline-none [--anchor-gap:6px] [--anchor-padding:8px] dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          >
            {({ close }) => (
              <Suspense
                fallback={
                  <div className="flex h-72 w-64 items-center justify-center">
                    <Spinner className="size-5" />
                  </div>
                }
              >
                <DateCalendar
                  value={isCalendarDay(text) ? text : ''}
                  isNotAfterToday={field.notAfter === 'today'}
                  onSelect={(day) => {
                    onChange(day)
                    onBlur()
                    close()
                  }}
                />
              </Suspense>
            )}
          </PopoverPanel>
        </Popover>
      </div>
      {readable && (
        <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {readable}
        </p>
      )}
    </div>
  )
}
