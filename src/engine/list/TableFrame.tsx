import type { ReactNode } from 'react'

/**
 * The card a list's table sits in: the generic list and bespoke lists alike. `head` is the
 * table's header rows, `children` its body; `above` and `below` sit inside the card.
 */
export function TableFrame({ isBusy, head, children, above, below }: { isBusy: boolean; head: ReactNode; children: ReactNode; above?: ReactNode; below?: ReactNode }) {
  return (
    <section className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900">
      {above}
      {/* Positioned, so a visually hidden header of a wide table scrolls with it instead of widening the page. */}
      <div className="relative overflow-x-auto">
        <table className="min-w-full text-sm" aria-busy={isBusy}>
          <thead className="border-b border-slate-200 bg-slate-50 text-start text-xs font-semibold uppercase tracking-wide text-slate-500 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-400">
            {head}
          </thead>
          {children}
        </table>
      </div>
      {below}
    </section>
  )
}
