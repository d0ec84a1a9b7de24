import { useTranslation } from 'react-i18next'
import { dismiss, hideAlert, hideSnackbar, useFeedback, type MessageContent, type NoticeKind } from './notifications'

const tone: Record<NoticeKind, string> = {
  success: 'border-emerald-600/30 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  error: 'border-red-600/30 bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100',
  warning: 'border-amber-600/30 bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  info: 'border-sky-600/30 bg-sky-50 text-sky-900 dark:bg-sky-950 dark:text-sky-100',
}

export function noticeText(t: (key: string, params?: Record<string, string | number>) => string, message: MessageContent): string {
  return message.text ?? (message.key ? t(message.key, message.params) : '')
}

function DismissButton({ onClick, label }: { onClick: () => void; label: string }) {
  return (
    <button type="button" onClick={onClick} className="-me-1 rounded p-0.5 opacity-70 hover:opacity-100 focus-visible:outline-2" aria-label={label}>
      <svg viewBox="0 0 20 20" className="size-4" fill="currentColor" aria-hidden="true">
        <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
      </svg>
    </button>
  )
}

/**
 * What the feedback API shows (spec §4): the snackbar at the top centre (over the toolbar),
 * the alert banner at the bottom centre and the notification stack at the bottom end (at
 * most five) — none of them over a page's own header, where its search box and New button
 * are. Loaded the first time there is something to show.
 */
export function FeedbackView() {
  const { t } = useTranslation()
  const { alert, snackbar, notices } = useFeedback()
  return (
    <>
      {alert && (
        <div className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex justify-center" data-testid="alert-place">
          <div
            role={alert.kind === 'error' ? 'alert' : 'status'}
            data-testid="alert"
            data-kind={alert.kind}
            className={`pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${tone[alert.kind]}`}
          >
            <p className="flex-1">{noticeText(t, alert)}</p>
            <DismissButton onClick={hideAlert} label={t('common.dismiss')} />
          </div>
        </div>
      )}
      {snackbar && (
        <div className="pointer-events-none fixed inset-x-4 top-4 z-[60] flex justify-center">
          <div
            role={snackbar.kind === 'error' ? 'alert' : 'status'}
            data-testid="snackbar"
            data-kind={snackbar.kind}
            className="pointer-events-auto flex max-w-xl items-center gap-3 rounded-lg bg-slate-800 px-4 py-3 text-sm text-white shadow-xl dark:bg-slate-100 dark:text-slate-900"
          >
            <p className="flex-1">{noticeText(t, snackbar)}</p>
            <DismissButton onClick={hideSnackbar} label={t('common.dismiss')} />
          </div>
        </div>
      )}
      {notices.length > 0 && (
        <div className="pointer-events-none fixed bottom-4 end-4 z-50 flex w-full max-w-sm flex-col gap-2" aria-live="polite" data-testid="notifications">
          {notices.map((notice) => (
            <div
              key={notice.id}
              role={notice.kind === 'error' ? 'alert' : 'status'}
              className={`pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${tone[notice.kind]}`}
            >
              <p className="flex-1">{noticeText(t, notice)}</p>
              {notice.action && (
                <button
                  type="button"
                  onClick={() => {
                    dismiss(notice.id)
                    notice.action!.run()
                  }}
                  className="-my-1 shrink-0 rounded-md px-2 py-1 font-semibold underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-current"
                >
                  {t(notice.action.key)}
                </button>
              )}
              <DismissButton onClick={() => dismiss(notice.id)} label={t('common.dismiss')} />
            </div>
          ))}
        </div>
      )}
    </>
  )
}
