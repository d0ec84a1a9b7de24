import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { paths, safeRedirect } from '../app/paths'
import { LanguageSelect } from '../shell/LanguageSelect'
import { Spinner } from '../engine/ui/PageSpinner'
import { Logo } from '../shell/Logo'
import { useScreenTitle } from '../shell/screen-title'
import { useLoginForm, type ServerError } from './useLoginForm'

const inputClass =
  'block w-full rounded-lg border bg-white px-3 py-2.5 text-sm text-slate-900 shadow-xs outline-none transition placeholder:text-slate-400 focus:border-indigo-500 focus:ring-3 focus:ring-indigo-500/20 dark:bg-slate-900 dark:text-slate-100'
const borderOf = (hasError: boolean) => (hasError ? 'border-red-500 dark:border-red-500' : 'border-slate-300 dark:border-slate-700')

/** `/login` (spec §2): logo, banner, the sign-in form and the reset-password line. No shell. */
export function LoginScreen() {
  const { t } = useTranslation()
  useScreenTitle(t('auth.sign_in'))
  const navigate = useNavigate()
  const search = useSearch({ strict: false })
  const target = safeRedirect((search as { redirect?: unknown }).redirect) ?? paths.dashboard
  const [isPasswordShown, setIsPasswordShown] = useState(false)
  const { values, errors, serverError, setField, submit, isSubmitting, isPrefilled, isDirty, canSubmit } = useLoginForm({
    onSignedIn: () => navigate({ href: target, replace: true }),
  })
  const emailId = useId()
  const passwordId = useId()
  const textOf = (m: ServerError) => ('text' in m ? m.text : t(m.key))

  return (
    <div className="flex min-h-dvh bg-white dark:bg-slate-950">
      <main className="flex w-full flex-col justify-center px-6 py-10 sm:px-12 lg:w-[480px] lg:flex-none xl:w-[520px]">
        <div className="mx-auto w-full max-w-sm">
          <div className="flex items-center justify-between gap-4">
            <div className="flex items-center gap-3">
              <Logo className="size-10" />
              <span className="text-lg font-semibold tracking-tight">{t('app.name')}</span>
            </div>
            <label className="sr-only" htmlFor={`${emailId}-lang`}>
              {t('language.choose')}
            </label>
            <LanguageSelect id={`${emailId}-lang`} />
          </div>

          <h1 className="mt-10 text-2xl font-semibold tracking-tight">{t('auth.welcome')}</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('auth.subtitle')}</p>

          <form className="mt-8 space-y-5" noValidate onSubmit={(e) => void submit(e)} aria-label={t('auth.sign_in')}>
            {serverError && (
              <div role="alert" className="rounded-lg border border-red-600/30 bg-red-50 px-4 py-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
                {textOf(serverError)}
              </div>
            )}
            {isPrefilled && !isDirty && (
              <p className="rounded-lg bg-indigo-50 px-4 py-2.5 text-sm text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">{t('auth.demo_prefilled')}</p>
            )}
            <div>
              <label htmlFor={emailId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
                {t('auth.email')}
              </label>
              <input
                id={emailId}
                type="email"
                autoComplete="email"
                dir="ltr"
                aria-invalid={errors.email ? true : undefined}
                aria-describedby={errors.email ? `${emailId}-error` : undefined}
                className={`${inputClass} ${borderOf(Boolean(errors.email))}`}
                value={values.email}
                onChange={(e) => setField('email', e.target.value)}
              />
              {errors.email && (
                <p id={`${emailId}-error`} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
                  {textOf(errors.email)}
                </p>
              )}
            </div>
            <div>
              <label htmlFor={passwordId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
                {t('auth.password')}
              </label>
              {/* The password reads left to right in every language; the eye stays at its end. */}
              <div className="relative" dir="ltr">
                <input
                  id={passwordId}
                  type={isPasswordShown ? 'text' : 'password'}
                  autoComplete="current-password"
                  dir="ltr"
                  aria-invalid={errors.password ? true : undefined}
                  aria-describedby={errors.password ? `${passwordId}-error` : undefined}
                  className={`${inputClass} pe-11 ${borderOf(Boolean(errors.password))}`}
                  value={values.password}
                  onChange={(e) => setField('password', e.target.value)}
                />
                <button
                  type="button"
                  onClick={() => setIsPasswordShown((v) => !v)}
                  className="absolute inset-y-0 end-0 flex items-center px-3 text-slate-400 hover:text-slate-600 dark:hover:text-slate-200"
                  aria-label={t(isPasswordShown ? 'auth.hide_password' : 'auth.show_password')}
                  aria-pressed={isPasswordShown}
                >
                  <EyeIcon isOpen={isPasswordShown} />
                </button>
              </div>
              {errors.password && (
                <p id={`${passwordId}-error`} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
                  {textOf(errors.password)}
                </p>
              )}
            </div>
            <button
              type="submit"
              disabled={!canSubmit}
              className="flex w-full items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-500 dark:disabled:bg-slate-800 dark:disabled:text-slate-500"
            >
              {isSubmitting && <Spinner className="size-4" />}
              {t(isSubmitting ? 'auth.signing_in' : 'auth.login')}
            </button>
          </form>

          <p className="mt-8 text-center text-sm text-slate-500 dark:text-slate-400">
            {t('auth.forgot_password')}{' '}
            <Link to={paths.forgotPassword} className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
              {t('auth.reset_password')}
            </Link>
          </p>
          <p className="mt-2 text-center text-sm text-slate-500 dark:text-slate-400">
            {t('auth.no_account')}{' '}
            <Link to={paths.register} className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
              {t('auth.register')}
            </Link>
          </p>
        </div>
      </main>
      <aside className="relative hidden flex-1 overflow-hidden bg-slate-900 lg:flex lg:items-center lg:justify-center">
        <div className="absolute inset-0 bg-[radial-gradient(circle_at_30%_20%,rgba(99,102,241,0.45),transparent_55%),radial-gradient(circle_at_80%_80%,rgba(14,165,233,0.3),transparent_50%)]" />
        <div className="relative max-w-lg px-12 text-white">
          <Logo className="size-12" />
          <h2 className="mt-8 text-4xl font-semibold leading-tight tracking-tight">{t('auth.banner_title')}</h2>
          <p className="mt-4 text-lg text-slate-300">{t('auth.banner_text')}</p>
        </div>
      </aside>
    </div>
  )
}

function EyeIcon({ isOpen }: { isOpen: boolean }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinecap="round" strokeLinejoin="round" className="size-5" aria-hidden="true">
      {isOpen ? (
        <path d="M3.98 8.22A10.5 10.5 0 0 0 1.93 12c1.3 4.34 5.31 7.5 10.07 7.5 1 0 1.95-.14 2.86-.4M6.23 6.23A10.45 10.45 0 0 1 12 4.5c4.76 0 8.77 3.16 10.07 7.5a10.52 10.52 0 0 1-4.3 5.77M6.23 6.23 3 3m3.23 3.23 3.65 3.65m7.89 7.9L21 21m-3.23-3.23-3.65-3.65m0 0a3 3 0 1 0-4.24-4.24m4.24 4.24L9.88 9.88" />
      ) : (
        <path d="M2.04 12.32a1 1 0 0 1 0-.64C3.42 7.51 7.36 4.5 12 4.5s8.57 3 9.96 7.18a1 1 0 0 1 0 .64C20.58 16.49 16.64 19.5 12 19.5s-8.57-3-9.96-7.18ZM15 12a3 3 0 1 1-6 0 3 3 0 0 1 6 0Z" />
      )}
    </svg>
  )
}
