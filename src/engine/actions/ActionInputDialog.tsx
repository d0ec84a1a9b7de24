import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react'
import { useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { EntityAction } from '../../../schema/kit'
import { isApiError } from '../api'
import type { AnyEntity } from '../entity-api'
import { errorText } from '../errors'
import { FieldRow } from '../form/FieldRow'
import { toFormValues, type FormValues, type SubmitValues } from '../form/form-values'
import { registryResolver } from '../form/registry-resolver'
import { Spinner } from '../ui/PageSpinner'

/** An action's input (a reason to cancel, an amount to pay): the registry's fields and rules, the server's messages on them. */
export function ActionInputDialog({
  entity,
  action,
  onSubmit,
  onCancel,
  isBusy,
  error,
}: {
  entity: AnyEntity
  action: EntityAction
  onSubmit: (input: Record<string, unknown>) => void
  onCancel: () => void
  isBusy: boolean
  error: unknown
}) {
  const { t } = useTranslation()
  // The action's input judged like a record of its own.
  const shape = useMemo(
    () => ({ ...entity, fields: action.input, fieldNames: action.inputNames, rules: [], linesFieldNames: [], fieldLabelKey: (f: string) => action.input[f]?.label ?? `field.${f}` }),
    [entity, action],
  )
  const resolver = useMemo(() => registryResolver(shape, t), [shape, t])
  const form = useForm<FormValues, unknown, SubmitValues>({ resolver, defaultValues: toFormValues(shape, null), mode: 'onTouched' })
  const fieldErrors = isApiError(error) ? error.fieldErrors : undefined
  const otherError = error && !fieldErrors ? errorText(t, error) : undefined
  const submit = form.handleSubmit((values) => onSubmit(values))

  return (
    <Dialog open onClose={() => !isBusy && onCancel()} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900 dark:ring-1 dark:ring-slate-700">
          <DialogTitle className="text-base font-semibold">{t(action.labelKey)}</DialogTitle>
          {action.confirmKey && <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t(action.confirmKey)}</p>}
          <form onSubmit={submit} noValidate className="mt-4 space-y-4">
            {action.inputNames.map((name) => (
              <div key={name}>
                <FieldRow name={name} field={action.input[name]!} labelKey={shape.fieldLabelKey(name)} control={form.control} />
                {fieldErrors?.[name] && <p className="mt-1 text-sm text-red-600 dark:text-red-400">{fieldErrors[name]!.join(' ')}</p>}
              </div>
            ))}
            {otherError && <p className="text-sm text-red-600 dark:text-red-400" role="alert">{otherError}</p>}
            <div className="flex justify-end gap-3 pt-2">
              <button
                type="button"
                onClick={onCancel}
                disabled={isBusy}
                className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
              >
                {t('common.cancel')}
              </button>
              <button
                type="submit"
                disabled={isBusy}
                className={`flex items-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold text-white focus-visible:outline-2 focus-visible:outline-offset-2 disabled:opacity-60 ${action.tone === 'danger' ? 'bg-red-600 hover:bg-red-500' : 'bg-indigo-600 hover:bg-indigo-500'}`}
              >
                {isBusy && <Spinner className="size-4" />}
                {t(action.labelKey)}
              </button>
            </div>
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  )
}
