import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { f } from '../../../schema/kit'
import { session, userOf } from '../../auth/session'
import { apiRequest, isApiError } from '../../engine/api'
import type { AnyEntity, Row } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import { toFormValues, toPayload, type FormValues, type SubmitValues } from '../../engine/form/form-values'
import { registryResolver } from '../../engine/form/registry-resolver'
import { useRefCascades } from '../../engine/form/useRefCascades'
import { entityKeys } from '../../engine/queries'
import { showAlert } from '../../engine/ui/notifications'

/**
 * `/pages/profile` (spec §2): the signed-in user's own account.
 *
 * - Details: what a user may set on their own account (`POST /api/auth/user/update`; never
 *   their role, admin flag or activity), validated by the registry's user rules.
 * - Password: `PATCH user/api/v1/user/passwordchange/{id}` `{current_password, password,
 *   confirm_password}`: a change of one's own password asks for the current one (the server's rule).
 * - Photo: `POST user/api/v1/user/uploadimage/{id}` (multipart `image`).
 *
 * Each answer updates the session's user (name, e-mail, photo), so the toolbar follows.
 */
export const PROFILE_UPDATE_PATH = '/api/auth/user/update'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The user entity reduced to what a user may change on their own account (the registry's `selfEditable`; `shown` leaves out what they cannot pick). */
export function profileEntityOf(user: AnyEntity, shown: (field: string) => boolean = () => true): AnyEntity {
  return { ...user, fieldNames: user.selfEditable.filter(shown) }
}

/** Puts a 400's field messages on their fields; returns the rest as one text. */
function fieldErrorsOn(form: { setError: (name: string, error: { type: string; message: string }) => void }, fields: readonly string[], error: unknown, t: (key: string) => string): string | null {
  if (!isApiError(error) || !error.fieldErrors) return errorText(t, error)
  const other: string[] = []
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    if (fields.includes(field)) form.setError(field, { type: 'server', message: messages.join(' ') })
    else other.push(...messages)
  }
  return other.length > 0 ? other.join(' ') : null
}

export function useProfileDetails({ entity, row }: { entity: AnyEntity; row: Row }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const resolver = useMemo(() => registryResolver(entity, t), [entity, t])
  const defaultValues = useMemo(() => toFormValues(entity, row), [entity, row])
  const form = useForm<FormValues, unknown, SubmitValues>({ resolver, defaultValues, mode: 'onTouched' })
  // The address's police station, district and country follow one another as on the user form.
  useRefCascades(form, entity.fieldNames, useCallback((name: string) => entity.fields[name], [entity]))
  const [serverError, setServerError] = useState<string | null>(null)
  const save = useMutation({
    mutationFn: (values: SubmitValues) => apiRequest(PROFILE_UPDATE_PATH, { method: 'post', json: toPayload(entity, values) }),
    onMutate: () => setServerError(null),
    onError: (error) => setServerError(fieldErrorsOn(form, entity.fieldNames, error, t)),
    onSuccess: async (answer, values) => {
      if (isRecord(answer) && isRecord(answer.user) && typeof answer.user.id === 'number') session.setUser(userOf(answer.user))
      form.reset(values as FormValues)
      showAlert({ kind: 'success', key: 'profile.saved' })
      await queryClient.invalidateQueries({ queryKey: entityKeys.record(entity.name, row.id) })
    },
  })
  const submit = form.handleSubmit(async (values) => {
    await save.mutateAsync(values).catch(() => undefined)
  })
  return { form, submit, isSaving: save.isPending, serverError }
}

/** The password the user has now: asked before their own is changed (not a field of the registry's user). */
export const currentPasswordField = f.password({ required: true })
const PASSWORD_FIELDS = ['current_password', 'password', 'confirm_password']
const EMPTY_PASSWORDS = { current_password: '', password: '', confirm_password: '' }

export function usePasswordChange({ entity, userId }: { entity: AnyEntity; userId: number }) {
  const { t } = useTranslation()
  // The registry's password rules and its confirmation rule (the server checks the same), and the current password.
  const passwordEntity = useMemo(() => ({ ...entity, fields: { ...entity.fields, current_password: currentPasswordField }, fieldNames: PASSWORD_FIELDS }), [entity])
  const resolver = useMemo(() => registryResolver(passwordEntity, t), [passwordEntity, t])
  const form = useForm<FormValues, unknown, SubmitValues>({ resolver, defaultValues: EMPTY_PASSWORDS, mode: 'onTouched' })
  const [serverError, setServerError] = useState<string | null>(null)
  const change = useMutation({
    onMutate: () => setServerError(null),
    onError: (error) => setServerError(fieldErrorsOn(form, PASSWORD_FIELDS, error, t)),
    mutationFn: (password: string) =>
      apiRequest(`${entity.api.base}/passwordchange/${userId}`, {
        method: 'patch',
        json: { current_password: form.getValues('current_password'), password, confirm_password: form.getValues('confirm_password') },
      }),
    onSuccess: (answer) => {
      // The new password ended every session of the user; the server gave this one a fresh token.
      if (isRecord(answer) && typeof answer.access_token === 'string') session.renewToken(answer.access_token)
      form.reset(EMPTY_PASSWORDS)
      showAlert({ kind: 'success', ...(isRecord(answer) && typeof answer.detail === 'string' ? { text: answer.detail } : { key: 'profile.password_changed' }) })
    },
  })
  const submit = form.handleSubmit(async (values) => {
    await change.mutateAsync(String(values.password)).catch(() => undefined)
  })
  return { form, submit, isSaving: change.isPending, serverError }
}

export function usePhotoUpload({ entity, userId }: { entity: AnyEntity; userId: number }) {
  const queryClient = useQueryClient()
  const upload = useMutation({
    mutationFn: (file: File) => {
      const body = new FormData()
      body.append('image', file, file.name)
      return apiRequest(`${entity.api.base}/uploadimage/${userId}`, { method: 'post', body })
    },
    onSuccess: async (answer) => {
      const image = isRecord(answer) && typeof answer.image === 'string' ? answer.image : null
      const current = session.getState().user
      if (current && image) session.setUser({ ...current, photoURL: image })
      showAlert({ kind: 'success', key: 'profile.photo_saved' })
      await queryClient.invalidateQueries({ queryKey: entityKeys.record(entity.name, userId) })
    },
  })
  return upload
}
