import { Link, useSearch } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { paths } from '../../app/paths'
import { useEntity } from '../../engine/entities-context'
import type { AnyEntity } from '../../engine/entity-api'
import { FieldRow } from '../../engine/form/FieldRow'
import { Banner } from '../../engine/ui/Banner'
import { Spinner } from '../../engine/ui/PageSpinner'
import { f } from '../../../schema/kit'
import { GuestPage, linkClass, primaryButtonClass } from './GuestPage'
import { useResetPasswordForm } from './usePasswordReset'

// The confirmation as My Profile asks for it: required here, judged against the password by the user's rule.
const confirmField = f.password({ required: true })

/** `/reset-password?token=…` (the mailed link): the new password, twice. */
export function ResetPasswordScreen() {
  const { t } = useTranslation()
  const user = useEntity('user')
  const { token } = useSearch({ strict: false }) as { token?: unknown }
  if (!user) return null
  if (typeof token !== 'string' || token === '') {
    return (
      <GuestPage title={t('password_reset.reset_title')}>
        <h1 className="text-2xl font-semibold tracking-tight">{t('password_reset.reset_title')}</h1>
        <div className="mt-6">
          <Banner kind="error">{t('password_reset.no_token')}</Banner>
        </div>
        <AskAgain />
      </GuestPage>
    )
  }
  return <ResetPasswordForm user={user} token={token} />
}

function AskAgain() {
  const { t } = useTranslation()
  return (
    <p className="mt-6 text-center text-sm text-slate-500 dark:text-slate-400">
      <Link to={paths.forgotPassword} className={linkClass}>
        {t('password_reset.ask_again')}
      </Link>
    </p>
  )
}

function ResetPasswordForm({ user, token }: { user: AnyEntity; token: string }) {
  const { t } = useTranslation()
  const { entity, form, submit, outcome, isSubmitting } = useResetPasswordForm(user, token)
  if (outcome?.kind === 'done') {
    return (
      <GuestPage title={t('password_reset.reset_title')}>
        <h1 className="text-2xl font-semibold tracking-tight">{t('password_reset.reset_title')}</h1>
        <div className="mt-6">
          <Banner kind="success">{outcome.text}</Banner>
        </div>
        <Link to={paths.login} className={`${primaryButtonClass} hover:no-underline`}>
          {t('password_reset.go_to_login')}
        </Link>
      </GuestPage>
    )
  }
  return (
    <GuestPage title={t('password_reset.reset_title')}>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('password_reset.reset_title')}>
        <h1 className="text-2xl font-semibold tracking-tight">{t('password_reset.reset_title')}</h1>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('password_reset.reset_subtitle')}</p>
        <div className="mt-6 space-y-5">
          {outcome && <Banner kind="error">{outcome.text}</Banner>}
          <FieldRow name="password" field={entity.fields.password!} labelKey="profile.new_password" control={form.control} />
          <FieldRow name="confirm_password" field={confirmField} labelKey="field.confirm_password" control={form.control} />
        </div>
        <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
          {isSubmitting && <Spinner className="size-4" />}
          {t(isSubmitting ? 'password_reset.saving' : 'profile.change_password')}
        </button>
        {outcome ? <AskAgain /> : null}
      </form>
    </GuestPage>
  )
}
