import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react'
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useId, useMemo, useRef, useState } from 'react'
import { useForm, type Resolver } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useFormat } from '../../i18n/useFormat'
import { useAccess } from '../access-context'
import { isApiError } from '../api'
import { bulkSettableFields } from '../../../schema/kit/bulk'
import { bulkCountOf, bulkUpdate, canBulkUpdate, BulkRefusalError, undoBulkUpdate, type BulkTarget } from '../bulk-api'
import type { AnyEntity } from '../entity-api'
import { errorText } from '../errors'
import { FieldRow } from '../form/FieldRow'
import { toFormValues, type FormValues, type SubmitValues } from '../form/form-values'
import { registryResolver } from '../form/registry-resolver'
import { useCanPick } from '../pickable'
import { entityKeys } from '../queries'
import { Banner } from '../ui/Banner'
import { Icon } from '../ui/icons'
import { ACTION_NOTICE_MS, notify } from '../ui/notifications'
import { Spinner } from '../ui/PageSpinner'
import { inputClass } from '../widgets/types'

/**
 * Bulk update (issue 25): pick a field, give its value with the form's own widget, and set it
 * for the selected records or every record of the list's filter — all or nothing. The server's
 * refusals are shown per record; the toast after it offers Undo, which puts back what the
 * audit log says was there.
 */
type Translate = (key: string, params?: Record<string, string | number>) => string

const primary =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-xs hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50'
const secondary =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'

/** Undoes a batch and says how it went: outlives the dialog, as the toast's button does. */
async function undoAndSay(entity: AnyEntity, batch: string, queryClient: QueryClient, t: Translate): Promise<void> {
  try {
    const { restored } = await undoBulkUpdate(entity, batch)
    notify({ kind: 'success', key: 'list.bulk_undone', params: { count: restored } })
  } catch (error) {
    notify({ kind: 'error', text: refusalText(entity, t, error) })
  } finally {
    await queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) })
  }
}

/** A refusal in one line (a toast): the server's detail, then each record with its reasons. */
function refusalText(entity: AnyEntity, t: Translate, error: unknown): string {
  if (!(error instanceof BulkRefusalError)) return errorText(t, error)
  return [error.detail, ...error.records.map((r) => `${r.label}: ${reasonsOf(entity, t, r.reasons).join(' ')}`)].join(' ')
}

/** A record's reasons, each field's named by its label (a reason about the whole record as it came). */
function reasonsOf(entity: AnyEntity, t: Translate, reasons: Readonly<Record<string, readonly string[]>>): string[] {
  return Object.entries(reasons).flatMap(([field, messages]) => messages.map((m) => (entity.fields[field] && !m.includes(t(entity.fieldLabelKey(field))) ? `${t(entity.fieldLabelKey(field))}: ${m}` : m)))
}

/** The fields this user may set on these records: the settable ones they can pick a value for (a reference's rows they may list; an admin's flag for admins). */
function useBulkFields(entity: AnyEntity): string[] {
  const canPick = useCanPick()
  const { isAdmin } = useAccess()
  return useMemo(
    () =>
      bulkSettableFields(entity).filter((name) => {
        const field = entity.fields[name]!
        return canPick(field) && (!field.isAdminOnly || isAdmin)
      }),
    [entity, canPick, isAdmin],
  )
}

export function BulkUpdateDialog({ entity, target, isOpen, onClose, onDone }: { entity: AnyEntity; target: BulkTarget; isOpen: boolean; onClose: () => void; onDone: () => void }) {
  // Unmounted when closed, with no closing transition (see ConfirmDialog: Headless UI 2.2 may leave a closing dialog on the page).
  if (!isOpen) return null
  return <BulkUpdatePanel entity={entity} target={target} onClose={onClose} onDone={onDone} />
}

