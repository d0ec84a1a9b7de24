import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Spinner } from '../ui/PageSpinner'

/** The footer of a form: Cancel back to the list (as it was left: `listSearch`), and Save when the user may save. */
export function FormActions({
  listPath,
  listSearch,
  canSave,
  isSaving,
  isDisabled = false,
}: {
  listPath: string
  listSearch?: Readonly<Record<string, string | number | boolean>>
  canSave: boolean
  isSaving: boolean
  isDisabled?: boolean
}) {
  const { t } = useTranslation()
  return (
    <div className="flex items-center justify-end gap-3 rounded-b-xl border-t border-slate-200 bg-slate-50 px-6 py-4 dark:border-slate-800 dark:bg-slate-900/60">
      <Link
        to={listPath}
        search={listSearch}
        className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        {t('common.cancel')}
      </Link>
      {canSave && (
        <button
          type="submit"
          disabled={isSaving || isDisabled}
          className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
        >
          {isSaving && <Spinner className="size-4" />}
          {t(isSaving ? 'form.saving' : 'form.save')}
        </button>
      )}
    </div>
  )
}
