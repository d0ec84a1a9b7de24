import { Dialog, DialogPanel, DialogTitle, Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import { useRouter } from '@tanstack/react-router'
import { useId, useState, type FormEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { savedStateOf, searchOfView, viewOfSavedState } from '../../../schema/kit/list-view'
import { useSession } from '../../auth/useSession'
import { useAccess } from '../access-context'
import { isApiError } from '../api'
import { useEntity } from '../entities-context'
import { errorText } from '../errors'
import { useQuery } from '@tanstack/react-query'
import { entityKeys } from '../queries'
import { fetchOptions } from '../entity-api'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { Icon } from '../ui/icons'
import { showAlert } from '../ui/notifications'
import { Spinner } from '../ui/PageSpinner'
import { borderClass, inputClass } from '../widgets/types'
import { popoverPanelClass, toolButtonClass, ToolLabel } from './tool-button'
import { useSavedViews, useSavedViewWrites, type SavedView } from './saved-views'
import type { ListController } from './useListController'

/**
 * The list's "Views" menu: the saved views of this list the user may open — their own, then
 * those shared with their role (the role named) — each applied by a click (its state in the
 * address: `?saved=<id>`, a link to share); "Save view…" (a name, shared with a role or not —
 * the roles offered to those who may list them); and, for their own, update with the list as
 * it is now, rename or share, copy its link, delete. The views are asked when it opens.
 */
type Editing = { kind: 'new' } | { kind: 'edit'; view: SavedView }

const itemButton = 'rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800 dark:hover:text-slate-200'

export function SavedViewsMenu({ controller }: { controller: ListController }) {
  const { t, i18n } = useTranslation()
  const isRtl = i18n.dir(i18n.resolvedLanguage ?? i18n.language) === 'rtl'
  const { entity, savedLink, layout, view } = controller
  const list = entity.name
  const [editing, setEditing] = useState<Editing | null>(null)
  const [deleting, setDeleting] = useState<SavedView | null>(null)
  const { userId } = useSession()
  const router = useRouter()
  const writes = useSavedViewWrites(savedLink.savedEntity, list)
  const headingId = useId()
  const stateNow = () => savedStateOf(view, layout.columns, layout.density)
  const currentId = view.saved

  const updateState = (saved: SavedView) =>
    writes.update.mutate(
      { id: saved.id, state: stateNow() },
      {
        onSuccess: (updated) => {
          savedLink.adopt(updated)
          showAlert({ kind: 'success', key: 'views.updated', params: { name: updated.name } })
        },
        onError: (error) => showAlert({ kind: 'error', text: errorText(t, error) }),
      },
    )
  const copyLink = async (saved: SavedView) => {
    const link = `${location.origin}${router.buildLocation({ to: entity.ui.listPath, search: searchOfView(viewOfSavedState(entity, saved.state, saved.id)) }).href}`
    try {
      await navigator.clipboard.writeText(link)
      showAlert({ kind: 'success', key: 'views.link_copied', params: { name: saved.name } })
    } catch {
      showAlert({ kind: 'info', text: link })
    }
  }

  return (
    <>
      <Popover className="relative">
        <PopoverButton className={toolButtonClass}>
          <ToolLabel icon="star" label="views.button" />
        </PopoverButton>
        <PopoverPanel anchor={isRtl ? 'bottom start' : 'bottom end'} role="dialog" aria-labelledby={headingId} className={popoverPanelClass}>
          {({ close }) => (
            <div className="space-y-3">
              <div className="flex items-center justify-between gap-2">
                <h2 id={headingId} className="font-semibold">
                  {t('views.title')}
                </h2>
                <button
                  type="button"
                  onClick={() => {
                    close()
                    setEditing({ kind: 'new' })
                  }}
                  className="inline-flex items-center gap-1 rounded-md bg-indigo-600 px-2.5 py-1.5 text-xs font-semibold text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                >
                  <Icon name="plus" className="size-3.5" />
                  {t('views.save')}
                </button>
              </div>
              <ViewsOfList
                controller={controller}
                userId={userId}
                currentId={currentId}
                onApply={(saved) => {
                  savedLink.apply(saved)
                  close()
                }}
                onUpdate={updateState}
                onCopy={(saved) => void copyLink(saved)}
                onEdit={(saved) => {
                  close()
                  setEditing({ kind: 'edit', view: saved })
                }}
                onDelete={(saved) => {
                  close()
                  setDeleting(saved)
                }}
              />
            </div>
          )}
        </PopoverPanel>
      </Popover>
      {editing && <SaveViewDialog editing={editing} controller={controller} writes={writes} onClose={() => setEditing(null)} stateNow={stateNow} />}
      <ConfirmDialog
        isOpen={deleting !== null}
        title={t('views.delete_title')}
        confirmLabel={t('common.delete')}
        cancelLabel={t('common.cancel')}
        isBusy={writes.remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const saved = deleting
          if (!saved) return
          writes.remove.mutate(saved.id, {
            onSuccess: () => {
              showAlert({ kind: 'success', key: 'views.deleted', params: { name: saved.name } })
              if (saved.id === currentId) savedLink.forget()
            },
            onError: (error) => showAlert({ kind: 'error', text: errorText(t, error) }),
            onSettled: () => setDeleting(null),
          })
        }}
      >
        {t('views.delete_text', { name: deleting?.name ?? '' })}
      </ConfirmDialog>
    </>
  )
}

/** The views of the list, asked as the menu opens (this is drawn only while it is open): the user's own, then those shared with a role. */
function ViewsOfList({
  controller,
  userId,
  currentId,
  onApply,
  onUpdate,
  onCopy,
  onEdit,
  onDelete,
}: {
  controller: ListController
  userId: number | null
  currentId: number | undefined
  onApply: (saved: SavedView) => void
  onUpdate: (saved: SavedView) => void
  onCopy: (saved: SavedView) => void
  onEdit: (saved: SavedView) => void
  onDelete: (saved: SavedView) => void
}) {
  const { t } = useTranslation()
  const views = useSavedViews(controller.savedLink.savedEntity, controller.entity.name, true)
  const mine = (views.data ?? []).filter((v) => v.owner?.id === userId)
  // An admin reads everyone's views: the menu offers those shared with a role, not others' own.
  const shared = (views.data ?? []).filter((v) => v.owner?.id !== userId && v.role !== null)
  const action = (label: string, icon: Parameters<typeof Icon>[0]['name'], run: () => void, isDanger = false) => (
    <button type="button" className={`${itemButton} ${isDanger ? 'hover:text-red-600 dark:hover:text-red-400' : ''}`} onClick={run} aria-label={label} title={label}>
      <Icon name={icon} className="size-4" />
    </button>
  )
  if (views.isPending) {
    return (
      <p className="flex items-center gap-2 text-slate-500 dark:text-slate-400">
        <Spinner className="size-4" />
        {t('common.loading')}
      </p>
    )
  }
  if (views.isError) return <p className="text-red-700 dark:text-red-300">{errorText(t, views.error)}</p>
  if (mine.length === 0 && shared.length === 0) return <p className="text-slate-500 dark:text-slate-400">{t('views.empty')}</p>
  return (
    <>
      {mine.length > 0 && (
        <ViewGroup title={t('views.mine')}>
          {mine.map((saved) => (
            <ViewItem key={saved.id} saved={saved} isCurrent={saved.id === currentId} onApply={() => onApply(saved)} note={saved.role ? t('views.shared_with', { role: saved.role.name }) : undefined}>
              {action(t('views.update', { name: saved.name }), 'check', () => onUpdate(saved))}
              {action(t('views.copy_link', { name: saved.name }), 'arrowTopEnd', () => onCopy(saved))}
              {action(t('views.edit', { name: saved.name }), 'cog', () => onEdit(saved))}
              {action(t('views.delete', { name: saved.name }), 'trash', () => onDelete(saved), true)}
            </ViewItem>
          ))}
        </ViewGroup>
      )}
      {shared.length > 0 && (
        <ViewGroup title={t('views.shared')}>
          {shared.map((saved) => (
            <ViewItem key={saved.id} saved={saved} isCurrent={saved.id === currentId} onApply={() => onApply(saved)} note={t('views.shared_with', { role: saved.role?.name ?? '' })}>
              {action(t('views.copy_link', { name: saved.name }), 'arrowTopEnd', () => onCopy(saved))}
            </ViewItem>
          ))}
        </ViewGroup>
      )}
    </>
  )
}

function ViewGroup({ title, children }: { title: string; children: ReactNode }) {
  const id = useId()
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
        {title}
      </h3>
      <ul className="space-y-0.5">{children}</ul>
    </section>
  )
}

