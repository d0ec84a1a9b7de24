import { useTranslation } from 'react-i18next'
import { dismiss, useNotices, type Notice, type NoticeKind } from './notifications'

const tone: Record<NoticeKind, string> = {
  success: 'border-emerald-600/30 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  error: 'border-red-600/30 bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100',
  warning: 'border-amber-600/30 bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  info: 'border-sky-600/30 bg-sky-50 text-sky-900 dark:bg-sky-950 dark:text-sky-100',
}

export function noticeText(t: (key: string, params?: Record<string, string | number>) => string, notice: Pick<Notice, 'key' | 'params' | 'text'>): string {
  return notice.text ?? (notice.key ? t(notice.key, notice.params) : '')
}

/** The notification stack, bottom-end (spec §4: at most five at once). */
export function Notifications() {
  const { t } = useTranslation()
  const notices = useNotices()
  if (notices.length === 0) return null
  return (
    <div className="pointer-events-none fixed bottom-4 end-4 z-50 flex w-full max-w-sm flex-col gap-2" aria-live="polite">
      {notices.map((notice) => (
        <div
          key={notice.id}
          role={notice.kind === 'error' ? 'alert' : 'status'}
          className={`pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${tone[notice.kind]}`}
        >
          <p className="flex-1">{noticeText(t, notice)}</p>
          <button
            type="button"
            onClick={() => dismiss(notice.id)}
            className="-me-1 rounded p-0.5 opacity-70 hover:opacity-100 focus-visible:outline-2"
            aria-label={t('common.dismiss')}
          >
            <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" aria-hidden="true">
              <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
            </svg>
          </button>
        </div>
      ))}
    </div>
  )
}
