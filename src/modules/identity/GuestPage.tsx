import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { changeLanguage, isLanguage, languages } from '../../i18n'
import { Logo } from '../../shell/Logo'

/** The frame of a guest's page without the shell (the password reset pages): logo, language, a card. */
export function GuestPage({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation()
  return (
    <div className="flex min-h-dvh items-start justify-center bg-slate-50 px-4 py-10 sm:items-center dark:bg-slate-950">
      <main className="w-full max-w-md">
        <div className="mb-6 flex items-center justify-between gap-4">
          <div className="flex items-center gap-3">
            <Logo className="size-10" />
            <span className="text-lg font-semibold tracking-tight">{t('app.name')}</span>
          </div>
          <select
            aria-label={t('language.choose')}
            value={i18n.resolvedLanguage}
            onChange={(e) => isLanguage(e.target.value) && void changeLanguage(e.target.value)}
            className="rounded-md border border-slate-300 bg-white py-1 ps-2 pe-7 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200"
          >
            {languages.map((lng) => (
              <option key={lng} value={lng}>
                {t(`language.${lng}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">{children}</div>
      </main>
    </div>
  )
}

export const primaryButtonClass =
  'mt-8 flex w-full items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60'
export const linkClass = 'font-medium text-indigo-600 hover:underline dark:text-indigo-400'
