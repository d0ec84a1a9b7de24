import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { isApiError, NETWORK_ERROR_STATUS } from '../engine/api-error'
import { fetchDemoCredentials, login, type Credentials } from './login-api'
import { session, type SessionUser } from './session'

/**
 * The sign-in form (spec §5): validated on change with the spec's messages (i18n keys
 * here), the button enabled once the form is valid and has been edited — where a demo
 * prefill counts as the starting state, so the prefilled form can be sent as it is.
 *
 * Two fields do not need a form library; keeping one out keeps the login screen light.
 */
export const MIN_PASSWORD_LENGTH = 4

// The shape the original's yup `.email()` accepts: something@something.tld, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** A server message as it came, or an i18n key. */
export type ServerError = { text: string } | { key: string }

export type LoginErrors = Partial<Record<keyof Credentials, string>>

/** The spec's rules, in the spec's order; messages are i18n keys. */
export function validateLogin(values: Credentials): LoginErrors {
  const errors: LoginErrors = {}
  const email = values.email.trim()
  if (email === '') errors.email = 'auth.email_required'
  else if (!EMAIL.test(email)) errors.email = 'auth.email_invalid'
  if (values.password === '') errors.password = 'auth.password_required'
  else if (values.password.length < MIN_PASSWORD_LENGTH) errors.password = 'auth.password_short'
  return errors
}

const blank: Credentials = { email: '', password: '' }

export function useLoginForm({ onSignedIn }: { onSignedIn: (user: SessionUser) => void | Promise<void> }) {
  const [values, setValues] = useState<Credentials>(blank)
  const [initial, setInitial] = useState<Credentials>(blank)
  const [touched, setTouched] = useState<Partial<Record<keyof Credentials, boolean>>>({})
  const [serverFieldErrors, setServerFieldErrors] = useState<LoginErrors>({})
  const [serverError, setServerError] = useState<ServerError | null>(null)
  const [isSubmitting, setIsSubmitting] = useState(false)
  const [isPrefilled, setIsPrefilled] = useState(false)
  const hasTyped = useRef(false)

  useEffect(() => {
    let isActive = true
    void fetchDemoCredentials().then((credentials) => {
      // A user who already typed keeps what they typed.
      if (!isActive || !credentials || hasTyped.current) return
      setValues(credentials)
      setInitial(credentials)
      setIsPrefilled(true)
    })
    return () => {
      isActive = false
    }
  }, [])

  const validation = validateLogin(values)
  const isValid = Object.keys(validation).length === 0
  const isDirty = values.email !== initial.email || values.password !== initial.password
  // Messages show for a field once it has been edited (validated on change).
  const messageOf = (field: keyof Credentials): ServerError | undefined => {
    const server = serverFieldErrors[field]
    if (server) return { text: server }
    const key = touched[field] ? validation[field] : undefined
    return key ? { key } : undefined
  }
  const errors = { email: messageOf('email'), password: messageOf('password') }

  const setField = useCallback((field: keyof Credentials, value: string) => {
    hasTyped.current = true
    setValues((v) => ({ ...v, [field]: value }))
    setTouched((t) => ({ ...t, [field]: true }))
    setServerFieldErrors((e) => ({ ...e, [field]: undefined }))
    setServerError(null)
  }, [])

  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    setTouched({ email: true, password: true })
    if (!isValid || isSubmitting) return
    setIsSubmitting(true)
    setServerError(null)
    try {
      const answer = await login({ email: values.email.trim(), password: values.password })
      await onSignedIn(session.signIn(answer))
    } catch (error) {
      if (isApiError(error) && error.fieldErrors) {
        const { email, password, ...rest } = error.fieldErrors
        setServerFieldErrors({ email: email?.join(' '), password: password?.join(' ') })
        const other = Object.values(rest).flat()
        if (other.length > 0) setServerError({ text: other.join(' ') })
      } else {
        const isUnreachable = isApiError(error) && error.status === NETWORK_ERROR_STATUS
        const detail = isApiError(error) && !isUnreachable ? error.detail : undefined
        setServerError(detail ? { text: detail } : { key: isUnreachable ? 'common.network_error' : 'common.unknown_error' })
      }
    } finally {
      setIsSubmitting(false)
    }
  }

  return {
    values,
    errors,
    serverError,
    setField,
    submit,
    isSubmitting,
    isPrefilled,
    isDirty,
    canSubmit: (isDirty || isPrefilled) && isValid && !isSubmitting,
  }
}
