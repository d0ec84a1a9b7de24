import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyEntity, Row } from '../entity-api'
import { errorText } from '../errors'
import { Banner } from '../ui/Banner'
import { LazyConfirmDialog } from '../ui/LazyConfirmDialog'
import { useRecordActions } from './useRecordActions'
import { DropdownMenu, menuItemClass } from '../../shell/DropdownMenu'
import { Icon } from '../ui/icons'

const ActionInputDialog = lazy(() => import('./ActionInputDialog').then((m) => ({ default: m.ActionInputDialog })))

const buttonClass = {
  default:
    'inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 shadow-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800',
  danger:
    'inline-flex items-center gap-1.5 rounded-lg border border-red-300 bg-white px-3 py-2 text-sm font-medium text-red-700 shadow-xs hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600 disabled:opacity-60 dark:border-red-900 dark:bg-slate-900 dark:text-red-300 dark:hover:bg-red-950',
} as const

/**
 * The buttons of a record's custom actions (registry `actions`), with the confirmation or
 * the input an action declares. Only what the user may run, and what applies to the record
 * as it stands, is offered; the server checks both again.
 */
export function RecordActions({
  entity,
  row,
  size = 'default',
  onDone,
  isDisabled = false,
}: {
  entity: AnyEntity
  row: Row
  size?: 'default' | 'compact'
  /** Called with the record as the action left it. */
  onDone?: (after: Row) => void
  isDisabled?: boolean
}) {
  const { t } = useTranslation()
  const actions = useRecordActions(entity, row, onDone)
  if (actions.available.length === 0) return null
  const pending = actions.pending
  const error = actions.error && !pending ? actions.error : undefined
  // In a list row, the record's next step stands alone; the rest wait behind a menu (an order's row is not a toolbar).
  const nextStep = actions.available.find((a) => a.transition && a.tone !== 'danger') ?? actions.available.find((a) => a.tone !== 'danger')
  const [inline, more] = size === 'compact' && actions.available.length > 2 ? [nextStep ? [nextStep] : [], actions.available] : [actions.available, []]
  const rest = more.filter((a) => !inline.includes(a))
  return (
    <div className="flex flex-col items-end gap-2">
      <div className={`flex items-center justify-end ${size === 'compact' ? 'flex-nowrap gap-1 whitespace-nowrap' : 'flex-wrap gap-2'}`} role="group" aria-label={t('action.group')}>
        {inline.map((action) => (
          <button
            key={action.name}
            type="button"
            onClick={(e) => {
              e.stopPropagation()
              actions.start(action)
            }}
            disabled={actions.isRunning || isDisabled}
            title={isDisabled ? t('action.save_first') : undefined}
            className={`${buttonClass[action.tone]} ${size === 'compact' ? 'px-2 py-1 text-xs' : ''}`}
          >
            {t(action.labelKey)}
          </button>
        ))}
        {rest.length > 0 && (
          <DropdownMenu label={t('action.more')} buttonClassName={`${buttonClass.default} px-1.5 py-1`} button={<Icon name="dotsVertical" className="size-4" />}>
            {(close) =>
              rest.map((action) => (
                <button
                  key={action.name}
                  type="button"
                  role="menuitem"
                  disabled={actions.isRunning || isDisabled}
                  className={`${menuItemClass} ${action.tone === 'danger' ? 'text-red-700 dark:text-red-300' : ''}`}
                  onClick={(e) => {
                    e.stopPropagation()
                    close()
                    actions.start(action)
                  }}
                >
                  {t(action.labelKey)}
                </button>
              ))
            }
          </DropdownMenu>
        )}
      </div>
      {error && <Banner kind="error">{errorText(t, error)}</Banner>}
      <LazyConfirmDialog
        isOpen={pending?.step === 'confirm'}
        title={pending ? t(pending.action.labelKey) : ''}
        confirmLabel={pending ? t(pending.action.labelKey) : ''}
        cancelLabel={t('common.cancel')}
        onConfirm={() => actions.confirm()}
        // A confirmation still fading out must not close the step that followed it.
        onCancel={() => pending?.step === 'confirm' && actions.cancel()}
        isBusy={actions.isRunning}
        tone={pending?.action.tone === 'danger' ? 'danger' : 'warning'}
      >
        {pending?.action.confirmKey ? t(pending.action.confirmKey) : null}
        {pending?.step === 'confirm' && actions.error ? <span className="mt-2 block text-red-600 dark:text-red-400">{errorText(t, actions.error)}</span> : null}
      </LazyConfirmDialog>
      {pending?.step === 'input' && (
        <Suspense fallback={null}>
          <ActionInputDialog entity={entity} action={pending.action} onSubmit={actions.confirm} onCancel={actions.cancel} isBusy={actions.isRunning} error={actions.error} />
        </Suspense>
      )}
    </div>
  )
}
