import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react'
import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyEntity } from '../entity-api'
import { errorText } from '../errors'
import { Banner } from '../ui/Banner'
import { Spinner } from '../ui/PageSpinner'
import { ImportDialogMapping } from './ImportDialogMapping'
import { ImportDialogProgress } from './ImportDialogProgress'
import { ImportDialogResult } from './ImportDialogResult'
import { useImportWizard } from './import-wizard'

/**
 * Import of a CSV or Excel file into the entity's records (server/engine/import): choose the
 * file, match its columns to fields, check every row (nothing written), then import all or
 * nothing, or the valid rows in batches with the rejected ones to download. A wizard in a
 * dialog; its behaviour is `useImportWizard`'s.
 */
const primary =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-xs hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50'
const secondary =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'

function Actions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex flex-wrap justify-end gap-3">{children}</div>
}

export function ImportDialog({ entity, isOpen, onClose, onImported }: { entity: AnyEntity; isOpen: boolean; onClose: () => void; onImported: (created: number) => void }) {
  const { t } = useTranslation()
  const wizard = useImportWizard(entity, { isOpen, onImported })
  const fileId = useId()
  const hintId = useId()
  const { step, preview } = wizard
  // Unmounted when closed, with no closing transition (see ConfirmDialog: Headless UI 2.2 may leave a closing dialog on the page).
  if (!isOpen) return null

  const close = () => {
    wizard.stop()
    onClose()
  }
  const entityName = t(`${entity.labelKey}.other`)

  return (
    // While it runs, Escape or a click beside it does not end it: Stop does.
    <Dialog open onClose={() => step.kind !== 'running' && close()} className="relative z-50">
      <DialogBackdrop transition className="fixed inset-0 bg-slate-900/50 transition-opacity data-closed:opacity-0" />
      <div className="fixed inset-0 flex items-center justify-center p-2 sm:p-4">
        <DialogPanel
          transition
          className="flex max-h-[calc(100dvh-1rem)] w-full max-w-3xl flex-col overflow-y-auto rounded-xl bg-white p-4 shadow-xl transition data-closed:scale-95 data-closed:opacity-0 sm:p-6 dark:bg-slate-900 dark:ring-1 dark:ring-slate-700"
        >
          <DialogTitle className="text-base font-semibold text-slate-900 dark:text-slate-100">{t('import.title', { entity: entityName })}</DialogTitle>
          {wizard.file && step.kind !== 'file' && <p className="mt-1 truncate text-sm text-slate-500 dark:text-slate-400" dir="auto">{wizard.file.name}</p>}

          <div className="mt-4 space-y-4">
            {wizard.error ? <Banner kind="error">{errorText(t, wizard.error)}</Banner> : null}

            {(step.kind === 'file' || step.kind === 'reading') && (
              <div>
                <label htmlFor={fileId} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
                  {t('import.file_label')}
                </label>
                <input
                  id={fileId}
                  type="file"
                  accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                  aria-describedby={hintId}
                  disabled={step.kind === 'reading'}
                  onChange={(e) => {
                    const chosen = e.target.files?.[0]
                    if (chosen) wizard.chooseFile(chosen)
                    e.target.value = ''
                  }}
                  className="mt-2 block w-full text-sm text-slate-700 file:me-3 file:rounded-lg file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:font-medium file:text-indigo-700 hover:file:bg-indigo-100 dark:text-slate-200 dark:file:bg-indigo-950 dark:file:text-indigo-200"
                />
                <p id={hintId} className="mt-2 text-xs text-slate-500 dark:text-slate-400">
                  {t('import.file_hint')}
                </p>
                {step.kind === 'reading' && (
                  <p role="status" className="mt-3 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
                    <Spinner className="size-4" />
                    {t('import.reading')}
                  </p>
                )}
              </div>
            )}

            {step.kind === 'mapping' && preview && (
              <>
                <h3 className="text-sm font-semibold text-slate-900 dark:text-slate-100">{t('import.mapping_title')}</h3>
                <ImportDialogMapping preview={preview} mapping={wizard.mapping} onChange={wizard.setField} />
                {wizard.unmappedRequired.length > 0 && <Banner kind="warning">{t('import.required_unmapped', { fields: wizard.unmappedRequired.join(', ') })}</Banner>}
              </>
            )}

            {step.kind === 'running' && <ImportDialogProgress label={t(step.mode === 'dry_run' ? 'import.checking' : 'import.importing')} progress={step.progress} />}

            {step.kind === 'checked' && preview && (
              <>
                <Banner kind={step.result.rejected > 0 ? 'warning' : 'success'}>{t(step.result.rejected > 0 ? 'import.check_errors' : 'import.check_clean')}</Banner>
                <ImportDialogResult result={step.result} fields={preview.fields} />
                <ul className="space-y-1 text-xs text-slate-500 dark:text-slate-400">
                  <li>{t('import.import_all_hint')}</li>
                  <li>{t('import.import_valid_hint')}</li>
                </ul>
              </>
            )}

            {step.kind === 'done' && preview && (
              <>
                <Banner kind={step.result.created > 0 && step.result.rejected === 0 ? 'success' : step.result.created > 0 ? 'warning' : 'error'}>
                  {t(step.result.created === 0 && step.result.rejected > 0 && step.result.mode === 'all' ? 'import.done_nothing' : 'import.done')}
                </Banner>
                <ImportDialogResult result={step.result} fields={preview.fields} />
              </>
            )}
          </div>

          <Actions>
            {step.kind === 'file' || step.kind === 'reading' ? (
              <button type="button" className={secondary} onClick={close}>
                {t('common.cancel')}
              </button>
            ) : null}
            {step.kind === 'mapping' && (
              <>
                <button type="button" className={secondary} onClick={wizard.back}>
                  {t('import.other_file')}
                </button>
                <button type="button" className={primary} onClick={() => wizard.run('dry_run')}>
                  {t('import.check')}
                </button>
              </>
            )}
            {step.kind === 'running' && (
              <button type="button" className={secondary} onClick={wizard.back}>
                {t('import.stop')}
              </button>
            )}
            {step.kind === 'checked' && (
              <>
                <button type="button" className={secondary} onClick={wizard.back}>
                  {t('import.back')}
                </button>
                <button type="button" className={secondary} disabled={step.result.valid === 0} onClick={() => wizard.run('batches')}>
                  {t('import.import_valid')}
                </button>
                {/* All or nothing writes nothing while a row is refused: offered once every row passes. */}
                <button type="button" className={primary} disabled={step.result.rejected > 0 || step.result.rows === 0} onClick={() => wizard.run('all')}>
                  {t('import.import_all')}
                </button>
              </>
            )}
            {step.kind === 'done' && (
              <>
                {step.result.rejected_file && (
                  <button type="button" className={secondary} disabled={wizard.isDownloading} onClick={() => void wizard.download()}>
                    {wizard.isDownloading && <Spinner className="size-4" />}
                    {t('import.download_rejected')}
                  </button>
                )}
                {step.result.created === 0 && (
                  <button type="button" className={secondary} onClick={wizard.back}>
                    {t('import.back')}
                  </button>
                )}
                <button type="button" className={primary} onClick={close}>
                  {t('common.close')}
                </button>
              </>
            )}
          </Actions>
        </DialogPanel>
      </div>
    </Dialog>
  )
}
