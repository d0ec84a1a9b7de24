import { Link, useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { paths } from '../../app/paths'
import { useEntity } from '../../engine/entities-context'
import type { AnyEntity } from '../../engine/entity-api'
import { FieldRow } from '../../engine/form/FieldRow'
import { Banner } from '../../engine/ui/Banner'
import { Spinner } from '../../engine/ui/PageSpinner'
import { GuestPage, linkClass, primaryButtonClass } from './GuestPage'
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
    <GuestPage title={t('register.title')} isWide>
        <form
          onSubmit={(e) => void submit(e)}
          noValidate
          aria-label={t('register.title')}
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
            className={primaryButtonClass}
          >
            {isSubmitting && <Spinner className="size-4" />}
            {t(isSubmitting ? 'register.submitting' : 'register.submit')}
          </button>
          <p className="mt-6 text-center text-sm text-slate-500 dark:text-slate-400">
            {t('register.have_account')}{' '}
            <Link to={paths.login} className={linkClass}>
              {t('auth.login')}
            </Link>
          </p>
        </form>
    </GuestPage>
  )
}
