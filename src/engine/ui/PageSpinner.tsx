import { useTranslation } from 'react-i18next'

export function Spinner({ className = 'size-5' }: { className?: string }) {
  return (
    <svg className={`animate-spin text-current ${className}`} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.25" strokeWidth="4" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
    </svg>
  )
}

/** Shown while a route's code or data loads. */
export function PageSpinner() {
  const { t } = useTranslation()
  return (
    <div className="flex min-h-48 flex-1 items-center justify-center text-slate-500 dark:text-slate-400" role="status">
      <Spinner className="size-6" />
      <span className="sr-only">{t('common.loading')}</span>
    </div>
  )
}
