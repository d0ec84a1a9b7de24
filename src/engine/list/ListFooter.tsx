import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useFormat } from '../../i18n/useFormat'
import { PageControls } from '../ui/Pagination'
import { showAlert } from '../ui/notifications'
import { ALL_ROWS, ALL_ROWS_MAX, isPageSize, pageSizes, type ListController } from './useListController'

/**
 * The list's footer: rows per page (30, 50, 100), the range shown, page x of y, previous and
 * next — and "All", the whole list on one scrolled page, for a list of at most 10,000 rows:
 * offered but unavailable, saying why, for a longer one (or an entity that serves no unpaged
 * list); chosen, the footer says how many rows there are.
 */
export function ListFooter({ controller: c }: { controller: ListController }) {
  const { t } = useTranslation()
  const format = useFormat()
  const sizeId = useId()
  const reasonId = useId()
  const reason = c.allRefusal === 'too_many' ? t('list.all_reason_too_many', { max: format.integer(ALL_ROWS_MAX) }) : c.allRefusal === 'unavailable' ? t('list.all_reason_unavailable') : undefined
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-600 print:hidden dark:border-slate-800 dark:text-slate-400">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={sizeId}>{t('list.rows_per_page')}</label>
        <select
          id={sizeId}
          value={c.listSize}
          onChange={(e) => {
            const next = Number(e.target.value)
            if (isPageSize(next)) c.setSize(next)
          }}
          className="rounded-md border border-slate-300 bg-white py-1 ps-2 pe-7 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          {pageSizes.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
          {/* Said by the select too while "All" is shown; chosen with the button beside it. */}
          {c.isAll && (
            <option value={ALL_ROWS} disabled>
              {t('list.all')}
            </option>
          )}
        </select>
        <button
          type="button"
          aria-pressed={c.isAll}
          // Focusable while unavailable, so its reason can be read and heard.
          aria-disabled={reason !== undefined || undefined}
          aria-describedby={reason ? reasonId : undefined}
          title={reason}
          onClick={() => {
            if (reason) showAlert({ kind: 'info', text: reason })
            else if (!c.isAll) c.setSize(ALL_ROWS)
          }}
          className="rounded-md border border-slate-300 px-2.5 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50 aria-pressed:border-indigo-300 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-800 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-pressed:border-indigo-800 dark:aria-pressed:bg-indigo-950/60 dark:aria-pressed:text-indigo-100"
        >
          {t('list.all')}
        </button>
        {reason && (
          <span id={reasonId} className="sr-only">
            {reason}
          </span>
        )}
      </div>
      {c.isAll ? (
        <span className="tabular-nums" aria-live="polite">
          {c.isLoadingAll ? t('list.loading_all', { count: c.totalElements, total: format.integer(c.totalElements) }) : t('list.all_shown', { count: c.rows.length, total: format.integer(c.rows.length) })}
        </span>
      ) : (
        <PageControls paging={c} />
      )}
    </div>
  )
}
