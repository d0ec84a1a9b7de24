import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { session, type LoginAnswer, type SessionUser } from '../../auth/session'
import { apiRequest, isApiError } from '../../engine/api'
import type { AnyEntity } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import type { FormValues, SubmitValues } from '../../engine/form/form-values'
import { registryResolver } from '../../engine/form/registry-resolver'

/**
 * `/register` (spec §2, §7; decisions.md): `POST /api/auth/register` creates a USER-role
 * account and answers `{user, access_token}`, and the new user is signed in at once. The
 * user's rules are the registry's (the server applies the same); the confirmation must
 * match. Closed registration answers 403 with the server's detail, shown as it came.
 */
export const REGISTER_PATH = '/api/auth/register'

export const REGISTER_FIELDS = ['first_name', 'last_name', 'username', 'email', 'password', 'confirm_password'] as const

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The user entity reduced to what one registers with. */
export function registerEntityOf(user: AnyEntity): AnyEntity {
  return { ...user, fieldNames: REGISTER_FIELDS }
}

export function useRegisterForm({ user, onRegistered }: { user: AnyEntity; onRegistered: (signedIn: SessionUser) => void | Promise<void> }) {
  const { t } = useTranslation()
  const entity = useMemo(() => registerEntityOf(user), [user])
  // The user's rules, its password confirmation included (the server judges the same).
  const resolver = useMemo(() => registryResolver(entity, t), [entity, t])
  const defaultValues: FormValues = { first_name: '', last_name: '', username: '', email: '', password: '', confirm_password: '' }
  const form = useForm<FormValues, unknown, SubmitValues>({ resolver, defaultValues, mode: 'onTouched' })
  const [serverError, setServerError] = useState<string | null>(null)

  const submit = form.handleSubmit(async (values) => {
    setServerError(null)
    try {
      // The guest's call: no token, and a refusal is the form's answer.
      const body = await apiRequest(REGISTER_PATH, { method: 'post', json: values, isLogin: true })
      const registered = isRecord(body) ? body.user : undefined
      if (!isRecord(body) || typeof body.access_token !== 'string' || !isRecord(registered) || typeof registered.id !== 'number') throw new Error('Unexpected answer')
      const answer: LoginAnswer = { ...registered, id: registered.id, access: body.access_token }
      await onRegistered(session.signIn(answer))
    } catch (error) {
      if (isApiError(error) && error.fieldErrors) {
        const other: string[] = []
        for (const [field, messages] of Object.entries(error.fieldErrors)) {
          if (field in defaultValues) form.setError(field, { type: 'server', message: messages.join(' ') })
          else other.push(...messages)
        }
        if (other.length > 0) setServerError(other.join(' '))
        return
      }
      setServerError(errorText(t, error))
    }
  })

  return { entity, form, submit, serverError, isSubmitting: form.formState.isSubmitting }
}