function ViewItem({ saved, isCurrent, onApply, note, children }: { saved: SavedView; isCurrent: boolean; onApply: () => void; note?: string; children: ReactNode }) {
  return (
    <li className={`flex items-center gap-1 rounded-md px-1 ${isCurrent ? 'bg-indigo-50 dark:bg-indigo-950/60' : 'hover:bg-slate-50 dark:hover:bg-slate-800/60'}`}>
      <button type="button" onClick={onApply} aria-current={isCurrent || undefined} className="min-w-0 flex-1 rounded py-1.5 text-start focus-visible:outline-2 focus-visible:outline-indigo-500">
        <span className={`block truncate ${isCurrent ? 'font-semibold text-indigo-800 dark:text-indigo-200' : ''}`}>{saved.name}</span>
        {note && <span className="block truncate text-xs text-slate-500 dark:text-slate-400">{note}</span>}
      </button>
      {children}
    </li>
  )
}

/** Save the list as a new view, or rename (and share or unshare) one of one's own. */
function SaveViewDialog({
  editing,
  controller,
  writes,
  onClose,
  stateNow,
}: {
  editing: Editing
  controller: ListController
  writes: ReturnType<typeof useSavedViewWrites>
  onClose: () => void
  stateNow: () => ReturnType<typeof savedStateOf>
}) {
  const { t } = useTranslation()
  const access = useAccess()
  const roleEntity = useEntity('role')
  const canShare = roleEntity !== undefined && access.canDo(roleEntity, 'LIST')
  const roles = useQuery({
    queryKey: entityKeys.options('role', '|100'),
    queryFn: ({ signal }) => fetchOptions(roleEntity!, '', 100, signal),
    enabled: canShare,
    staleTime: 5 * 60_000,
  })
  const was = editing.kind === 'edit' ? editing.view : undefined
  const [name, setName] = useState(was?.name ?? '')
  const [role, setRole] = useState<number | null>(was?.role?.id ?? null)
  const [error, setError] = useState<unknown>(null)
  const nameId = useId()
  const roleId = useId()
  const errorId = useId()
  const isBusy = writes.create.isPending || writes.update.isPending
  const fieldErrors = isApiError(error) ? (error.fieldErrors ?? {}) : {}
  const nameError = fieldErrors.name?.join(' ')
  const otherError = error && !nameError ? errorText(t, error) : undefined

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const trimmed = name.trim()
    if (trimmed === '') return
    const onError = (failure: unknown) => setError(failure)
    if (was) {
      writes.update.mutate(
        { id: was.id, name: trimmed, ...(canShare ? { role } : {}) },
        {
          onSuccess: (saved) => {
            showAlert({ kind: 'success', key: 'views.edited', params: { name: saved.name } })
            onClose()
          },
          onError,
        },
      )
    } else {
      writes.create.mutate(
        { name: trimmed, state: stateNow(), ...(canShare && role !== null ? { role } : {}) },
        {
          onSuccess: (saved) => {
            controller.savedLink.adopt(saved)
            showAlert({ kind: 'success', key: 'views.saved', params: { name: saved.name } })
            onClose()
          },
          onError,
        },
      )
    }
  }

  return (
    <Dialog open onClose={() => !isBusy && onClose()} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900 dark:ring-1 dark:ring-slate-700">
          <form onSubmit={submit} className="space-y-4" noValidate>
            <DialogTitle className="text-base font-semibold">{was ? t('views.edit_title', { name: was.name }) : t('views.save_title')}</DialogTitle>
            {!was && <p className="text-sm text-slate-600 dark:text-slate-300">{t('views.save_hint')}</p>}
            <div>
              <label htmlFor={nameId} className="mb-1 block text-sm font-medium">
                {t('views.name')}
              </label>
              <input
                id={nameId}
                value={name}
                onChange={(e) => setName(e.target.value)}
                maxLength={100}
                required
                autoFocus
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? errorId : undefined}
                className={`${inputClass} ${borderClass(Boolean(nameError))}`}
              />
              {nameError && (
                <p id={errorId} className="mt-1 text-sm text-red-600 dark:text-red-400">
                  {nameError}
                </p>
              )}
            </div>
            {canShare && (
              <div>
                <label htmlFor={roleId} className="mb-1 block text-sm font-medium">
                  {t('views.share_with')}
                </label>
                <select id={roleId} value={role ?? ''} onChange={(e) => setRole(e.target.value === '' ? null : Number(e.target.value))} className={`${inputClass} ${borderClass(false)}`}>
                  <option value="">{t('views.not_shared')}</option>
                  {(roles.data ?? []).map((r) => (
                    <option key={r.id} value={r.id}>
                      {String(r.name ?? r.id)}
                    </option>
                  ))}
                </select>
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t('views.share_hint')}</p>
              </div>
            )}
            {otherError && (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {otherError}
              </p>
            )}
            <div className="flex justify-end gap-3 pt-2">
              <button
                type="button"
                onClick={onClose}
                disabled={isBusy}
                className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
              >
                {t('common.cancel')}
              </button>
              <button
                type="submit"
                disabled={isBusy || name.trim() === ''}
                className="flex items-center gap-2 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
              >
                {isBusy && <Spinner className="size-4" />}
                {was ? t('views.save_changes') : t('views.save_button')}
              </button>
            </div>
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  )
}
