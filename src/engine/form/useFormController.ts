import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useBlocker, useNavigate } from '@tanstack/react-router'
import { useEffect, useMemo, useRef } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../api'
import { createRecord, updateRecord, type AnyEntity, type Row } from '../entity-api'
import { errorText } from '../errors'
import { entityKeys } from '../queries'
import { showAlert } from '../ui/notifications'
import { toFormValues, toPayload, type FormValues, type SubmitValues } from './form-values'
import { registryResolver } from './registry-resolver'

/**
 * The headless form of any registry entity: react-hook-form with the registry schema,
 * create or update, the server's field errors put on their fields and its `detail` in a
 * banner, success back to the list, and a guard before leaving unsaved changes.
 */
export function useFormController({ entity, row }: { entity: AnyEntity; row: Row | null }) {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const resolver = useMemo(() => registryResolver(entity, t), [entity, t])
  const defaultValues = useMemo(() => toFormValues(entity, row), [entity, row])
  const form = useForm<FormValues, unknown, SubmitValues>({ resolver, defaultValues, mode: 'onTouched' })
  const isNew = row === null

  // Messages are rendered when a field is validated; after a language switch, render the
  // shown ones again in the new language (the server's own messages stay as they came).
  const language = i18n.resolvedLanguage
  const { trigger, getFieldState } = form
  useEffect(() => {
    const shown = entity.fieldNames.filter((name) => {
      const error = getFieldState(name).error
      return error !== undefined && error.type !== 'server'
    })
    if (shown.length > 0) void trigger(shown)
  }, [language, entity, trigger, getFieldState])

  const isDirty = form.formState.isDirty
  const isLeavingAllowed = useRef(false)
  const isDirtyNow = useRef(isDirty)
  isDirtyNow.current = isDirty
  const shouldBlock = () => isDirtyNow.current && !isLeavingAllowed.current
  const blocker = useBlocker({ shouldBlockFn: shouldBlock, enableBeforeUnload: shouldBlock, withResolver: true })

  const save = useMutation({
    mutationFn: (values: SubmitValues) => {
      const payload = toPayload(entity, values)
      return row ? updateRecord(entity, row.id, payload) : createRecord(entity, payload)
    },
    onSuccess: async (saved) => {
      if (saved && typeof saved.id === 'number') queryClient.setQueryData(entityKeys.record(entity.name, saved.id), saved)
      showAlert({ kind: 'success', key: 'form.saved', params: { entity: t(`${entity.labelKey}.one`) } })
      isLeavingAllowed.current = true
      await queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) })
      await navigate({ to: entity.ui.listPath })
    },
    onError: (error) => {
      if (isApiError(error) && error.fieldErrors) {
        const other: string[] = []
        let isFirst = true
        for (const [field, messages] of Object.entries(error.fieldErrors)) {
          if (entity.fields[field]) {
            form.setError(field, { type: 'server', message: messages.join(' ') }, { shouldFocus: isFirst })
            isFirst = false
          } else other.push(...messages)
        }
        form.setError('root.server', { type: 'server', message: other.length > 0 ? other.join(' ') : t('form.fix_errors') })
        return
      }
      form.setError('root.server', { type: 'server', message: errorText(t, error) })
    },
  })

  const submit = form.handleSubmit(async (values) => {
    await save.mutateAsync(values).catch(() => undefined)
  })

  return {
    entity,
    row,
    isNew,
    form,
    submit,
    isSaving: save.isPending,
    isDirty,
    /** Set while a navigation waits for the user's answer to "leave without saving?". */
    leavePrompt: blocker.status === 'blocked' ? { stay: blocker.reset, leave: blocker.proceed } : null,
  }
}

export type FormController = ReturnType<typeof useFormController>