function BulkUpdatePanel({ entity, target, onClose, onDone }: { entity: AnyEntity; target: BulkTarget; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation()
  const format = useFormat()
  const queryClient = useQueryClient()
  const fields = useBulkFields(entity)
  const selectId = useId()
  const hintId = useId()
  const [name, setName] = useState('')
  const count = bulkCountOf(target)

  // The chosen field alone is checked, by its own rules: the others are not being set.
  const chosen = useRef(name)
  chosen.current = name
  const resolver = useMemo<Resolver<FormValues, unknown, SubmitValues>>(
    () => (values, context, options) => {
      const only = chosen.current
      const shape: AnyEntity = { ...entity, fieldNames: only ? [only] : [], rules: [], linesFieldNames: [] }
      return registryResolver(shape, t, { mode: 'update' })(values, context, options)
    },
    [entity, t],
  )
  const defaultValues = useMemo(() => toFormValues(entity, null), [entity])
  const form = useForm<FormValues, unknown, SubmitValues>({ resolver, defaultValues, mode: 'onTouched' })

  const save = useMutation({
    mutationFn: (values: Record<string, unknown>) => bulkUpdate(entity, target, values),
    onSuccess: async ({ updated, batch }) => {
      await queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) })
      notify(
        { kind: 'success', key: 'list.bulk_updated', params: { count: updated, field: t(entity.fieldLabelKey(name)) }, action: { key: 'list.undo', run: () => void undoAndSay(entity, batch, queryClient, t) } },
        ACTION_NOTICE_MS,
      )
      onDone()
      onClose()
    },
    onError: (error) => {
      // The value itself refused (a field map naming it): said under the input, as the form says it.
      const own = isApiError(error) ? error.fieldErrors?.[name] : undefined
      if (own) form.setError(name, { type: 'server', message: own.join(' ') })
    },
  })

  const choose = (next: string) => {
    setName(next)
    save.reset()
    form.clearErrors()
    if (next) form.resetField(next)
  }
  const submit = form.handleSubmit((values) => save.mutate({ [name]: values[name] ?? null }))
  const error = save.error
  const isBusy = save.isPending
  const field = name ? entity.fields[name] : undefined

  return (
    <Dialog open onClose={() => !isBusy && onClose()} className="relative z-50">
      <DialogBackdrop transition className="fixed inset-0 bg-slate-900/50 transition-opacity data-closed:opacity-0" />
      <div className="fixed inset-0 flex items-center justify-center p-2 sm:p-4">
        <DialogPanel
          transition
          className="flex max-h-[calc(100dvh-1rem)] w-full max-w-lg flex-col overflow-y-auto rounded-xl bg-white p-4 shadow-xl transition data-closed:scale-95 data-closed:opacity-0 sm:p-6 dark:bg-slate-900 dark:ring-1 dark:ring-slate-700"
        >
          <DialogTitle className="text-base font-semibold text-slate-900 dark:text-slate-100">{t('list.bulk_title')}</DialogTitle>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
            {t(target.kind === 'ids' ? 'list.bulk_target_ids' : 'list.bulk_target_filter', { count: format.integer(count) })}
          </p>
          <form onSubmit={(e) => void submit(e)} noValidate className="mt-4 space-y-4">
            <div>
              <label htmlFor={selectId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
                {t('list.bulk_field')}
              </label>
              <select id={selectId} value={name} onChange={(e) => choose(e.target.value)} disabled={isBusy} className={`${inputClass} border-slate-300 dark:border-slate-700`}>
                <option value="">{t('list.bulk_pick_field')}</option>
                {fields.map((f) => (
                  <option key={f} value={f}>
                    {t(entity.fieldLabelKey(f))}
                  </option>
                ))}
              </select>
            </div>

            {field && (
              <div className="grid grid-cols-1">
                <FieldRow key={name} name={name} field={field} labelKey={entity.fieldLabelKey(name)} control={form.control} />
                <p id={hintId} className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
                  {t('list.bulk_value_hint')}
                </p>
              </div>
            )}

            {error && !(isApiError(error) && error.fieldErrors?.[name] && Object.keys(error.fieldErrors).length === 1) && (
              <Banner kind="error">
                {error instanceof BulkRefusalError ? (
                  <>
                    <p>{error.detail}</p>
                    <p className="mt-2 font-medium">{t('list.bulk_refused_title')}</p>
                    <ul className="mt-1 list-disc space-y-0.5 ps-5" data-refused>
                      {error.records.map((r) => (
                        <li key={r.id} data-record={r.id}>
                          <span className="font-medium" dir="auto">
                            {r.label}
                          </span>
                          {': '}
                          {reasonsOf(entity, t, r.reasons).join(' ')}
                        </li>
                      ))}
                    </ul>
                  </>
                ) : (
                  errorText(t, error)
                )}
              </Banner>
            )}

            <div className="flex flex-wrap justify-end gap-3 pt-2">
              <button type="button" onClick={onClose} disabled={isBusy} className={secondary}>
                {t('common.cancel')}
              </button>
              <button type="submit" disabled={!field || isBusy || count === 0} className={primary}>
                {isBusy && <Spinner className="size-4" />}
                {t('list.bulk_apply', { count })}
              </button>
            </div>
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  )
}

/**
 * The selection bar's button: opens the dialog for the target (the selected records, or
 * every record of the filter). Not shown where the entity's records cannot be changed in bulk
 * or the user may not change them.
 */
export function BulkUpdateButton({ entity, target, onDone = () => {} }: { entity: AnyEntity; target: BulkTarget; onDone?: () => void }) {
  const { t } = useTranslation()
  const access = useAccess()
  const [isOpen, setOpen] = useState(false)
  if (!canBulkUpdate(entity) || !access.canDo(entity, 'UPDATE') || bulkCountOf(target) === 0) return null
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm font-medium text-indigo-700 hover:bg-indigo-100 dark:text-indigo-300 dark:hover:bg-indigo-950"
      >
        <Icon name="adjustments" className="size-4" />
        {t('list.bulk_update')}
      </button>
      <BulkUpdateDialog entity={entity} target={target} isOpen={isOpen} onClose={() => setOpen(false)} onDone={onDone} />
    </>
  )
}
