import { Link, useParams } from '@tanstack/react-router'
import { lazy, Suspense, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { useAccess } from '../access-context'
import { isApiError } from '../api'
import { documentOf, isDeletableRow, isEditableIn, renderMessage } from '../../../schema/kit'
import { titleOf, type AnyEntity, type Row } from '../entity-api'
import { errorText } from '../errors'
import { useEntityRecord } from '../queries'
import { Banner } from '../ui/Banner'
import { StatusChip } from '../ui/StatusChip'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { Icon } from '../ui/icons'
import { PageSpinner } from '../ui/PageSpinner'
import type { FormExtension } from './extension'
import { FormFields } from './FormFields'
import { useFormPrefill } from './prefill'
import { ComputedValues } from './ComputedValues'
import { useFormController } from './useFormController'
import { requestPrint } from '../print/print-request'
import { RelatedLists } from './RelatedLists'
import { RecordTabs } from './history-tabs'
import { FormActions, type FormAction } from './FormActions'
import { useRecordDelete } from './useRecordDelete'
import { LazyDeleteDialog } from '../list/LazyDeleteDialog'

const PrintDocument = lazy(() => import('../print/PrintDocument').then((m) => ({ default: m.PrintDocument })))
import { listReturn } from '../list/list-return'
import { RecordActions } from '../actions/RecordActions'
import { OwnerGalleries, useOwnerGalleries } from '../gallery/OwnerGalleries'

/**
 * The generic form screen, at `<formPath>/$id/{-$name}` and `<areaPath>/$id`: `new`
 * creates, an id edits. Loading and not-found are handled here; the form itself renders
 * what `useFormController` holds.
 */
export function FormRoute({ entity: registered, extension }: { entity: AnyEntity; extension?: FormExtension }) {
  // A document kept one row per line (a voucher) is edited as the document: its header and its lines.
  const entity = useMemo(() => (registered.rowsPerLine ? documentOf(registered) : registered), [registered])
  const params: { id?: string } = useParams({ strict: false })
  const id = params.id ?? ''
  const isNew = id === 'new'
  const isValidId = /^\d{1,15}$/.test(id) && Number(id) > 0
  const record = useEntityRecord(entity, !isNew && isValidId ? id : null)

  if (!isNew && (!isValidId || (isApiError(record.error) && record.error.status === 404))) return <NotFound entity={entity} />
  if (!isNew && record.isPending) return <PageSpinner />
  if (!isNew && record.isError) return <LoadError entity={entity} error={record.error} />
  return <FormScreen key={id} entity={entity} row={isNew ? null : (record.data ?? null)} extension={extension} />
}

export function BackLink({ entity }: { entity: AnyEntity }) {
  const { t } = useTranslation()
  return (
    // Back to the list as it was left: its page, order, search and filters.
    <Link {...listReturn(entity)} className="inline-flex items-center gap-1 text-sm font-medium text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200">
      <Icon name="chevronStart" className="flip-rtl size-4" />
      {t('form.back', { entity: t(entity.listTitleKey) })}
    </Link>
  )
}

export function NotFound({ entity }: { entity: AnyEntity }) {
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

export function LoadError({ entity, error }: { entity: AnyEntity; error: unknown }) {
  const { t } = useTranslation()
  return (
    <div className="space-y-6">
      <BackLink entity={entity} />
      <Banner kind="error">{errorText(t, error)}</Banner>
    </div>
  )
}

export function FormScreen({ entity, row: openedRow, extension }: { entity: AnyEntity; row: Row | null; extension?: FormExtension }) {
  const { t } = useTranslation()
  const access = useAccess()
  // The pictures this record owns (a product's gallery), on its form.
  const galleries = useOwnerGalleries(entity, openedRow === null)
  // A new record started from another (a related list's "New …"): its reference filled in, and back there after.
  const prefill = useFormPrefill(entity, openedRow === null)
  const controller = useFormController({ entity, row: openedRow, extension, afterCreate: galleries.uploadStaged, ...prefill })
  const { form, submit, isSaving, leavePrompt, isNew, row } = controller
  // A record its workflow has moved on (confirmed, cancelled) is shown, not edited: the server would refuse.
  const isLocked = row !== null && !isEditableIn(entity, row)
  // The server decides; the form does not offer a save it would refuse.
  // An entity the server alone writes (the outbox) has no create/update route: its form only shows.
  // By permission, or to their own rows by the entity's `own` (a customer opens a ticket).
  const canSave = access.canDo(entity, isNew ? 'CREATE' : 'UPDATE') && entity.routes[isNew ? 'create' : 'update'] !== false && !isLocked
  const canDelete = row !== null && access.canDo(entity, 'DELETE') && entity.routes.delete !== false && isDeletableRow(entity, row)
  const removal = useRecordDelete(entity, row, controller.allowLeaving, extension?.deleteWords?.done)
  const status = row && entity.workflow ? String(row[entity.workflow.field]) : null
  const one = t(`${entity.labelKey}.one`)
  const serverError = form.formState.errors.root?.server?.message
  // A numbered document is called by its number ("Payment Voucher PV20261123001").
  const number = row && entity.numbering ? row[entity.numbering.field] : undefined
  const title = isNew ? t('form.new_title', { entity: one }) : typeof number === 'string' && number ? t('form.numbered_title', { entity: one, number }) : t('form.edit_title', { entity: one })
  const deleteWords = extension?.deleteWords
  const label = row ? titleOf(entity, row) : ''
  // What a stored record offers besides saving: its printed form, and its delete (a voucher's cancel).
  const recordActions: FormAction[] = [
    ...(row && entity.print
      ? [{ key: 'print', label: t('report.print'), onClick: () => requestPrint(entity.name, row.id), isDisabled: controller.isDirty, title: controller.isDirty ? t('form.print_save_first') : undefined }]
      : []),
    ...(canDelete ? [{ key: 'delete', label: t(deleteWords?.label ?? 'common.delete'), onClick: removal.ask, tone: 'danger' as const }] : []),
  ]

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4 print:hidden">
        <div className="space-y-3">
          <BackLink entity={entity} />
          <div>
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
              {status && <StatusChip value={status} tones={entity.fields[entity.workflow!.field]!.tones} />}
            </div>
            {row && label !== number && <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{label}</p>}
          </div>
        </div>
        {/* An action changes the stored record: the form's own edits are saved (or dropped) first. */}
        {row && <RecordActions entity={entity} row={row} onDone={controller.adopt} isDisabled={controller.isDirty} />}
      </div>

      {/* A stored record: Details | History. */}
      <RecordTabs entity={entity} row={row}>
      <form
        ref={controller.formRef}
        onSubmit={submit}
        // Ctrl/Cmd+S and Ctrl+Enter save from anywhere, a document's lines included (where Enter moves down a column).
        onKeyDown={(e) => {
          const isSave = (e.key === 'Enter' || e.key.toLowerCase() === 's') && (e.ctrlKey || e.metaKey) && !e.altKey
          if (!isSave) return
          e.preventDefault()
          if (canSave) void submit()
        }}
        noValidate
        aria-label={title}
        className="rounded-xl border border-slate-200 bg-white shadow-xs print:hidden dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="space-y-6 p-6">
          {controller.isStale && (
            <Banner kind="warning">
              <span>{t('form.stale')}</span>{' '}
              <button type="button" onClick={() => void controller.reload()} className="font-semibold underline underline-offset-2">
                {t('form.reload')}
              </button>
            </Banner>
          )}
          {serverError && <Banner kind="error">{serverError}</Banner>}
          {isLocked && status && <Banner kind="info">{renderMessage(t, { key: 'detail.workflow_locked', params: { entity: entity.labelKey, status: `option.${status}` } })}</Banner>}
          <FormFields controller={controller} canSave={canSave} />
          <OwnerGalleries galleries={galleries} ownerId={row?.id ?? null} />
          {controller.outputNames.length + controller.serverNames.length > 0 && (
            <ComputedValues entity={entity} names={controller.outputNames} serverNames={controller.serverNames} stored={row ?? undefined} control={form.control} labelKey={controller.labelKey} />
          )}
        </div>
        <FormActions
          listPath={prefill.returnTo ?? entity.ui.listPath}
          listSearch={prefill.returnTo ? undefined : listReturn(entity).search}
          canSave={canSave}
          isSaving={isSaving}
          onSave={(intent) => void controller.submitAs(intent)()}
          canPrint={entity.print !== undefined}
          actions={recordActions}
        />
      </form>

      {row && extension?.panels?.map((Panel, i) => <Panel key={i} entity={entity} row={row} />)}
      {row && entity.related.length > 0 && <RelatedLists entity={entity} row={row} />}
      </RecordTabs>
      {row && entity.print && (
        <Suspense fallback={null}>
          <PrintDocument entity={entity} row={row} />
        </Suspense>
      )}

      {canDelete && (
        <LazyDeleteDialog
          entity={entity}
          pending={{ kind: 'one', row: row!, label }}
          isOpen={removal.isAsking}
          isBusy={removal.isDeleting}
          onConfirm={removal.confirm}
          onCancel={removal.cancel}
          error={removal.error}
          words={deleteWords && { title: t(deleteWords.title, { label }), confirm: t(deleteWords.confirm), cancel: t(deleteWords.cancel), text: t(deleteWords.text, { label }) }}
        />
      )}

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
