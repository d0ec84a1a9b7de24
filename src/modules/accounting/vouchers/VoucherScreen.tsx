import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useBlocker, useNavigate, useParams } from '@tanstack/react-router'
import { useRef, useState } from 'react'
import { useForm, type FieldError, type FieldErrors, type Resolver } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { renderMessage } from '../../../../schema/kit'
import { voucherSpecOf, type VoucherSpec } from '../../../../schema/entities/accounting/vouchers'
import { useAccess } from '../../../auth/useAccess'
import { isApiError } from '../../../engine/api'
import type { AnyEntity } from '../../../engine/entity-api'
import { errorText } from '../../../engine/errors'
import { FieldRow } from '../../../engine/form/FieldRow'
import { FormActions } from '../../../engine/form/FormActions'
import { BackLink, LoadError, NotFound } from '../../../engine/form/FormScreen'
import type { FormValues, SubmitValues } from '../../../engine/form/form-values'
import { focusFirstInvalid } from '../../../engine/form/focus'
import { placeError } from '../../../engine/form/registry-resolver'
import { listReturn } from '../../../engine/list/list-return'
import { entityKeys } from '../../../engine/queries'
import { Banner } from '../../../engine/ui/Banner'
import { ConfirmDialog } from '../../../engine/ui/ConfirmDialog'
import { Icon } from '../../../engine/ui/icons'
import { showAlert } from '../../../engine/ui/notifications'
import { PageSpinner, Spinner } from '../../../engine/ui/PageSpinner'
import { cancelVoucher, fetchVoucher, saveVoucher } from './voucher-api'
import { judgeVoucher, newVoucherValues, storedVoucherValues, type StoredVoucher } from './voucher-model'
import { VoucherDocument } from './VoucherDocument'
import { VoucherLines } from './VoucherLines'
import { VoucherPostings } from './VoucherPostings'

/**
 * The voucher entry screen of every kind (issue 10; product-spec "Extra routes"): at
 * `<formPath>/new` a new voucher, at `<formPath>/{line id}` the voucher that line belongs
 * to. Header, ledger lines with their live balance, Save (refused with the difference while
 * the sides differ), Print (the voucher as a document) and Cancel voucher (reversing rows);
 * a stored voucher shows its general-ledger postings and reversals.
 */
const secondaryButton =
  'inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-700 shadow-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'

export function VoucherScreen({ entity }: { entity: AnyEntity }) {
  const spec = voucherSpecOf(entity.name)!
  const params: { id?: string } = useParams({ strict: false })
  const id = params.id ?? ''
  const isNew = id === 'new'
  const isValidId = /^\d{1,15}$/.test(id) && Number(id) > 0
  const voucher = useQuery({
    queryKey: [...entityKeys.record(entity.name, id), 'voucher'],
    queryFn: ({ signal }) => fetchVoucher(entity, spec, id, signal),
    enabled: !isNew && isValidId,
  })
  if (!isNew && (!isValidId || (isApiError(voucher.error) && voucher.error.status === 404))) return <NotFound entity={entity} />
  if (!isNew && voucher.isPending) return <PageSpinner />
  if (!isNew && voucher.isError) return <LoadError entity={entity} error={voucher.error} />
  return <VoucherForm key={id} entity={entity} spec={spec} lineId={isNew ? null : Number(id)} stored={isNew ? null : voucher.data!} />
}

