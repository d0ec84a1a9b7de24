import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { paths } from '../../app/paths'
import { useEntity } from '../../engine/entities-context'
import type { AnyEntity } from '../../engine/entity-api'
import { FieldRow } from '../../engine/form/FieldRow'
import { Banner } from '../../engine/ui/Banner'
import { Spinner } from '../../engine/ui/PageSpinner'
import { GuestPage, linkClass, primaryButtonClass } from './GuestPage'
import { useForgotPasswordForm } from './usePasswordReset'

/** `/pages/auth/forgot-password-2` (spec §2, the login page's Reset Password link): asks for the e-mail. */
export function ForgotPasswordScreen() {
  const user = useEntity('user')
  if (!user) return null
  return <ForgotPasswordForm user={user} />
}

function ForgotPasswordForm({ user }: { user: AnyEntity }) {
  const { t } = useTranslation()
  const { entity, form, submit, outcome, isSubmitting } = useForgotPasswordForm(user)
  return (
    <GuestPage title={t('password_reset.forgot_title')}>
      <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('password_reset.forgot_title')}>
        <h1 className="text-2xl font-semibold tracking-tight">{t('password_reset.forgot_title')}</h1>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('password_reset.forgot_subtitle')}</p>
        <div className="mt-6 space-y-5">
          {outcome && <Banner kind={outcome.kind === 'done' ? 'success' : 'error'}>{outcome.text}</Banner>}
          <FieldRow name="email" field={entity.fields.email!} labelKey={entity.fieldLabelKey('email')} control={form.control} />
        </div>
        <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
          {isSubmitting && <Spinner className="size-4" />}
          {t(isSubmitting ? 'password_reset.sending' : 'password_reset.send_link')}
        </button>
        <p className="mt-6 text-center text-sm text-slate-500 dark:text-slate-400">
          <Link to={paths.login} className={linkClass}>
            {t('password_reset.back_to_login')}
          </Link>
        </p>
      </form>
    </GuestPage>
  )
}
