import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { paths } from '../app/paths'
import { useSession } from '../auth/useSession'
import { Logo } from './Logo'

/** `/pages/errors/error-404`: where every unknown route ends (spec §2). */
export function ErrorPage404() {
  const { t } = useTranslation()
  const { isLoggedIn } = useSession()
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-6 text-center">
      <Logo className="size-12" />
      <p className="mt-4 text-7xl font-bold tracking-tight text-indigo-600 dark:text-indigo-400">{t('error.not_found_code')}</p>
      <h1 className="text-2xl font-semibold">{t('error.not_found_title')}</h1>
      <p className="max-w-md text-slate-500 dark:text-slate-400">{t('error.not_found_text')}</p>
      <Link
        to={isLoggedIn ? paths.dashboard : paths.login}
        className="mt-4 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500"
      >
        {t(isLoggedIn ? 'error.go_home' : 'error.go_login')}
      </Link>
    </main>
  )
}
