import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useFormat } from '../../i18n/useFormat'
import { Icon } from './icons'

/** What a paged table's footer reads and moves: a list's controller, a report's. */
export type Paging = {
  page: number
  size: number
  totalElements: number
  /** The list holds more than `totalElements` (the server counted a search only so far): said "more than". */
  totalIsLowerBound?: boolean
  totalPages: number
  setSize: (size: number) => void
  goToPage: (page: number) => void
}

const navButton =
  'rounded-md border border-slate-300 p-1.5 text-slate-600 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-40 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800'

/** A paged table's footer: rows per page, the range shown, page x of y, previous and next. */
export function Pagination({ paging: c, sizes }: { paging: Paging; sizes: readonly number[] }) {
  const { t } = useTranslation()
  const sizeId = useId()
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-600 print:hidden dark:border-slate-800 dark:text-slate-400">
      <div className="flex items-center gap-2">
        <label htmlFor={sizeId}>{t('list.rows_per_page')}</label>
        <select
          id={sizeId}
          value={c.size}
          onChange={(e) => c.setSize(Number(e.target.value))}
          className="rounded-md border border-slate-300 bg-white py-1 ps-2 pe-7 text-sm dark:border-slate-700 dark:bg-slate-900"
        >
          {sizes.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <PageControls paging={c} />
    </div>
  )
}

/** The range shown, page x of y, previous and next: every paged footer's (this one's, the generic list's). */
export function PageControls({ paging: c }: { paging: Omit<Paging, 'setSize'> }) {
  const { t } = useTranslation()
  const format = useFormat()
  const from = c.totalElements === 0 ? 0 : (c.page - 1) * c.size + 1
  const to = Math.min(c.page * c.size, c.totalElements)
  return (
    <div className="flex flex-wrap items-center gap-4">
      <span className="tabular-nums">{t(c.totalIsLowerBound ? 'list.range_more' : 'list.range', { from: format.integer(from), to: format.integer(to), total: format.integer(c.totalElements) })}</span>
      <span className="tabular-nums">{t(c.totalIsLowerBound ? 'list.page_of_more' : 'list.page_of', { page: format.integer(c.page), pages: format.integer(c.totalPages) })}</span>
      <div className="flex gap-1.5">
        <button type="button" className={navButton} onClick={() => c.goToPage(c.page - 1)} disabled={c.page <= 1} aria-label={t('list.previous')}>
          <Icon name="chevronStart" className="flip-rtl size-4" />
        </button>
        <button type="button" className={navButton} onClick={() => c.goToPage(c.page + 1)} disabled={c.page >= c.totalPages} aria-label={t('list.next')}>
          <Icon name="chevronEnd" className="flip-rtl size-4" />
        </button>
      </div>
    </div>
  )
}
