import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react'
import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Icon } from '../ui/icons'
import { Spinner } from '../ui/PageSpinner'
import { useIsNarrow } from '../ui/useIsNarrow'
import type { SaveIntent } from './useFormController'

/**
 * The form's action bar, kept in view at the bottom of the screen however long the form:
 * Cancel back to the list (as it was left: `listSearch`); Save (stays on the saved record),
 * Save & new, Save & close and — for a printable document — Save & print; Print and Delete
 * for a stored record. On a phone Save stays a button and the rest fold into a menu.
 */
export type FormAction = { key: string; label: string; onClick: () => void; isDisabled?: boolean; title?: string; tone?: 'danger' }

const secondary =
  'inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium whitespace-nowrap text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'
const danger = 'text-red-700 dark:text-red-400'

export function FormActions({
  listPath,
  listSearch,
  canSave,
  isSaving,
  onSave,
  canPrint = false,
  isDisabled = false,
  actions = [],
}: {
  listPath: string
  listSearch?: Readonly<Record<string, string | number | boolean>>
  canSave: boolean
  isSaving: boolean
  /** Saves, then does what the button says. */
  onSave?: (intent: SaveIntent) => void
  /** The document has a printed form: Save & print is offered. */
  canPrint?: boolean
  isDisabled?: boolean
  /** More actions on the stored record (Print, Delete), before the saves. */
  actions?: readonly FormAction[]
}) {
  const { t } = useTranslation()
  const isNarrow = useIsNarrow()
  const saves: FormAction[] = canSave && onSave
    ? [
        { key: 'save_new', label: t('form.save_new'), onClick: () => onSave('new') },
        { key: 'save_close', label: t('form.save_close'), onClick: () => onSave('close') },
        ...(canPrint ? [{ key: 'save_print', label: t('form.save_print'), onClick: () => onSave('print') }] : []),
      ]
    : []
  const more = [...actions, ...saves].map((a) => ({ ...a, isDisabled: a.isDisabled || isSaving || isDisabled }))
  return (
    <div
      data-testid="form-actions"
      className="sticky bottom-0 z-10 flex flex-wrap items-center justify-end gap-2 rounded-b-xl border-t border-slate-200 bg-slate-50/95 px-4 py-3 backdrop-blur-sm sm:px-6 dark:border-slate-800 dark:bg-slate-900/95"
    >
      <Link
        to={listPath}
        search={listSearch}
        className="me-auto rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        {t('common.cancel')}
      </Link>
      {isNarrow && more.length > 0 ? (
        <Menu>
          <MenuButton className={secondary} aria-label={t('form.more_actions')}>
            <Icon name="dotsVertical" className="size-4" />
          </MenuButton>
          <MenuItems anchor="top end" className="z-50 min-w-48 rounded-lg border border-slate-200 bg-white p-1 shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900">
            {more.map((a) => (
              <MenuItem key={a.key} disabled={a.isDisabled}>
                <button type="button" onClick={a.onClick} className={`block w-full rounded-md px-3 py-2 text-start text-sm data-disabled:opacity-50 data-focus:bg-slate-100 dark:data-focus:bg-slate-800 ${a.tone === 'danger' ? danger : ''}`}>
                  {a.label}
                </button>
              </MenuItem>
            ))}
          </MenuItems>
        </Menu>
      ) : (
        more.map((a) => (
          <button key={a.key} type="button" onClick={a.onClick} disabled={a.isDisabled} title={a.title} className={`${secondary} ${a.tone === 'danger' ? danger : ''}`}>
            {a.label}
          </button>
        ))
      )}
      {canSave && (
        <button
          type="submit"
          disabled={isSaving || isDisabled}
          aria-keyshortcuts="Control+S Meta+S"
          className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
        >
          {isSaving && <Spinner className="size-4" />}
          {t(isSaving ? 'form.saving' : 'form.save')}
        </button>
      )}
    </div>
  )
}
