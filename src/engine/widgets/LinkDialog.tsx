import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { linkAddress } from './link-address'
import { borderClass, inputClass } from './types'

/**
 * The rich-text editor's link: the address of the selected text, added, changed or removed.
 * Its form lives in a portal but in the record form's React tree: its submit must not reach
 * the record form (that would save the record).
 */
export function LinkDialog({ isOpen, href, onApply, onRemove, onCancel }: { isOpen: boolean; href: string; onApply: (href: string) => void; onRemove: () => void; onCancel: () => void }) {
  const { t } = useTranslation()
  return (
    <Dialog open={isOpen} onClose={onCancel} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-xl bg-white p-6 text-slate-900 shadow-xl dark:bg-slate-900 dark:text-slate-100 dark:ring-1 dark:ring-slate-700">
          <DialogTitle className="text-base font-semibold">{t(href ? 'richtext.link_edit_title' : 'richtext.link_title')}</DialogTitle>
          {/* Mounted afresh at each opening: it starts from the link under the caret. */}
          {isOpen && <LinkForm href={href} onApply={onApply} onRemove={onRemove} onCancel={onCancel} />}
        </DialogPanel>
      </div>
    </Dialog>
  )
}

function LinkForm({ href, onApply, onRemove, onCancel }: { href: string; onApply: (href: string) => void; onRemove: () => void; onCancel: () => void }) {
  const { t } = useTranslation()
  const id = useId()
  const [text, setText] = useState(href)
  const [isRefused, setIsRefused] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    event.stopPropagation()
    const address = linkAddress(text)
    if (address === null) setIsRefused(true)
    else onApply(address)
  }
  return (
    <form
      onSubmit={submit}
      // Ctrl+Enter saves the record form (FormScreen): not from here.
      onKeyDown={(e) => e.key === 'Enter' && (e.ctrlKey || e.metaKey) && e.stopPropagation()}
      noValidate
      className="mt-4 space-y-4"
    >
      <div>
        <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
          {t('richtext.link_address')}
        </label>
        <input
          id={id}
          type="url"
          inputMode="url"
          dir="ltr"
          autoComplete="off"
          placeholder="https://"
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            setIsRefused(false)
          }}
          aria-invalid={isRefused || undefined}
          aria-describedby={isRefused ? `${id}-error` : undefined}
          data-autofocus
          className={`${inputClass} ${borderClass(isRefused)} text-start`}
        />
        {isRefused && (
          <p id={`${id}-error`} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
            {t('richtext.link_invalid')}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center justify-end gap-3 pt-2">
        {href && (
          <button type="button" onClick={onRemove} className="me-auto rounded-lg px-3 py-2 text-sm font-medium text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950">
            {t('richtext.unlink')}
          </button>
        )}
        <button
          type="button"
          onClick={onCancel}
          className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
        >
          {t('common.cancel')}
        </button>
        <button type="submit" className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
          {t('richtext.link_apply')}
        </button>
      </div>
    </form>
  )
}
