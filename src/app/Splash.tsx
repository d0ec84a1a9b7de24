import { useTranslation } from 'react-i18next'
import { Logo } from '../shell/Logo'

/** Shown while the start-up session check runs (spec §2). */
export function Splash() {
  const { t } = useTranslation()
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-slate-50 dark:bg-slate-950" role="status" aria-label={t('common.loading')}>
      <Logo className="size-14 animate-pulse" />
      <div className="h-1 w-40 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800">
        <div className="h-full w-1/2 animate-splash rounded-full bg-indigo-600" />
      </div>
    </div>
  )
}
