import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react'
import type { ReactNode } from 'react'
import { Spinner } from './PageSpinner'

/**
 * A modal question with a cancel and a confirm button (destructive by default). The confirm
 * button waits while the question is being worked out (`isConfirmDisabled`), and is not
 * offered when the answer can only be no (`canConfirm: false`: the cancel button closes).
 */
export function ConfirmDialog({
  isOpen,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  isBusy = false,
  tone = 'danger',
  isConfirmDisabled = false,
  canConfirm = true,
}: {
  isOpen: boolean
  title: string
  children: ReactNode
  confirmLabel: string
  cancelLabel: string
  onConfirm: () => void
  onCancel: () => void
  isBusy?: boolean
  tone?: 'danger' | 'warning'
  isConfirmDisabled?: boolean
  canConfirm?: boolean
}) {
  const accent = tone === 'danger' ? 'bg-red-600 hover:bg-red-500 focus-visible:outline-red-600' : 'bg-amber-600 hover:bg-amber-500 focus-visible:outline-amber-600'
  const iconTone = tone === 'danger' ? 'bg-red-100 text-red-600 dark:bg-red-950 dark:text-red-400' : 'bg-amber-100 text-amber-600 dark:bg-amber-950 dark:text-amber-400'
  // Unmounted as soon as it closes, with no closing transition: Headless UI 2.2 can leave a dialog
  // closed during its opening transition on the page for good, catching every click (seen in CI
  // when an answer came back within the opening 150 ms; tailwindlabs/headlessui#3892).
  if (!isOpen) return null
  return (
    <Dialog open onClose={() => !isBusy && onCancel()} className="relative z-50">
      <DialogBackdrop transition className="fixed inset-0 bg-slate-900/50 transition-opacity data-closed:opacity-0" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          transition
          className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl transition data-closed:scale-95 data-closed:opacity-0 dark:bg-slate-900 dark:ring-1 dark:ring-slate-700"
        >
          <div className="flex gap-4">
            <div className={`flex size-10 shrink-0 items-center justify-center rounded-full ${iconTone}`}>
              <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.5} className="size-6" aria-hidden="true">
                <path strokeLinecap="round" strokeLinejoin="round" d="M12 9v3.75m-9.303 3.376c-.866 1.5.217 3.374 1.948 3.374h14.71c1.73 0 2.813-1.874 1.948-3.374L13.949 3.378c-.866-1.5-3.032-1.5-3.898 0L2.697 16.126ZM12 15.75h.007v.008H12v-.008Z" />
              </svg>
            </div>
            <div className="min-w-0">
              <DialogTitle className="text-base font-semibold">{title}</DialogTitle>
              <div className="mt-2 space-y-3 text-sm text-slate-600 dark:text-slate-300">{children}</div>
            </div>
          </div>
          <div className="mt-6 flex justify-end gap-3">
            <button
              type="button"
              onClick={onCancel}
              disabled={isBusy}
              className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
            >
              {cancelLabel}
            </button>
            {canConfirm && (
              <button
                type="button"
                onClick={onConfirm}
                disabled={isBusy || isConfirmDisabled}
                className={`flex items-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold text-white focus-visible:outline-2 focus-visible:outline-offset-2 disabled:opacity-60 ${accent}`}
              >
                {isBusy && <Spinner className="size-4" />}
                {confirmLabel}
              </button>
            )}
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  )
}
