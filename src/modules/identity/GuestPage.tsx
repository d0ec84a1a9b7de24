import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LanguageSelect } from '../../shell/LanguageSelect'
import { Logo } from '../../shell/Logo'
import { useScreenTitle } from '../../shell/screen-title'

/** The frame of a guest's page without the shell (register, the password reset pages): logo, language, a card; the document titled `title`. */
export function GuestPage({ title, children, isWide = false }: { title: string; children: ReactNode; isWide?: boolean }) {
  const { t } = useTranslation()
  useScreenTitle(title)
  return (
    <div className="flex min-h-dvh items-start justify-center bg-slate-50 px-4 py-10 sm:items-center dark:bg-slate-950">
      <main className={`w-full ${isWide ? 'max-w-xl' : 'max-w-md'}`}>
        <div className="mb-6 flex items-center justify-between gap-4">
          <div className="flex items-center gap-3">
            <Logo className="size-10" />
            <span className="text-lg font-semibold tracking-tight">{t('app.name')}</span>
          </div>
          <LanguageSelect />
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">{children}</div>
      </main>
    </div>
  )
}

export const primaryButtonClass =
  'mt-8 flex w-full items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60'
export const linkClass = 'font-medium text-indigo-600 hover:underline dark:text-indigo-400'
