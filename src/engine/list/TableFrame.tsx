import type { CSSProperties, ReactNode, Ref } from 'react'

/**
 * The card a list's table sits in: the generic list and bespoke lists alike. `head` is the
 * table's header rows, `children` its body; `above` and `below` sit inside the card.
 *
 * A table wider or longer than the screen scrolls inside the card — the page never gets
 * wider — with its header row kept in view (sticky) and, in the generic list, its actions
 * column pinned to the end edge (`pinnedCell`). `scrollRef` is that scrolling box (the rows of
 * "All" are drawn as it scrolls); `fixedWidth`, the table laid out by its header's widths
 * (`table-layout: fixed`), that wide at least.
 */
export function TableFrame({
  isBusy,
  head,
  children,
  above,
  below,
  label,
  scrollRef,
  fixedWidth,
}: {
  isBusy: boolean
  head: ReactNode
  children: ReactNode
  above?: ReactNode
  below?: ReactNode
  label?: string
  scrollRef?: Ref<HTMLDivElement>
  fixedWidth?: number
}) {
  const fixed: CSSProperties | undefined = fixedWidth === undefined ? undefined : { width: fixedWidth }
  return (
    <section className="min-w-0 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900">
      {above}
      {/* The scroll container: positioned, so a visually hidden header of a wide table scrolls with it instead of widening the page. */}
      {/* Named, it is a region the keyboard can reach and scroll. */}
      <div ref={scrollRef} className="relative max-h-[max(20rem,calc(100dvh-15rem))] overflow-auto overscroll-x-contain" {...(label ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}>
        <table className={`min-w-full text-sm ${fixed ? 'table-fixed' : ''}`} style={fixed} aria-busy={isBusy}>
          <thead className="sticky top-0 z-20 bg-slate-50 text-start text-xs font-semibold uppercase tracking-wide text-slate-500 shadow-[inset_0_-1px_0] shadow-slate-200 dark:bg-slate-900 dark:text-slate-400 dark:shadow-slate-800">
            {head}
          </thead>
          {children}
        </table>
      </div>
      {below}
    </section>
  )
}

/**
 * A cell kept at the end edge while the table scrolls sideways (the row's actions); opaque,
 * so what scrolls under it does not show through, and as the row is (hovered, selected).
 */
export const pinnedCell =
  'sticky end-0 z-10 bg-white shadow-[inset_1px_0_0] shadow-slate-100 group-hover:bg-slate-50 group-aria-selected:bg-indigo-50 rtl:shadow-[inset_-1px_0_0] dark:bg-slate-900 dark:shadow-slate-800 dark:group-hover:bg-slate-800 dark:group-aria-selected:bg-indigo-950'

/** The header cell above a pinned column. */
export const pinnedHeaderCell = 'sticky end-0 z-30 bg-slate-50 dark:bg-slate-900'
