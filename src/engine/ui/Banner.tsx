import type { ReactNode } from 'react'

const tone = {
  error: 'border-red-600/30 bg-red-50 text-red-800 dark:bg-red-950/60 dark:text-red-200',
  success: 'border-emerald-600/30 bg-emerald-50 text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-200',
  warning: 'border-amber-600/30 bg-amber-50 text-amber-900 dark:bg-amber-950/60 dark:text-amber-200',
  info: 'border-sky-600/30 bg-sky-50 text-sky-800 dark:bg-sky-950/60 dark:text-sky-200',
} as const

/** An inline alert (spec §4 alert variants). */
export function Banner({ kind, children, onDismiss, dismissLabel }: { kind: keyof typeof tone; children: ReactNode; onDismiss?: () => void; dismissLabel?: string }) {
  return (
    <div role={kind === 'error' ? 'alert' : 'status'} className={`flex items-start gap-3 rounded-lg border px-4 py-3 text-sm ${tone[kind]}`}>
      <div className="flex-1">{children}</div>
      {onDismiss && (
        <button type="button" onClick={onDismiss} className="-me-1 rounded p-0.5 opacity-70 hover:opacity-100" aria-label={dismissLabel}>
          <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" aria-hidden="true">
            <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
          </svg>
        </button>
      )}
    </div>
  )
}
