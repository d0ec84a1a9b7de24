import { Link, useParams } from '@tanstack/react-router'
import { useId } from 'react'
import { useController as useFieldController, type Control } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { isApiError } from '../api'
import { labelOf, type AnyEntity, type Row } from '../entity-api'
import { errorText } from '../errors'
import { useEntityRecord } from '../queries'
import { Banner } from '../ui/Banner'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { Icon } from '../ui/icons'
import { PageSpinner, Spinner } from '../ui/PageSpinner'
import { FieldWidget } from '../widgets/FieldWidget'
import type { FormValues, SubmitValues } from './form-values'
import { useFormController } from './useFormController'

/**
 * The generic form screen, at `<formPath>/$id/{-$name}` and `<areaPath>/$id`: `new`
 * creates, an id edits. Loading and not-found are handled here; the form itself renders
 * what `useFormController` holds.
 */
export function FormRoute({ entity }: { entity: AnyEntity }) {
  const params: { id?: string } = useParams({ strict: false })
  const id = params.id ?? ''
  const isNew = id === 'new'
  const isValidId = /^\d{1,15}$/.test(id) && Number(id) > 0
  const record = useEntityRecord(entity, !isNew && isValidId ? id : null)

  if (!isNew && (!isValidId || (isApiError(record.error) && record.error.status === 404))) return <NotFound entity={entity} />
  if (!isNew && record.isPending) return <PageSpinner />
  if (!isNew && record.isError) return <LoadError entity={entity} error={record.error} />
  return <FormScreen key={id} entity={entity} row={isNew ? null : (record.data ?? null)} />
}

function BackLink({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  return (
    <Link to={entity.ui.listPath} className="inline-flex items-center gap-1 text-sm font-medium text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200">
      <Icon name="chevronStart" className="flip-rtl size-4" />
      {t('form.back', { entity: t(`${entity.labelKey}.other`) })}
    </Link>
  )
}

function NotFound({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  return (
    <div className="space-y-6">
      <BackLink entity={entity} />
      <div className="rounded-xl border border-slate-200 bg-white px-6 py-16 text-center dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-lg font-semibold">{t('form.not_found', { entity: t(`${entity.labelKey}.one`) })}</h1>
        <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">{t('form.not_found_text')}</p>
      </div>
    </div>
  )
}

function LoadError({ entity, error }: { entity: AnyEntity; error: unknown }) {
  const { t } = useTranslation()
  return (
    <div className="space-y-6">
      <BackLink entity={entity} />
      <Banner kind="error">{errorText(t, error)}</Banner>
    </div>
  )
}

function FieldRow({ entity, name, control }: { entity: AnyEntity; name: string; control: Control<FormValues, unknown, SubmitValues> }) {
  const { t } = useTranslation()
  const id = useId()
  const field = entity.fields[name]!
  const { field: input, fieldState } = useFieldController({ name, control })
  const label = t(entity.fieldLabelKey(name))
  const errorId = `${id}-error`
  const message = fieldState.error?.message
  const isWide = field.widget === 'textarea' || field.widget === 'json' || field.widget === 'refs-select'
  const isCheckbox = field.widget === 'checkbox'
  return (
    <div className={isWide ? 'sm:col-span-2' : ''}>
      {!isCheckbox && (
        <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
          {label}
          {field.isRequired && (
            <span className="ms-0.5 text-red-600 dark:text-red-400" aria-hidden="true">
              *
            </span>
          )}
          {field.isRequired && <span className="sr-only"> ({t('form.required')})</span>}
        </label>
      )}
      <FieldWidget
        id={id}
        name={name}
        field={field}
        label={label}
        value={input.value}
        onChange={input.onChange}
        onBlur={input.onBlur}
        isInvalid={Boolean(message)}
        describedBy={message ? errorId : undefined}
      />
      {message && (
        <p id={errorId} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
          {message}
        </p>
      )}
    </div>
  )
}

export function FormScreen({ entity, row }: { entity: AnyEntity; row: Row | null }) {
  const { t } = useTranslation()
  const controller = useFormController({ entity, row })
  const { form, submit, isSaving, leavePrompt, isNew } = controller
  const one = t(`${entity.labelKey}.one`)
  const serverError = form.formState.errors.root?.server?.message
  const title = isNew ? t('form.new_title', { entity: one }) : t('form.edit_title', { entity: one })

  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <BackLink entity={entity} />
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          {row && <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{labelOf(entity, row)}</p>}
        </div>
      </div>

      <form onSubmit={submit} noValidate aria-label={title} className="rounded-xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900">
        <div className="space-y-6 p-6">
          {serverError && <Banner kind="error">{serverError}</Banner>}
          <div className="grid gap-x-6 gap-y-5 sm:grid-cols-2">
            {entity.fieldNames.map((name) => (
              <FieldRow key={name} entity={entity} name={name} control={form.control} />
            ))}
          </div>
        </div>
        <div className="flex items-center justify-end gap-3 rounded-b-xl border-t border-slate-200 bg-slate-50 px-6 py-4 dark:border-slate-800 dark:bg-slate-900/60">
          <Link
            to={entity.ui.listPath}
            className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
          >
            {t('common.cancel')}
          </Link>
          <button
            type="submit"
            disabled={isSaving}
            className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
          >
            {isSaving && <Spinner className="size-4" />}
            {t(isSaving ? 'form.saving' : 'form.save')}
          </button>
        </div>
      </form>

      <ConfirmDialog
        isOpen={leavePrompt !== null}
        title={t('form.unsaved_title')}
        confirmLabel={t('form.leave')}
        cancelLabel={t('form.stay')}
        onConfirm={() => leavePrompt?.leave()}
        onCancel={() => leavePrompt?.stay()}
        tone="warning"
      >
        {t('form.unsaved_text')}
      </ConfirmDialog>
    </div>
  )
}
