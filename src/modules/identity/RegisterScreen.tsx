import { Link, useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { paths } from '../../app/paths'
import { useEntity } from '../../engine/entities-context'
import type { AnyEntity } from '../../engine/entity-api'
import { FieldRow } from '../../engine/form/FieldRow'
import { Banner } from '../../engine/ui/Banner'
import { Spinner } from '../../engine/ui/PageSpinner'
import { LanguageSelect } from '../../shell/LanguageSelect'
import { Logo } from '../../shell/Logo'
import { f } from '../../../schema/kit'
import { useRegisterForm } from './useRegisterForm'

const confirmField = f.password({ required: true })

/** `/register` (spec §2): a guest creates an account and is signed in with it. */
export function RegisterScreen() {
  const user = useEntity('user')
  if (!user) return null
  return <RegisterForm user={user} />
}

function RegisterForm({ user }: { user: AnyEntity }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { entity, form, submit, serverError, isSubmitting } = useRegisterForm({ user, onRegistered: () => navigate({ to: paths.dashboard, replace: true }) })
  const row = (name: string) => <FieldRow key={name} name={name} field={entity.fields[name]!} labelKey={entity.fieldLabelKey(name)} control={form.control} />

  return (
    <div className="flex min-h-dvh items-start justify-center bg-slate-50 px-4 py-10 sm:items-center dark:bg-slate-950">
      <main className="w-full max-w-xl">
        <div className="mb-6 flex items-center justify-between gap-4">
          <div className="flex items-center gap-3">
            <Logo className="size-10" />
            <span className="text-lg font-semibold tracking-tight">{t('app.name')}</span>
          </div>
          <LanguageSelect />
        </div>
        <form
          onSubmit={(e) => void submit(e)}
          noValidate
          aria-label={t('register.title')}
          className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
        >
          <h1 className="text-2xl font-semibold tracking-tight">{t('register.title')}</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('register.subtitle')}</p>
          <div className="mt-6 space-y-5">
            {serverError && <Banner kind="error">{serverError}</Banner>}
            <div className="grid gap-5 sm:grid-cols-2">
              {row('first_name')}
              {row('last_name')}
            </div>
            {row('username')}
            {row('email')}
            <div className="grid gap-5 sm:grid-cols-2">
              {row('password')}
              <FieldRow name="confirm_password" field={confirmField} labelKey="field.confirm_password" control={form.control} />
            </div>
          </div>
          <button
            type="submit"
            disabled={isSubmitting}
            className="mt-8 flex w-full items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm transition hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
          >
            {isSubmitting && <Spinner className="size-4" />}
            {t(isSubmitting ? 'register.submitting' : 'register.submit')}
          </button>
          <p className="mt-6 text-center text-sm text-slate-500 dark:text-slate-400">
            {t('register.have_account')}{' '}
            <Link to={paths.login} className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
              {t('auth.login')}
            </Link>
          </p>
        </form>
      </main>
    </div>
  )
}