const todayIso = () => {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** Runs the voucher's rules (voucher-model.ts) for react-hook-form, in the interface language. */
function voucherResolver(spec: VoucherSpec, entity: AnyEntity, t: (key: string, params?: Record<string, string | number>) => string): Resolver<FormValues, unknown, SubmitValues> {
  return async (values) => {
    const found = judgeVoucher(spec, values, (field) => entity.fieldLabelKey(field))
    if (Object.keys(found).length === 0) return { values, errors: {} }
    const errors: Record<string | number, unknown> = {}
    for (const [key, message] of Object.entries(found)) placeError(errors, key, { type: 'voucher', message: renderMessage(t, message) } as FieldError, new Set(['items']))
    return { values: {}, errors: errors as FieldErrors<FormValues> }
  }
}

function VoucherForm({ entity, spec, lineId, stored }: { entity: AnyEntity; spec: VoucherSpec; lineId: number | null; stored: StoredVoucher | null }) {
  const { t } = useTranslation()
  const access = useAccess()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const formRef = useRef<HTMLFormElement>(null)
  const isNew = stored === null
  const form = useForm<FormValues, unknown, SubmitValues>({
    defaultValues: stored ? storedVoucherValues(spec, stored) : newVoucherValues(spec, todayIso()),
    resolver: voucherResolver(spec, entity, t),
    mode: 'onTouched',
  })
  const canSave = access.can(entity.permissions[isNew ? 'CREATE' : 'UPDATE'])
  const canCancel = !isNew && access.can(entity.permissions.DELETE)
  const [isCancelling, setIsCancelling] = useState(false)
  const isDirty = form.formState.isDirty
  const one = t(`${entity.labelKey}.one`)
  const title = isNew ? t('form.new_title', { entity: one }) : t('accounting.voucher_title', { entity: one, invoice: stored.invoice_no })

  // Nothing typed is lost by a click elsewhere: leaving with changes asks first.
  const isLeavingAllowed = useRef(false)
  const isDirtyNow = useRef(isDirty)
  isDirtyNow.current = isDirty
  const shouldBlock = () => isDirtyNow.current && !isLeavingAllowed.current
  const blocker = useBlocker({ shouldBlockFn: shouldBlock, enableBeforeUnload: shouldBlock, withResolver: true })

  const leaveForList = async () => {
    isLeavingAllowed.current = true
    await queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) })
    await queryClient.invalidateQueries({ queryKey: entityKeys.all('account_log') })
    await navigate(listReturn(entity))
  }

  const save = useMutation({
    mutationFn: (values: FormValues) => saveVoucher(entity, spec, values, stored?.invoice_no),
    onSuccess: async () => {
      showAlert({ kind: 'success', key: 'form.saved', params: { entity: one } })
      await leaveForList()
    },
    onError: (error) => {
      if (isApiError(error) && error.fieldErrors) {
        const other: string[] = []
        for (const [field, messages] of Object.entries(error.fieldErrors)) {
          const text = messages.join(' ')
          // `items` is about the lines together (the difference, a missing cash line): above them.
          if (field === 'items') form.setError('items.root' as never, { type: 'server', message: text })
          else if (field === spec.dateField || field === 'branch' || field === 'sub_ledger' || field === 'details' || field === 'ref_invoice_no' || field.startsWith('items.')) form.setError(field, { type: 'server', message: text })
          else other.push(text)
        }
        form.setError('root.server', { type: 'server', message: other.length > 0 ? other.join(' ') : t('form.fix_errors') })
        requestAnimationFrame(() => focusFirstInvalid(formRef.current))
        return
      }
      form.setError('root.server', { type: 'server', message: errorText(t, error) })
    },
  })

  const cancel = useMutation({
    mutationFn: () => cancelVoucher(entity, lineId!),
    onSuccess: async (detail) => {
      setIsCancelling(false)
      showAlert({ kind: 'success', text: detail ?? t('accounting.cancelled') })
      await leaveForList()
    },
  })

  const submit = form.handleSubmit(
    async (values) => {
      // The resolver passes the form's values through unchanged once they pass.
      await save.mutateAsync(values as FormValues).catch(() => undefined)
    },
    () => requestAnimationFrame(() => focusFirstInvalid(formRef.current)),
  )
  const serverError = form.formState.errors.root?.server?.message
  const header = [spec.dateField, 'branch', ...(spec.hasSubLedger ? ['sub_ledger'] : []), ...(spec.flag ? [spec.flag] : []), ...(spec.hasFile ? ['file'] : []), ...(spec.hasRefInvoice ? ['ref_invoice_no'] : []), 'details']

  return (
    <div className="space-y-6" data-voucher={spec.kind}>
      <div className="flex flex-wrap items-end justify-between gap-4 print:hidden">
        <div className="space-y-3">
          <BackLink entity={entity} />
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        </div>
        {!isNew && (
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" className={secondaryButton} onClick={() => window.print()} disabled={isDirty} title={isDirty ? t('accounting.print_save_first') : undefined}>
              <Icon name="printer" className="size-4" />
              {t('report.print')}
            </button>
            {canCancel && (
              <button type="button" className={`${secondaryButton} text-red-700 dark:text-red-400`} onClick={() => setIsCancelling(true)}>
                <Icon name="trash" className="size-4" />
                {t('accounting.cancel_voucher')}
              </button>
            )}
          </div>
        )}
      </div>

      <form
        ref={formRef}
        onSubmit={submit}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault()
            void submit()
          }
        }}
        noValidate
        aria-label={title}
        className="rounded-xl border border-slate-200 bg-white shadow-xs print:hidden dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="space-y-6 p-6">
          {serverError && <Banner kind="error">{serverError}</Banner>}
          <fieldset disabled={!canSave} className="min-w-0 space-y-6">
            <div className="grid min-w-0 gap-x-6 gap-y-5 sm:grid-cols-2">
              {header.map((name) => (
                <FieldRow
                  key={name}
                  name={name}
                  field={entity.fields[name]!}
                  labelKey={entity.fieldLabelKey(name)}
                  control={form.control}
                  knownLabels={knownLabels(stored, name)}
                />
              ))}
            </div>
            <VoucherLines entity={entity} control={form.control} storedLedgers={stored?.items.map((item) => item.ledger) ?? []} isDisabled={!canSave} />
          </fieldset>
        </div>
        <FormActions listPath={entity.ui.listPath} listSearch={listReturn(entity).search} canSave={canSave} isSaving={save.isPending} />
      </form>

      {stored && <VoucherDocument entity={entity} spec={spec} voucher={stored} />}
      {stored && <VoucherPostings invoiceNo={stored.invoice_no} />}

      <ConfirmDialog
        isOpen={isCancelling}
        title={t('accounting.cancel_title', { invoice: stored?.invoice_no ?? '' })}
        confirmLabel={t('accounting.cancel_voucher')}
        cancelLabel={t('accounting.keep_voucher')}
        onConfirm={() => cancel.mutate()}
        onCancel={() => setIsCancelling(false)}
        isBusy={cancel.isPending}
      >
        <p>{t('accounting.cancel_text')}</p>
        {cancel.isError && <p className="mt-2 text-red-600 dark:text-red-400">{errorText(t, cancel.error)}</p>}
        {cancel.isPending && <Spinner className="mt-2 size-4" />}
      </ConfirmDialog>

      <ConfirmDialog
        isOpen={blocker.status === 'blocked'}
        title={t('form.unsaved_title')}
        confirmLabel={t('form.leave')}
        cancelLabel={t('form.stay')}
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
        tone="warning"
      >
        {t('form.unsaved_text')}
      </ConfirmDialog>
    </div>
  )
}

/** The names of the header's references as the voucher came with them. */
function knownLabels(stored: StoredVoucher | null, name: string): Readonly<Record<string, string>> | undefined {
  const value = stored?.[name]
  if (value && typeof value === 'object' && 'id' in value && 'name' in value) return { [String(value.id)]: String(value.name) }
  return undefined
}
