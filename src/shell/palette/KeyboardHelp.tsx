import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react'
import { useTranslation } from 'react-i18next'

/** The keyboard shortcuts the app answers, each with its keys and what it does. */
export const SHORTCUTS: ReadonlyArray<{ keys: readonly string[]; what: string }> = [
  { keys: ['Ctrl', 'K'], what: 'keys.palette' },
  { keys: ['?'], what: 'keys.help' },
  { keys: ['/'], what: 'keys.search' },
  { keys: ['Enter'], what: 'keys.save' },
  { keys: ['Ctrl', 'S'], what: 'keys.save_anywhere' },
  { keys: ['Ctrl', 'Enter'], what: 'keys.save_anywhere' },
  { keys: ['Enter'], what: 'keys.lines_down' },
  { keys: ['Esc'], what: 'keys.close' },
]

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/** The sheet of keyboard shortcuts (`?`). */
export function KeyboardHelp({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const keyName = (key: string) => (key === 'Ctrl' && isMac() ? '⌘' : key)
  return (
    <Dialog open onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40 dark:bg-black/60" />
      <div className="fixed inset-0 flex items-start justify-center overflow-y-auto p-4 pt-[10vh]">
        <DialogPanel className="w-full max-w-lg rounded-xl bg-white p-6 shadow-2xl ring-1 ring-black/5 dark:bg-slate-900 dark:ring-white/10">
          <div className="flex items-start justify-between gap-4">
            <DialogTitle className="text-lg font-semibold text-slate-900 dark:text-slate-100">{t('keys.title')}</DialogTitle>
            <button type="button" onClick={onClose} className="rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800">
              {t('common.close')}
            </button>
          </div>
          <dl className="mt-4 divide-y divide-slate-100 dark:divide-slate-800">
            {SHORTCUTS.map((s, i) => (
              <div key={i} className="flex items-center justify-between gap-4 py-2.5 text-sm">
                <dt className="text-slate-700 dark:text-slate-300">{t(s.what)}</dt>
                <dd className="flex shrink-0 items-center gap-1" dir="ltr">
                  {s.keys.map((k) => (
                    <kbd key={k} className="min-w-7 rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 text-center font-mono text-xs text-slate-700 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200">
                      {keyName(k)}
                    </kbd>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        </DialogPanel>
      </div>
    </Dialog>
  )
}
