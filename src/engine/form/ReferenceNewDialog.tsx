import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react'
import { useEffect, useId, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyEntity, Row } from '../entity-api'
import { errorText } from '../errors'
import { Banner } from '../ui/Banner'
import { Spinner } from '../ui/PageSpinner'
import { ComputedValues } from './ComputedValues'
import type { FormExtension } from './extension'
import type { FormValues } from './form-values'
import { FormFields } from './FormFields'
import { useScreensOf } from './reference-new'
import { useFormController } from './useFormController'

/**
 * A reference picker's "New …" (Filament's createOptionForm, react-admin's `create`): the
 * target's own generic form — its fields, rules, sections and module extension — in a
 * dialog over the form being filled in, which keeps everything typed. Saved through the
 * engine's create; the new row is handed to the picker, which selects it. Loaded when first
 * opened (the picker is everywhere; the dialog is rare).
 */
export function ReferenceNewDialog({ target, initialValues, onCreated, onClose }: { target: AnyEntity; initialValues: FormValues; onCreated: (row: Row) => void; onClose: () => void }) {
  const { t } = useTranslation()
  const titleId = useId()
  const extension = useTargetExtension(target)
  const [isSaving, setIsSaving] = useState(false)
  return (
    <Dialog open onClose={() => !isSaving && onClose()} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50" />
      <div className="fixed inset-0 overflow-y-auto p-2 sm:p-4">
        <div className="flex min-h-full items-center justify-center">
          <DialogPanel className="w-full max-w-2xl rounded-xl bg-white text-slate-900 shadow-xl dark:bg-slate-900 dark:text-slate-100 dark:ring-1 dark:ring-slate-700">
            <DialogTitle id={titleId} className="border-b border-slate-200 px-4 py-4 text-base font-semibold sm:px-6 dark:border-slate-800">
              {t('form.new_title', { entity: t(`${target.labelKey}.one`) })}
            </DialogTitle>
            {extension.status === 'loading' && (
              <div className="flex justify-center p-6">
                <Spinner className="size-5" />
              </div>
            )}
            {extension.status === 'failed' && (
              <div className="p-6">
                <Banner kind="error">{errorText(t, extension.error)}</Banner>
              </div>
            )}
            {extension.status === 'ready' && (
              <NewRowForm target={target} extension={extension.value} initialValues={initialValues} titleId={titleId} onCreated={onCreated} onCancel={onClose} onSaving={setIsSaving} />
            )}
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  )
}

type ExtensionState = { status: 'loading' } | { status: 'failed'; error: unknown } | { status: 'ready'; value: FormExtension | undefined }

/** The module's extension of the target's form, as its own screen loads it (its hooks run for the form's whole life: loaded before it mounts). */
function useTargetExtension(target: AnyEntity): ExtensionState {
  const load = useScreensOf(target).formExtension
  const [state, setState] = useState<ExtensionState>(load ? { status: 'loading' } : { status: 'ready', value: undefined })
  useEffect(() => {
    if (!load) return
    let isCurrent = true
    load().then(
      (value) => isCurrent && setState({ status: 'ready', value }),
      (error: unknown) => isCurrent && setState({ status: 'failed', error }),
    )
    return () => {
      isCurrent = false
    }
  }, [load])
  return state
}

function NewRowForm({
  target,
  extension,
  initialValues,
  titleId,
  onCreated,
  onCancel,
  onSaving,
}: {
  target: AnyEntity
  extension: FormExtension | undefined
  initialValues: FormValues
  titleId: string
  onCreated: (row: Row) => void
  onCancel: () => void
  onSaving: (isSaving: boolean) => void
}) {
  const { t } = useTranslation()
  const controller = useFormController({ entity: target, row: null, extension, initialValues, onSaved: onCreated })
  const { form, isSaving } = controller
  useEffect(() => onSaving(isSaving), [isSaving, onSaving])
  const serverError = form.formState.errors.root?.server?.message
  // The dialog lives in a portal but in the outer form's React tree: its submit and its save
  // keys must not reach the outer form (that would save the record being filled in).
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    const isSave = (e.key === 'Enter' || e.key.toLowerCase() === 's') && (e.ctrlKey || e.metaKey) && !e.altKey
    if (!isSave) return
    e.preventDefault()
    e.stopPropagation()
    void controller.submit()
  }
  return (
    <form
      ref={controller.formRef}
      onSubmit={(e) => {
        e.preventDefault()
        e.stopPropagation()
        void controller.submit()
      }}
      onKeyDown={onKeyDown}
      noValidate
      aria-labelledby={titleId}
    >
      <div className="space-y-6 p-4 sm:p-6">
        {serverError && <Banner kind="error">{serverError}</Banner>}
        <FormFields controller={controller} canSave />
        {controller.outputNames.length > 0 && <ComputedValues entity={target} names={controller.outputNames} serverNames={[]} stored={undefined} control={form.control} labelKey={controller.labelKey} />}
      </div>
      <div className="flex justify-end gap-3 rounded-b-xl border-t border-slate-200 bg-slate-50 px-4 py-3 sm:px-6 dark:border-slate-800 dark:bg-slate-900">
        <button
          type="button"
          onClick={onCancel}
          disabled={isSaving}
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
        >
          {t('common.cancel')}
        </button>
        <button
          type="submit"
          disabled={isSaving}
          aria-keyshortcuts="Control+S Meta+S"
          className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
        >
          {isSaving && <Spinner className="size-4" />}
          {t(isSaving ? 'form.saving' : 'form.save')}
        </button>
      </div>
    </form>
  )
}
