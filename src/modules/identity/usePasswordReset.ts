import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { apiRequest, isApiError } from '../../engine/api'
import type { AnyEntity } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import type { FormValues, SubmitValues } from '../../engine/form/form-values'
import { registryResolver } from '../../engine/form/registry-resolver'

/**
 * A forgotten password (issue 9), for a guest. `/pages/auth/forgot-password-2` (the login
 * page's Reset Password link, spec §2) asks for the e-mail and `POST`s it to
 * `/api/auth/forgot-password`, which answers the same whether an account uses it or not; the
 * mailed link opens `/reset-password?token=…`, which asks for the new password twice — by the
 * user's password rules, as My Profile's password form — and `POST`s it with the token to
 * `/api/auth/reset-password`. What the server says (sent, changed, a spent or expired link,
 * too many requests) is shown in its words, in the interface's language.
 */
export const FORGOT_PASSWORD_PATH = '/api/auth/forgot-password'
export const RESET_PASSWORD_PATH = '/api/auth/reset-password'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const detailOf = (answer: unknown): string | null => (isRecord(answer) && typeof answer.detail === 'string' ? answer.detail : null)

type Outcome = { kind: 'done'; text: string } | { kind: 'refused'; text: string } | null

/** The guest's form: the user's fields `names`, sent to `path` (no token); 400 field maps go on their fields. */
function useGuestForm({ user, names, defaultValues, path, bodyOf }: { user: AnyEntity; names: readonly string[]; defaultValues: FormValues; path: string; bodyOf: (values: SubmitValues) => unknown }) {
  const { t } = useTranslation()
  const entity = useMemo(() => ({ ...user, fieldNames: names }), [user, names])
  const resolver = useMemo(() => registryResolver(entity, t), [entity, t])
  const form = useForm<FormValues, unknown, SubmitValues>({ resolver, defaultValues, mode: 'onTouched' })
  const [outcome, setOutcome] = useState<Outcome>(null)

  const submit = form.handleSubmit(async (values) => {
    setOutcome(null)
    try {
      // A guest's call: no token is sent, and a refusal is the form's answer, not a logout.
      const answer = await apiRequest(path, { method: 'post', json: bodyOf(values), isLogin: true })
      setOutcome({ kind: 'done', text: detailOf(answer) ?? '' })
    } catch (error) {
      if (isApiError(error) && error.fieldErrors) {
        const other: string[] = []
        for (const [field, messages] of Object.entries(error.fieldErrors)) {
          if (names.includes(field)) form.setError(field, { type: 'server', message: messages.join(' ') })
          else other.push(...messages)
        }
        if (other.length > 0) setOutcome({ kind: 'refused', text: other.join(' ') })
        return
      }
      setOutcome({ kind: 'refused', text: errorText(t, error) })
    }
  })
  return { entity, form, submit, outcome, isSubmitting: form.formState.isSubmitting }
}

const FORGOT_FIELDS = ['email'] as const
const RESET_FIELDS = ['password', 'confirm_password'] as const

export function useForgotPasswordForm(user: AnyEntity) {
  return useGuestForm({ user, names: FORGOT_FIELDS, defaultValues: { email: '' }, path: FORGOT_PASSWORD_PATH, bodyOf: (values) => ({ email: values.email }) })
}

export function useResetPasswordForm(user: AnyEntity, token: string) {
  return useGuestForm({
    user,
    names: RESET_FIELDS,
    defaultValues: { password: '', confirm_password: '' },
    path: RESET_PASSWORD_PATH,
    bodyOf: (values) => ({ token, password: values.password, confirm_password: values.confirm_password }),
  })
}
